import Journal
import Projection

/// The data block's one string table (`str`): each distinct string written
/// once, referred to by its index everywhere else (lanes' ids and classes,
/// sentences, transition summaries, finding messages).
struct ReportStrings {
  /// Implementation note: keyed by the strings' UTF-8 bytes; `String`'s own
  /// hashing normalises (NFC) every non-ASCII string first (`→` in every move),
  /// which weighed on writing a page (measured: Benchmarks/README.md#figures-behind-the-notes).
  private var indexes: [Key: Int] = [:]

  private struct Key: Hashable {
    let string: String
    static func == (a: Key, b: Key) -> Bool {
      var x = a.string
      var y = b.string
      return x.withUTF8 { p in y.withUTF8 { q in p.count == q.count && p.elementsEqual(q) } }
    }
    func hash(into hasher: inout Hasher) {
      var copy = string
      copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }
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
    let key = Key(string: string)
    if let known = indexes[key] { return known }
    let index = indexes.count
    indexes[key] = index
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

  /// How many placeholder characters `text` holds.
  static func placeholders(_ text: String) -> Int {
    var count = 0
    // U+E000 and U+E001 are EE 80 80 and EE 80 81 in UTF-8; EE starts no other scalar below U+E040.
    var utf8 = text.utf8.makeIterator()
    var state = 0
    while let byte = utf8.next() {
      switch (state, byte) {
      case (_, 0xEE): state = 1
      case (1, 0x80): state = 2
      case (2, 0x80), (2, 0x81):
        count += 1
        state = 0
      default: state = 0
      }
    }
    return count
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
