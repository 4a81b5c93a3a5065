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
    var out: [UInt8] = []
    out.append(contentsOf: #"{"file":"#.utf8)
    JSONWriter.appendString(file, to: &out)
    out.append(contentsOf: #","line":"#.utf8)
    JSONWriter.appendInt(line, to: &out)
    if let column {
      out.append(contentsOf: #","column":"#.utf8)
      JSONWriter.appendInt(column, to: &out)
    }
    if let seq {
      out.append(contentsOf: #","seq":"#.utf8)
      JSONWriter.appendInt(seq, to: &out)
    }
    out.append(contentsOf: #","severity":"#.utf8)
    JSONWriter.appendString(severity.rawValue, to: &out)
    out.append(contentsOf: #","rule":"#.utf8)
    JSONWriter.appendString(rule, to: &out)
    out.append(contentsOf: #","message":"#.utf8)
    JSONWriter.appendString(message, to: &out)
    if let offset {
      out.append(contentsOf: #","offset":"#.utf8)
      JSONWriter.appendInt(Int(offset), to: &out)
    }
    if let length {
      out.append(contentsOf: #","length":"#.utf8)
      JSONWriter.appendInt(length, to: &out)
    }
    if !controllers.isEmpty {
      out.append(contentsOf: #","controllers":["#.utf8)
      for (i, c) in controllers.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendString(c.rawValue, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    if let move {
      out.append(contentsOf: #","move":"#.utf8)
      JSONWriter.appendInt(move, to: &out)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }
}
