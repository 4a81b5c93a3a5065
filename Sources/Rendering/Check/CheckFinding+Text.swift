import Journal
import Projection

extension CheckFinding {
  /// Writes the finding's line, `file:line[:column]: severity: message [rule]`, then
  /// ` (recorded at SOURCE)` when the event that shows it carries its call site: the one
  /// writer of that line, for `check`'s text, the findings other commands print on
  /// stderr, JUnit's failures and the recorder's handler.
  ///
  /// - Parameters:
  ///   - file: the journal's name as shown.
  ///   - glyphs: the arrows and marks of the message (`--ascii`).
  ///   - escaped: control and invisible characters of the journal (its name, ids, the
  ///     call site) written as escapes, for a terminal or a log.
  ///   - color: the location bold, the severity red or yellow, the rule and the call site dim.
  ///
  /// Implementation note: written piece by piece, without building the line as a
  /// string first: `check` of a legacy journal writes some 600k findings.
  public func write(
    file: String, glyphs: Glyphs = .unicode, escaped: Bool = false, color: Bool = false,
    to out: inout some TextOutputStream
  ) {
    func text(_ value: String) -> String { escaped ? displayText(value, limit: .max) : value }
    if color { out.write(TerminalStyle.bold.sequence) }
    out.write(text(file))
    out.write(":")
    out.write(String(line))
    if let column {
      out.write(":")
      out.write(String(column))
    }
    if color {
      out.write(TerminalStyle.reset)
      out.write(": ")
      out.write((severity == .error ? TerminalStyle.red : .yellow).apply(severity.rawValue, color: true))
    } else {
      out.write(": ")
      out.write(severity.rawValue)
    }
    out.write(": ")
    out.write(text(message(glyphs)))
    out.write(color ? " \(TerminalStyle.dim.sequence)[" : " [")
    out.write(rule.id)
    out.write(color ? "]\(TerminalStyle.reset)" : "]")
    if let source {
      out.write(color ? " \(TerminalStyle.dim.sequence)(recorded at " : " (recorded at ")
      out.write(text(source))
      out.write(color ? ")\(TerminalStyle.reset)" : ")")
    }
  }

  /// The finding's line as a string (``write(file:glyphs:escaped:color:to:)``), the message
  /// drawn with plain ASCII marks for `ascii`, Unicode ones otherwise; nothing escaped.
  public func formatted(file: String, ascii: Bool = false) -> String {
    var line = ""
    write(file: file, glyphs: Glyphs(ascii: ascii), to: &line)
    return line
  }
}

extension Diagnostic {
  /// `file:line[:column]: severity: message [rule]` (``CheckFinding/formatted(file:ascii:)``).
  public func formatted(file: String) -> String { CheckFinding.format(self).formatted(file: file) }
}

extension Finding {
  /// `file:line: error: message [rule]` (``CheckFinding/formatted(file:ascii:)``).
  public func formatted(file: String, ascii: Bool = false) -> String {
    CheckFinding.rule(self).formatted(file: file, ascii: ascii)
  }
}
