/// One finding about a journal: where it is, which rule, how bad, what was found.
///
/// Rendered as `journal.ndjson:42:17: error: expected a string for "controller", found 17 [malformed]`.
public struct Diagnostic: Sendable, Hashable, Error {
  public enum Severity: String, Sendable, Hashable, Comparable {
    case warning, error
    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
  }

  /// Stable rule id, e.g. `malformed`, `seq-gap`, `load-repeated` (see docs/journal-format.md).
  public var rule: String
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
  public var message: String
  /// Controllers involved (lifecycle rules).
  public var controllers: [ControllerID]
  /// The `seq` of the move (or initial display) the finding happened in.
  public var move: Int?

  public init(
    rule: String, severity: Severity, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64? = nil,
    length: Int? = nil, message: String, controllers: [ControllerID] = [], move: Int? = nil
  ) {
    self.rule = rule
    self.severity = severity
    self.line = line
    self.column = column
    self.seq = seq
    self.offset = offset
    self.length = length
    self.message = message
    self.controllers = controllers
    self.move = move
  }

  /// `file:line[:column]: severity: message [rule]`.
  public func formatted(file: String) -> String {
    var s = "\(file):\(line)"
    if let column { s += ":\(column)" }
    s += ": \(severity.rawValue): \(message) [\(rule)]"
    return s
  }

  /// The diagnostic as one NDJSON object (the `--json` output of `check`).
  public func json(file: String) -> String {
    var json = JSONBuffer()
    json.open("{")
    appendMembers(file: file, to: &json)
    json.close("}")
    return json.text
  }

  /// The members of ``json(file:)``'s object, for a finding that adds its own (a model divergence).
  package func appendMembers(file: String, to json: inout JSONBuffer) {
    json.key("file")
    json.string(file)
    json.key("line")
    json.int(line)
    json.member("column", ifPresent: column)
    json.member("seq", ifPresent: seq)
    json.key("severity")
    json.string(severity.rawValue)
    json.key("rule")
    json.string(rule)
    json.key("message")
    json.string(message)
    json.member("offset", ifPresent: offset.map { Int($0) })
    json.member("length", ifPresent: length)
    if !controllers.isEmpty {
      json.key("controllers")
      json.strings(controllers.map(\.rawValue))
    }
    json.member("move", ifPresent: move)
  }
}
