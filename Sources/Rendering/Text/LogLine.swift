import Journal
import Projection

/// One event as a line of `log`: the time of day, the `seq` and a sentence.
///
/// ```swift
/// var out = ""
/// LogLine.write(record, to: &out)
/// // "10:00:01.250 #13 home: didDisappear\n"
/// ```
///
/// With `color`, the time is dim and the sentence is coloured by event type
/// (moves green, lifecycle callbacks cyan, pans yellow, graph changes blue,
/// allocations magenta); the caller asks for colour only on a terminal.
public enum LogLine {
  /// Writes `HH:MM:SS.mmm #SEQ SENTENCE` (then ` (recorded at FILE:LINE)` for an
  /// event that carries its call site, `source`) and a line end.
  /// - Parameters:
  ///   - record: the event.
  ///   - color: whether to add ANSI attributes.
  ///   - glyphs: the arrows of the sentence.
  ///   - out: where the line goes.
  public static func write(
    _ record: Record, color: Bool = false, glyphs: Glyphs = .unicode, to out: inout some TextOutputStream
  ) {
    out.write(TerminalStyle.dim.apply(timeOfDay(record.time), color: color))
    out.write(" #\(record.seq) ")
    out.write(style(of: record.event).apply(record.event.sentence(glyphs), color: color))
    if let source = record.source {
      out.write(TerminalStyle.dim.apply(" (recorded at \(glyphs.text(source, limit: 200)))", color: color))
    }
    out.write("\n")
  }

  /// The line without its line end.
  public static func text(_ record: Record, color: Bool = false, glyphs: Glyphs = .unicode) -> String {
    var out = ""
    write(record, color: color, glyphs: glyphs, to: &out)
    out.removeLast()
    return out
  }

  /// The UTC time of day with milliseconds (truncated): `10:00:01.250`.
  public static func timeOfDay(_ time: Timestamp) -> String {
    let day: Int64 = 86_400_000_000
    var micros = time.microseconds % day
    if micros < 0 { micros += day }
    let millis = micros / 1000
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let ms = millis % 1000
    let fraction = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
    return "\(two(millis / 3_600_000)):\(two(millis / 60_000 % 60)):\(two(millis / 1000 % 60)).\(fraction)"
  }

  static func style(of event: Event) -> TerminalStyle {
    switch event {
    case .session, .mark: .bold
    case .alloc, .dealloc, .modal: .magenta
    case .root, .link, .unlink, .touches: .blue
    case .pan: .yellow
    case .move: .boldGreen
    case .lifecycle: .cyan
    case .unknown: .dim
    }
  }
}
