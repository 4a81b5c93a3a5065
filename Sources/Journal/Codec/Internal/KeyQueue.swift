/// Keys in the order writers put them, the next one first: what the decoder
/// expects next on a line, and the keys the encoder writes for a type.
///
/// Implementation note: lines written by this project (and by any writer that
/// follows the spec) have their keys in one known order (``Event/Kind/keyOrder``
/// after the envelope). The decoder compares the bytes at a key with the
/// expected `"key":` first, as two words; only when that fails does it scan
/// and recognise the key in the general way. Keys in any other order are still
/// accepted, just a little more slowly. The queue is one word, 5 bits a key
/// (its raw value + 1, 0 past the last), so taking the next key is a shift.
struct KeyQueue: Sequence, IteratorProtocol {
  private var bits: UInt64

  /// The most keys a queue holds.
  static let capacity = 12

  /// No keys.
  init() { bits = 0 }

  /// `keys`, in order (at most 12).
  init(_ keys: [JournalKey]) {
    precondition(keys.count <= Self.capacity, "a type has at most \(Self.capacity) keys: \(keys)")
    precondition(JournalKey.count < 32, "a key's code fits 5 bits")
    bits = 0
    for key in keys.reversed() { bits = bits << 5 | UInt64(key.rawValue + 1) }
  }

  /// The next key, if any.
  @inline(__always)
  var first: JournalKey? {
    let code = Int(truncatingIfNeeded: bits & 31)
    // `allCases` folds to a constant array; `JournalKey(rawValue:)` was a call.
    return code == 0 ? nil : JournalKey.allCases[code &- 1]
  }

  /// Whether `key` is the next key.
  @inline(__always)
  func starts(with key: JournalKey) -> Bool { bits & 31 == UInt64(key.rawValue) &+ 1 }

  /// Takes the next key off the queue.
  @inline(__always)
  mutating func next() -> JournalKey? {
    defer { bits >>= 5 }
    return first
  }

  /// The keys after `key`, or nil when `key` is not in the queue.
  func after(_ key: JournalKey) -> KeyQueue? {
    var rest = self
    while let next = rest.next() {
      if next == key { return rest }
    }
    return nil
  }
}
