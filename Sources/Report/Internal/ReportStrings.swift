import Journal
import Projection

/// The data block's one string table (`str`): each distinct string written
/// once, referred to by its index everywhere else (lanes' ids and classes,
/// sentences, transition summaries, finding messages).
struct ReportStrings {
  /// Implementation note: an open-addressing table of indexes keyed by the
  /// strings' UTF-8 bytes, kept in one arena and hashed a word at a time.
  /// `String`'s own hashing normalises (NFC) every non-ASCII string first (`→`
  /// in every move), and a `Dictionary` keyed by the bytes would hash them
  /// with SipHash and keep a `String` per entry; a page of a churn-shaped
  /// session adds a string for nearly every transition and pan, so the table
  /// is on the path of writing it.
  private var slots = [Int32](repeating: -1, count: 1 << 10)
  /// Per string: its hash, and where its bytes start in `arena` (one more: the end).
  private var hashes: [UInt64] = []
  private var starts: [Int] = [0]
  private var arena: [UInt8] = []
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
    var string = string
    if let known = string.withUTF8({ find(UnsafeRawBufferPointer($0)) }) { return known }
    let index = hashes.count
    string.withUTF8 { bytes in
      let hash = Self.hash(UnsafeRawBufferPointer(bytes))
      hashes.append(hash)
      arena.append(contentsOf: bytes)
      starts.append(arena.count)
      if hashes.count * 2 > slots.count { grow() } else { place(index, hash) }
    }
    json.element()
    json.string(string)
    return index
  }

  /// The index of the string of these bytes, nil when not in the table.
  private func find(_ bytes: UnsafeRawBufferPointer) -> Int? {
    let hash = Self.hash(bytes)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let k = Int(slots[slot])
      if k < 0 { return nil }
      if hashes[k] == hash && starts[k + 1] - starts[k] == bytes.count {
        let same = arena.withUnsafeBytes { arena in
          UnsafeRawBufferPointer(rebasing: arena[starts[k]..<starts[k + 1]]).elementsEqual(bytes)
        }
        if same { return k }
      }
      slot = (slot + 1) & mask
    }
  }

  private mutating func place(_ index: Int, _ hash: UInt64) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(index)
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    for (k, hash) in hashes.enumerated() { place(k, hash) }
  }

  /// A word-at-a-time multiplicative hash of the bytes (no need to resist chosen inputs: a
  /// collision costs a comparison, and a journal large enough to matter is read in linear time anyway).
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var i = 0
    while i + 8 <= bytes.count {
      h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < bytes.count {
      tail |= UInt64(bytes[i]) << shift
      shift += 8
      i += 1
    }
    h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    return h ^ (h >> 32)
  }

  /// The table as a JSON array; the table is empty afterwards.
  mutating func take() -> [UInt8] {
    json.close("]")
    slots = [Int32](repeating: -1, count: 1 << 10)
    hashes = []
    starts = [0]
    arena = []
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
