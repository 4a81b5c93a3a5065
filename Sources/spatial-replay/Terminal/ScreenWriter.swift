/// Writes the stepper's frames to a terminal, rewriting only the lines that
/// changed since the previous frame (all of them after a resize or a resume).
///
/// Each line is written at its row (`ESC [ row ; 1 H`) once the row is erased
/// (`ESC [ 2 K`; erasing after writing would take the last column of a full
/// line with it); the last line, the status line, is in reverse video,
/// and lines marking the current event or finding (`▶`, `>`) in bold.
///
/// ```swift
/// var writer = ScreenWriter()
/// context.stdout.write(writer.frame(lines))
/// ```
struct ScreenWriter {
  private var previous: [String] = []

  /// Forgets what is on the screen: the next frame is written whole.
  mutating func invalidate() {
    previous = []
  }

  /// The bytes that turn the screen from the previous frame into `lines`.
  mutating func frame(_ lines: [String]) -> String {
    var out = ""
    let whole = previous.count != lines.count
    if whole { out += "\u{1B}[H\u{1B}[2J" }
    for (row, line) in lines.enumerated() where whole || previous[row] != line {
      out += "\u{1B}[\(row + 1);1H\u{1B}[2K"
      if row == lines.count - 1 {
        out += "\u{1B}[7m" + line + "\u{1B}[0m"
      } else if line.hasPrefix("▶") || line.hasPrefix(">") {
        out += "\u{1B}[1m" + line + "\u{1B}[0m"
      } else {
        out += line
      }
    }
    previous = lines
    return out
  }
}
