/// The controller ids (and class names) decoded lately on one thread, so that
/// one seen again is handed out as the same string instead of a new one.
///
/// Implementation note: an id of more than 15 bytes (a real app's
/// `ComposeViewController#412`, not `c12`) does not fit in a small string, so
/// decoding it afresh would allocate a string on every line, which the
/// consumer would free again. A hit
/// costs a hash of three words and one comparison of the bytes, and ids handed out from here
/// share their storage, so comparing two of them is a pointer comparison.
/// The table is direct-mapped with a fixed number of slots (a miss replaces
/// the slot's string): memory stays the same whatever the journal's size.
/// Class names go through it too: a churn-shaped journal allocates a
/// controller of a long-named class every thirty lines.
final class IDCache {
  /// Slots; a power of two.
  static let capacity = 1024
  /// The longest id kept (longer ones are decoded as before).
  static let longest = 64
  /// The shortest: shorter ids are small strings, which allocate nothing.
  static let shortest = 16

  private let hashes: UnsafeMutablePointer<UInt64>
  private let lengths: UnsafeMutablePointer<Int>
  private let bytes: UnsafeMutablePointer<UInt8>
  private let strings: UnsafeMutablePointer<String>

  init() {
    hashes = .allocate(capacity: Self.capacity)
    hashes.initialize(repeating: 0, count: Self.capacity)
    lengths = .allocate(capacity: Self.capacity)
    lengths.initialize(repeating: 0, count: Self.capacity)
    bytes = .allocate(capacity: Self.capacity * Self.longest)
    strings = .allocate(capacity: Self.capacity)
    strings.initialize(repeating: "", count: Self.capacity)
  }

  deinit {
    hashes.deallocate()
    lengths.deallocate()
    bytes.deallocate()
    strings.deinitialize(count: Self.capacity)
    strings.deallocate()
  }

  /// The id spelt by the `n` bytes at `p` (valid UTF-8 without escapes).
  @inline(__always)
  func id(_ p: UnsafePointer<UInt8>, _ n: Int) -> ControllerID {
    ControllerID(string(p, n))
  }

  /// The string spelt by the `n` bytes at `p` (valid UTF-8 without escapes).
  @inline(__always)
  func string(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
    guard n >= Self.shortest, n <= Self.longest else {
      return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    let raw = UnsafeRawPointer(p)
    // The first, middle and last words (they overlap for short ids), and the length.
    let h0 = raw.loadUnaligned(as: UInt64.self)
    let h1 = raw.loadUnaligned(fromByteOffset: (n - 8) / 2, as: UInt64.self)
    let h2 = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    var h = (h0 &* 0x9E37_79B9_7F4A_7C15) ^ (h1 &* 0xC2B2_AE3D_27D4_EB4F) ^ h2 ^ UInt64(n)
    h ^= h >> 31
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 29
    h |= 1  // 0 marks an empty slot
    let slot = Int(truncatingIfNeeded: h >> 40) & (Self.capacity - 1)
    let kept = bytes + slot * Self.longest
    if hashes[slot] == h, lengths[slot] == n, Self.sameBytes(kept, p, n) { return strings[slot] }
    return miss(p, n, slot: slot, hash: h)
  }

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
}
