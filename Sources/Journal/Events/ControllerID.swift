/// The id of one controller instance: a non-empty string of at most 256 bytes,
/// unique within a session and never reused.
///
/// An id is one word, copied without reference counting, and two ids are
/// compared and hashed as words: an id of up to 7 bytes is kept in place, a
/// longer one is interned once per process in a table of ids (see
/// ``ControllerIDTable``), and the id is the address of its entry there. The fold
/// and the checker compare and look ids up at every event; as strings, each
/// copy of an event retained its ids and each comparison read their bytes.
///
/// Implementation note: the table keeps every distinct id of 8 bytes or more
/// that the process has made, for the process's life (about 100 bytes each), so
/// reading a journal holds its distinct ids once, as a state holds them anyway.
/// Two ids are equal when their bytes are the same, as the decoder reads them:
/// two strings that Unicode calls canonically equivalent are different ids
/// unless their bytes are the same.
public struct ControllerID: Hashable, Comparable, @unchecked Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  // @unchecked Sendable: `bits` is an id kept in place or the address of an entry that is never
  // changed or freed once made (``ControllerIDTable``).

  /// Lowest bit 1: an id of 0 to 7 bytes kept in place (its length in bits 1 to 3, its bytes from
  /// bit 8 up, the first lowest). Lowest bit 0: the address of the id's entry in the table.
  @usableFromInline let bits: UInt64

  /// The longest id the format allows, in UTF-8 bytes.
  public static let maximumLength = 256
  /// The longest id kept in place.
  @usableFromInline static let inlineCapacity = 7

  @inlinable @inline(__always)
  init(bits: UInt64) { self.bits = bits }

  public init(_ rawValue: String) {
    var rawValue = rawValue
    self = rawValue.withUTF8 { ControllerID(utf8: UnsafeRawBufferPointer($0)) }
  }

  public init(stringLiteral value: String) { self.init(value) }

  /// The id spelt by `bytes` (UTF-8).
  package init(utf8 bytes: UnsafeRawBufferPointer) {
    if bytes.count <= Self.inlineCapacity {
      self.init(bits: Self.packed(bytes))
    } else {
      self.init(bits: UInt64(UInt(bitPattern: ControllerIDTable.shared.entry(for: bytes))))
    }
  }

  /// The id spelt by the `count` bytes at `base` (UTF-8), `hash` being ``contentHash(of:)`` of them:
  /// an id of more than 7 bytes, looked up in the table.
  @inline(__always)
  package init(interning base: UnsafeRawPointer, _ count: Int, hash: UInt32) {
    let entry = ControllerIDTable.shared.entry(for: UnsafeRawBufferPointer(start: base, count: count), hash: hash)
    self.init(bits: UInt64(UInt(bitPattern: entry)))
  }

  /// The id of `count` (0 to 7) bytes at `base`, kept in place.
  @inline(__always)
  package static func packed(_ base: UnsafeRawPointer, _ count: Int) -> ControllerID {
    ControllerID(bits: packed(UnsafeRawBufferPointer(start: base, count: count)))
  }

  @inline(__always)
  static func packed(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var word: UInt64 = 0
    var shift: UInt64 = 8
    for byte in bytes {
      word |= UInt64(byte) << shift
      shift &+= 8
    }
    return word | UInt64(bytes.count) << 1 | 1
  }

  @inlinable @inline(__always)
  var isInline: Bool { bits & 1 != 0 }

  @usableFromInline @inline(__always)
  var entry: UnsafePointer<ControllerIDTable.Entry> {
    UnsafePointer(bitPattern: UInt(bits)).unsafelyUnwrapped
  }

  /// The id as it appears in the journal.
  @inlinable
  public var rawValue: String {
    if isInline { return withUTF8 { String(decoding: $0, as: UTF8.self) } }
    return entry.pointee.string
  }

  public var description: String { rawValue }

  /// Calls `body` with the id's UTF-8 bytes, valid during the call.
  @inlinable @inline(__always)
  public func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    if isInline {
      var word = bits >> 8
      let count = Int(truncatingIfNeeded: (bits >> 1) & 7)
      return try withUnsafeBytes(of: &word) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }
    let entry = entry
    return try body(UnsafeRawBufferPointer(start: entry.pointee.bytes, count: entry.pointee.count))
  }

  /// The number of UTF-8 bytes of the id.
  @inlinable
  public var utf8Count: Int {
    isInline ? Int(truncatingIfNeeded: (bits >> 1) & 7) : entry.pointee.count
  }

  /// ``contentHash(of:)`` of the id's bytes, without reading them.
  @inlinable @inline(__always)
  package var contentHash: UInt32 {
    if isInline { return Self.finish(Self.seed(utf8Count) ^ (bits >> 8)) }
    return entry.pointee.hash
  }

  /// Whether two ids are the same bytes: one word compared.
  @inlinable @inline(__always)
  public static func == (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.bits == rhs.bits }

  /// Ordered as their strings are.
  public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool {
    if lhs == rhs { return false }
    if lhs.isASCII && rhs.isASCII {
      return lhs.withUTF8 { a in rhs.withUTF8 { b in a.lexicographicallyPrecedes(b) } }
    }
    return lhs.rawValue < rhs.rawValue
  }

  private var isASCII: Bool {
    isInline ? (bits >> 8) & 0x8080_8080_8080_80 == 0 : entry.pointee.isASCII
  }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(contentHash)
  }

  /// Whether the id satisfies the format's rule (non-empty, at most 256 bytes):
  /// the one definition the decoder, the navigator and the scenario parser check.
  public var isValid: Bool { utf8Count > 0 && utf8Count <= Self.maximumLength }

  /// Whether a string of `count` UTF-8 bytes would be a valid id.
  package static func isValidLength(_ count: Int) -> Bool { count > 0 && count <= maximumLength }

  // MARK: The hash of an id's bytes

  @inlinable @inline(__always)
  static func seed(_ count: Int) -> UInt64 { 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count) }

  @inlinable @inline(__always)
  static func finish(_ value: UInt64) -> UInt32 {
    var h = value &* 0x0000_0100_0000_01B3
    h ^= h >> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    return UInt32(truncatingIfNeeded: h)
  }

  /// A hash of `bytes`: each 8-byte word (the last one padded with zeros) mixed in by a
  /// multiplication, then MurmurHash3's 64-bit finaliser, so that its low bits and the bits above
  /// them both depend on every byte. The state's index of controllers and the table of ids are
  /// keyed by it.
  @inline(__always)
  package static func contentHash(of bytes: UnsafeRawBufferPointer) -> UInt32 {
    let count = bytes.count
    var h = seed(count)
    guard let base = bytes.baseAddress else { return UInt32(truncatingIfNeeded: h) }
    var i = 0
    while i &+ 8 <= count {
      h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
      h ^= h >> 29
      i &+= 8
    }
    if i < count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while i < count {
        tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
        shift &+= 8
        i &+= 1
      }
      return finish(h ^ tail)
    }
    h ^= h >> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    return UInt32(truncatingIfNeeded: h)
  }
}
