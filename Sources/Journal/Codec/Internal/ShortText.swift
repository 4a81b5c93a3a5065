/// Up to 16 bytes of text held as two little-endian words (the first byte
/// lowest) with the masks of its length: compared with the bytes of a line, or
/// stored into one, a word at a time.
///
/// Implementation note: the codec's tables (``WireTables``) hold every key,
/// type name and enumeration value in this form, built once from their
/// spellings; a comparison is two loads, two masks and two compares, where a
/// byte loop would be one compare per byte.
struct ShortText {
  /// Bytes 0 to 7, and 8 to 15, of the text; zero past its end.
  let first: UInt64
  let second: UInt64
  /// The bits of `first` and `second` that belong to the text.
  let firstMask: UInt64
  let secondMask: UInt64
  /// The length in bytes, at most 16.
  let count: Int

  /// The longest text held.
  static let capacity = 16

  /// The text's UTF-8 bytes; at most 16 of them.
  init(_ text: String) {
    let bytes = Array(text.utf8)
    precondition(bytes.count <= Self.capacity, "\"\(text)\" is longer than \(Self.capacity) bytes")
    let words = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { ShortText(copying: $0, buffer.count) } ?? ShortText(copying: [0], 0)
    }
    first = words.first
    second = words.second
    count = bytes.count
    firstMask = count >= 8 ? ~0 : (1 &<< UInt64(count * 8)) &- 1
    secondMask = count >= 16 ? ~0 : count <= 8 ? 0 : (1 &<< UInt64((count - 8) * 8)) &- 1
  }

  /// The `n` (at most 16) bytes at `p`, read one by one (no byte after them is
  /// touched), to compare with the texts of a table.
  init(copying p: UnsafePointer<UInt8>, _ n: Int) {
    var first: UInt64 = 0
    var second: UInt64 = 0
    var k = Swift.min(n, Self.capacity)
    count = k
    while k > 8 {
      k -= 1
      second = second << 8 | UInt64(p[k])
    }
    while k > 0 {
      k -= 1
      first = first << 8 | UInt64(p[k])
    }
    self.first = first
    self.second = second
    firstMask = ~0
    secondMask = ~0
  }

  /// The `n` (at most 16) bytes at `p`, read as two words that end at `p + n` (the bytes before
  /// `p` they take in are shifted out): text near a line's end, where fewer than 16 bytes follow.
  /// - Precondition: the 8 bytes before `p + n` are readable (a line of at least 8 bytes ending there).
  ///
  /// Implementation note: the same words as ``init(copying:_:)``, which reads byte by byte: the
  /// last members of most lines are read so, too often for a copy loop.
  @inline(__always)
  init(endingAt p: UnsafePointer<UInt8>, _ n: Int) {
    precondition(n <= Self.capacity, "ShortText: more than 16 bytes")
    let end = UnsafeRawPointer(p + n)
    if n > 8 {
      first = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
      second = UInt64(littleEndian: end.loadUnaligned(fromByteOffset: -8, as: UInt64.self)) &>> UInt64((16 &- n) &* 8)
    } else if n > 0 {
      first = UInt64(littleEndian: end.loadUnaligned(fromByteOffset: -8, as: UInt64.self)) &>> UInt64((8 &- n) &* 8)
      second = 0
    } else {
      first = 0
      second = 0
    }
    firstMask = ~0
    secondMask = ~0
    count = n
  }

  /// The 16 bytes at `p`, which must all be readable, to compare with the texts of a table.
  @inline(__always)
  init(loading p: UnsafePointer<UInt8>) {
    let raw = UnsafeRawPointer(p)
    first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    firstMask = ~0
    secondMask = ~0
    count = Self.capacity
  }

  /// Whether `bytes` (as loaded or copied) begin with this text.
  @inline(__always)
  func isPrefix(of bytes: ShortText) -> Bool {
    bytes.first & firstMask == first && bytes.second & secondMask == second
  }

  /// Whether the bytes at `p` begin with this text; 16 bytes must be readable at `p`.
  @inline(__always)
  func isPrefix(at p: UnsafePointer<UInt8>) -> Bool { isPrefix(of: ShortText(loading: p)) }

  /// Stores the text at `p`, and zeros after it up to 16 bytes, which must all be writable.
  @inline(__always)
  func store(at p: UnsafeMutablePointer<UInt8>) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: first.littleEndian, as: UInt64.self)
    raw.storeBytes(of: second.littleEndian, toByteOffset: 8, as: UInt64.self)
  }
}
