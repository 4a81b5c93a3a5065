/// One finding of the reader about a journal's format: where it is, which
/// rule of the format (``FormatRule``), how bad, what was found.
///
/// Rendered as `journal.ndjson:42:17: error: expected a string for "controller", found 17 [malformed]`.
///
/// The lifecycle checker's findings are values of their own, in `Projection`
/// (`Finding`): the reader knows only the format.
public struct Diagnostic: Sendable, Hashable, Error {
  public enum Severity: String, Sendable, Hashable, Comparable {
    case warning, error
    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
  }

  /// The rule of the format, e.g. `malformed`, `seq-gap` (see docs/journal-format.md).
  public var rule: FormatRule
  public var severity: Severity
  /// 1-based line number in the journal.
  public var line: Int
  /// 1-based byte column within the line, when the finding points inside it.
  public var column: Int?
  /// The `seq` of the event, when it has one.
  public var seq: Int?
  /// Byte offset of the line's start (or of the torn tail) in the file.
  public var offset: Int64?
  /// Length in bytes, where it matters (torn tail).
  public var length: Int?
  /// What was found, as a sentence.
  public var message: String

  public init(
    rule: FormatRule, severity: Severity, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64? = nil,
    length: Int? = nil, message: String
  ) {
    self.rule = rule
    self.severity = severity
    self.line = line
    self.column = column
    self.seq = seq
    self.offset = offset
    self.length = length
    self.message = message
  }
}
