/// One finding about a journal: where it is, which rule, how bad, what was found.
///
/// Rendered as `journal.ndjson:42:17: error: expected a string for "controller", found 17 [malformed]`.
///
/// What was found is a sentence (the reader's findings) or a fact that a later
/// layer keeps as data (the lifecycle checker's, ``DiagnosticFact``), put into
/// words only by an output that shows it: ``message(ascii:)``.
public struct Diagnostic: Sendable, Hashable, Error {
  /// What a finding found: a sentence, or a fact rendered when it is shown.
  public enum Content: Sendable, Hashable {
    case sentence(String)
    case fact(any DiagnosticFact)

    public static func == (a: Content, b: Content) -> Bool {
      switch (a, b) {
      case (.sentence(let x), .sentence(let y)): x == y
      case (.fact(let x), .fact(let y)): x.isEqual(to: y)
      case (.sentence, .fact), (.fact, .sentence): false
      }
    }

    public func hash(into hasher: inout Hasher) {
      switch self {
      case .sentence(let text):
        hasher.combine(0)
        hasher.combine(text)
      case .fact(let fact):
        hasher.combine(1)
        fact.hash(into: &hasher)
      }
    }
  }

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
  /// What was found (see ``message(ascii:)``).
  public var content: Content
  /// Controllers involved (lifecycle rules).
  public var controllers: [ControllerID]
  /// The `seq` of the move (or initial display) the finding happened in.
  public var move: Int?
  /// The app's call site of the event that shows the finding (its `source`,
  /// `FILE:LINE`), when that event carries one.
  public var source: String?

  public init(
    rule: String, severity: Severity, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64? = nil,
    length: Int? = nil, message: String, controllers: [ControllerID] = [], move: Int? = nil
  ) {
    self.init(
      rule: rule, severity: severity, line: line, column: column, seq: seq, offset: offset, length: length,
      content: .sentence(message), controllers: controllers, move: move)
  }

  /// A finding whose content is `content`: a fact for a finding that a later layer renders.
  public init(
    rule: String, severity: Severity, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64? = nil,
    length: Int? = nil, content: Content, controllers: [ControllerID] = [], move: Int? = nil
  ) {
    self.rule = rule
    self.severity = severity
    self.line = line
    self.column = column
    self.seq = seq
    self.offset = offset
    self.length = length
    self.content = content
    self.controllers = controllers
    self.move = move
  }

  /// What was found, in words: the sentence, or the fact rendered with plain
  /// ASCII arrows and marks for `ascii`, Unicode ones otherwise. Each output
  /// that shows a finding renders it once; one that only counts never does.
  public func message(ascii: Bool) -> String {
    switch content {
    case .sentence(let text): text
    case .fact(let fact): fact.message(ascii: ascii)
    }
  }

  /// The message as the machine formats write it (JSON, SARIF, the tables): Unicode marks.
  /// Setting it makes the content a sentence.
  public var message: String {
    get { message(ascii: false) }
    set { content = .sentence(newValue) }
  }

  /// `file:line[:column]: severity: message [rule]`, the message rendered for `ascii` or in Unicode.
  public func formatted(file: String, ascii: Bool = false) -> String {
    var s = "\(file):\(line)"
    if let column { s += ":\(column)" }
    s += ": \(severity.rawValue): \(message(ascii: ascii)) [\(rule)]"
    if let source { s += " (recorded at \(source))" }
    return s
  }

  /// The diagnostic as one NDJSON object (the `--json` output of `check`), the
  /// message rendered in Unicode or, for `ascii`, plain ASCII.
  public func json(file: String, ascii: Bool = false) -> String {
    var json = JSONBuffer()
    json.open("{")
    appendMembers(file: file, ascii: ascii, to: &json)
    json.close("}")
    return json.text
  }

  /// The members of ``json(file:)``'s object, for a finding that adds its own (a model divergence).
  package func appendMembers(file: String, ascii: Bool = false, to json: inout JSONBuffer) {
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
    json.string(message(ascii: ascii))
    json.member("offset", ifPresent: offset.map { Int($0) })
    json.member("length", ifPresent: length)
    if !controllers.isEmpty {
      json.key("controllers")
      json.strings(controllers.map(\.rawValue))
    }
    json.member("move", ifPresent: move)
    if let source {
      json.key("source")
      json.string(source)
    }
  }
}
