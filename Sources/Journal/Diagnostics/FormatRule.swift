/// A rule of the journal format that the reader checks: framing, JSON, the
/// envelope, `seq`, `time` and the header.
///
/// One closed set: the reader, `append` and `tail` report these ids, and
/// `check --rule`, the help, the docs table and the SARIF rule metadata are
/// derived from it, so a rule cannot be misspelt in one place.
///
/// ```swift
/// FormatRule.seqGap.id                 // "seq-gap"
/// FormatRule(rawValue: "crlf")?.severity  // .warning
/// ```
public enum FormatRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case malformed
  case framing
  case seqGap = "seq-gap"
  case seqRepeat = "seq-repeat"
  case timeBackwards = "time-backwards"
  case noHeader = "no-header"
  case tornTail = "torn-tail"
  case unknownType = "unknown-type"
  case formatVersion = "format-version"
  case bom
  case crlf
  case blankLine = "blank-line"

  /// The stable id, e.g. `seq-gap`.
  public var id: String { rawValue }
  public var description: String { rawValue }

  /// The severity the format gives the rule (in strict mode every warning is an error).
  public var severity: Diagnostic.Severity {
    switch self {
    case .malformed, .framing, .seqGap, .seqRepeat, .timeBackwards, .noHeader: .error
    case .tornTail, .unknownType, .formatVersion, .bom, .crlf, .blankLine: .warning
    }
  }

  /// One line saying what the rule finds.
  public var summary: String {
    switch self {
    case .malformed: "a line that is not a valid event: bad JSON, a missing or mistyped key, a bad value"
    case .framing: "a line that cannot be read as text: over the length limit, invalid UTF-8, nested too deep"
    case .seqGap: "seq jumps over one or more numbers: events are missing"
    case .seqRepeat: "a seq that was already used"
    case .timeBackwards: "an event whose time is earlier than the previous event's"
    case .noHeader: "no session header at seq 0 on the first line (an empty journal has none)"
    case .tornTail: "a last line without a line end that does not decode: a writer stopped mid-line"
    case .unknownType: "an event type this version does not know (kept as is; once per type)"
    case .formatVersion: "a header that declares a format version other than 1, the one this version reads it as"
    case .bom: "a UTF-8 byte order mark at the start of the file"
    case .crlf: "a line that ends with \\r\\n instead of \\n"
    case .blankLine: "an empty line, or one with only spaces and tabs"
    }
  }
}
