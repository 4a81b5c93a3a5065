/// The controller ids (and class names) decoded lately on one thread, so that
/// one seen again is handed out without a lookup in the process's table of ids
/// (an id) or a new string (a class name).
///
/// Implementation note: an id of more than 7 bytes (a real app's
/// `ComposeViewController#412`, not `c12`) is the address of its entry in
/// ``ControllerIDTable``, which takes a lock and hashes every byte; a class name
/// of more than 15 bytes does not fit in a small string, so decoding it afresh
/// would allocate a string on every line, which the consumer would free again.
/// A hit costs a hash of three words and one comparison of the bytes.
/// The table is direct-mapped with a fixed number of slots (a miss replaces
/// the slot's string): memory stays the same whatever the journal's size.
/// Class names go through it too: a churn-shaped journal allocates a
/// controller of a long-named class every thirty lines.
final class IDCache {
  /// Slots; a power of two.
  static let capacity = 1024
  /// The longest id kept (longer ones are decoded as before).
  static let longest = 64
  /// The shortest class name kept: shorter ones are small strings, which allocate nothing.
  static let shortest = 16
  /// The shortest id kept: shorter ones are kept in place in the id (``ControllerID``).
  static let shortestID = ControllerID.inlineCapacity + 1

  private let hashes: UnsafeMutablePointer<UInt64>
  private let lengths: UnsafeMutablePointer<Int>
  private let bytes: UnsafeMutablePointer<UInt8>
  private let strings: UnsafeMutablePointer<String>
  /// The ids of the slots that hold an id (their hash has bit 1 set; a class name's has it clear).
  private let ids: UnsafeMutablePointer<ControllerID>

  init() {
    hashes = .allocate(capacity: Self.capacity)
    hashes.initialize(repeating: 0, count: Self.capacity)
    lengths = .allocate(capacity: Self.capacity)
    lengths.initialize(repeating: 0, count: Self.capacity)
    bytes = .allocate(capacity: Self.capacity * Self.longest)
    strings = .allocate(capacity: Self.capacity)
    strings.initialize(repeating: "", count: Self.capacity)
    ids = .allocate(capacity: Self.capacity)
    ids.initialize(repeating: ControllerID.packed(UnsafeRawPointer(bytes), 0), count: Self.capacity)
  }

  deinit {
    hashes.deallocate()
    lengths.deallocate()
    bytes.deallocate()
    strings.deinitialize(count: Self.capacity)
    strings.deallocate()
    ids.deallocate()
  }

  /// The id spelt by the `n` bytes at `p` (valid UTF-8 without escapes).
  @inline(__always)
  func id(_ p: UnsafePointer<UInt8>, _ n: Int) -> ControllerID {
    guard n >= Self.shortestID else { return ControllerID.packed(p, n) }
    guard n <= Self.longest else {
      let bytes = UnsafeRawBufferPointer(start: p, count: n)
      return ControllerID(interning: p, n, hash: ControllerID.contentHash(of: bytes))
    }
    let h = Self.hash(p, n) | 2
    let slot = Self.slot(h)
    if hashes[slot] == h, lengths[slot] == n, Self.sameBytes(bytes + slot * Self.longest, p, n) { return ids[slot] }
    return missID(p, n, slot: slot, hash: h)
  }

  /// The string spelt by the `n` bytes at `p` (valid UTF-8 without escapes).
  @inline(__always)
  func string(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
    guard n >= Self.shortest, n <= Self.longest else {
      return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    let h = Self.hash(p, n) & ~2
    let slot = Self.slot(h)
    if hashes[slot] == h, lengths[slot] == n, Self.sameBytes(bytes + slot * Self.longest, p, n) { return strings[slot] }
    return miss(p, n, slot: slot, hash: h)
  }

  /// A hash of the `n` (8 to 64) bytes at `p`: the first, middle and last words (they overlap for
  /// short ones), and the length; never 0 (an empty slot).
  @inline(__always)
  private static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
    let raw = UnsafeRawPointer(p)
    let h0 = raw.loadUnaligned(as: UInt64.self)
    let h1 = raw.loadUnaligned(fromByteOffset: (n - 8) / 2, as: UInt64.self)
    let h2 = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    var h = (h0 &* 0x9E37_79B9_7F4A_7C15) ^ (h1 &* 0xC2B2_AE3D_27D4_EB4F) ^ h2 ^ UInt64(n)
    h ^= h >> 31
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 29
    return h | 1
  }

  @inline(__always)
  private static func slot(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 40) & (capacity - 1) }

  /// Whether the `n` (16 to 64) bytes at `a` and at `b` are the same, compared a word at a time (the
  /// last word overlapping the ones before), where `memcmp` is a call.
  @inline(__always)
  private static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let x = UnsafeRawPointer(a)
    let y = UnsafeRawPointer(b)
    var offset = 0
    while offset &+ 8 < n {
      guard
        x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset &+= 8
    }
    return x.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
      == y.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
  }

  @inline(never)
  private func miss(_ p: UnsafePointer<UInt8>, _ n: Int, slot: Int, hash: UInt64) -> String {
    let string = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    hashes[slot] = hash
    lengths[slot] = n
    (bytes + slot * Self.longest).update(from: p, count: n)
    strings[slot] = string
    return string
  }

  @inline(never)
  private func missID(_ p: UnsafePointer<UInt8>, _ n: Int, slot: Int, hash: UInt64) -> ControllerID {
    let contentHash = ControllerID.contentHash(of: UnsafeRawBufferPointer(start: p, count: n))
    let id = ControllerID(interning: p, n, hash: contentHash)
    hashes[slot] = hash
    lengths[slot] = n
    (bytes + slot * Self.longest).update(from: p, count: n)
    ids[slot] = id
    return id
  }
}
