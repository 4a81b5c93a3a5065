import Journal
import Projection
import Rendering

/// Small text helpers of the stepper's screen.
enum ScreenText {
  /// `text` cut to `width` columns (with an ellipsis when cut).
  static func fit(_ text: String, _ width: Int, _ glyphs: Glyphs) -> String {
    guard width > 0 else { return "" }
    return TextWidth.truncate(text, to: width, ellipsis: glyphs.ellipsis)
  }

  /// `text` cut or padded with spaces to exactly `width` columns.
  static func pad(_ text: String, _ width: Int, _ glyphs: Glyphs) -> String {
    let cut = fit(text, width, glyphs)
    let used = TextWidth.columns(of: cut)
    return used < width ? cut + String(repeating: " ", count: width - used) : cut
  }

  /// A word of a wrapped list: the separator before it (dropped at the start
  /// of a line), its text, and how many things it stands for (1 for a name,
  /// N for `+N more`), counted when it does not fit.
  struct Word {
    var separator: String
    var text: String
    var count = 1
  }

  /// Words wrapped into at most `lines` lines of `width` columns; when they
  /// do not all fit, the last line ends with `+N more`, N the things left out.
  static func wrap(_ words: [Word], width: Int, lines: Int, glyphs: Glyphs) -> [String] {
    guard lines > 0, width > 0 else { return [] }
    /// Each line: its pieces (separator included after the first), their columns and counts.
    var rows: [[(text: String, columns: Int, count: Int)]] = [[]]
    var used = 0
    var i = 0
    while i < words.count {
      let first = rows[rows.count - 1].isEmpty
      let text = first ? words[i].text : words[i].separator + words[i].text
      let columns = TextWidth.columns(of: text)
      if first || used + columns <= width {
        rows[rows.count - 1].append((text, columns, words[i].count))
        used += columns
        i += 1
      } else if rows.count < lines {
        // A list goes on on the next line: its comma stays at the end of this one
        // (`disappeared: a, b,` then `c`), moving this line's last word down if need be.
        if words[i].separator.hasPrefix(","), used + 1 > width, rows[rows.count - 1].count > 1 {
          used -= rows[rows.count - 1].removeLast().columns
          i -= 1
        }
        if words[i].separator.hasPrefix(",") {
          let last = rows[rows.count - 1].count - 1
          rows[rows.count - 1][last].text += ","
          rows[rows.count - 1][last].columns += 1
        }
        rows.append([])
        used = 0
      } else {
        break
      }
    }
    // Not everything fits: make room on the last line for the count of what is left
    // (nothing when only uncounted words are left out, e.g. `3 deallocated`).
    if i < words.count, words[i...].contains(where: { $0.count > 0 }) {
      var rest = words[i...].reduce(0) { $0 + $1.count }
      while true {
        let first = rows[rows.count - 1].isEmpty
        let more = (first ? "" : " ") + "+\(rest.grouped) more"
        let columns = TextWidth.columns(of: more)
        if first || used + columns <= width {
          rows[rows.count - 1].append((more, columns, rest))
          break
        }
        let dropped = rows[rows.count - 1].removeLast()
        used -= dropped.columns
        rest += dropped.count
      }
    }
    return rows.map { row in fit(row.map(\.text).joined(), width, glyphs) }
  }
}
