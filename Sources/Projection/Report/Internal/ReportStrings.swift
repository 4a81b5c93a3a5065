import Journal

/// The data block's one string table (`str`): each distinct string written
/// once, referred to by its index everywhere else (lanes' ids and classes,
/// sentences, transition summaries, finding messages).
struct ReportStrings {
  private var indexes: [String: Int] = [:]
  private var json = JSONBuffer()

  /// The id that stands for the first lane of an event in a sentence template
  /// (a private-use character: `displayText` leaves it as it is, and the page
  /// puts the lane's name in its place).
  static let first = ControllerID("\u{E000}")
  /// The id that stands for the second lane.
  static let second = ControllerID("\u{E001}")

  init() {
    json.htmlSafe = true
    json.open("[")
  }

  /// The index of `string`, added on first use.
  mutating func index(_ string: String) -> Int {
    if let known = indexes[string] { return known }
    let index = indexes.count
    indexes[string] = index
    json.element()
    json.string(string)
    return index
  }

  /// The table as a JSON array; the table is empty afterwards.
  mutating func take() -> [UInt8] {
    json.close("]")
    indexes = [:]
    return json.take()
  }

  /// A template with the names put back, as the page does.
  static func fill(_ template: String, _ a: String?, _ b: String?) -> String {
    var out = ""
    for scalar in template.unicodeScalars {
      if scalar == "\u{E000}", let a {
        out += a
      } else if scalar == "\u{E001}", let b {
        out += b
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` holds a placeholder character of its own.
  static func holdsPlaceholder(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\u{E000}" || $0 == "\u{E001}" }
  }
}

extension Event {
  /// The event with its first and second controllers (in ``controllers``
  /// order) replaced where a replacement is given; nil for an event that names none.
  func replacingControllers(_ a: ControllerID?, _ b: ControllerID?) -> Event? {
    switch self {
    case .session, .mark, .unknown: return nil
    case .alloc(let c, let className): return .alloc(controller: a ?? c, className: className)
    case .root(let c): return .root(controller: a ?? c)
    case .touches(let c, let direction, let min): return .touches(controller: a ?? c, direction: direction, min: min)
    case .lifecycle(let c, let callback): return .lifecycle(controller: a ?? c, callback: callback)
    case .dealloc(let c): return .dealloc(controller: a ?? c)
    case .link(let from, let direction, let to): return .link(from: a ?? from, direction: direction, to: b ?? to)
    case .unlink(let from, let direction): return .unlink(from: a ?? from, direction: direction)
    case .modal(let m, let p): return .modal(controller: a ?? m, presenter: b ?? p)
    case .pan(var pan):
      pan.controller = a ?? pan.controller
      return .pan(pan)
    case .move(var move):
      move.from = a ?? move.from
      move.to = b ?? move.to
      return .move(move)
    }
  }
}
