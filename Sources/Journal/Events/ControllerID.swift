/// The id of one controller instance: a non-empty string of at most 256 bytes,
/// unique within a session and never reused.
public struct ControllerID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The id as it appears in the journal.
  public let rawValue: String

  /// The longest id the format allows, in UTF-8 bytes.
  public static let maximumLength = 256

  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }

  public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Whether two ids are the same bytes.
  ///
  /// Implementation note: the fold and the checker compare ids at every
  /// event (the ends of the transition, the last ids looked up), mostly ids
  /// that differ. Ids of different UTF-8 lengths are told apart at once; ids
  /// of one length are compared here a word at a time, because `String`'s `==`
  /// calls into the runtime for every two ids of one length that do not share
  /// their storage (`Screen12ViewController#1` and `Screen13ViewController#1`),
  /// which a churn-shaped journal compares at nearly every event. Two strings
  /// that Unicode calls canonically equivalent are different ids unless their
  /// bytes are the same: a journal's id is its bytes, as the decoder reads it.
  @inlinable
  public static func == (lhs: ControllerID, rhs: ControllerID) -> Bool {
    // The same two words: one string (small, or sharing its storage, as the decoder hands a repeated id out).
    if lhs.isSameString(as: rhs) { return true }
    let count = lhs.rawValue.utf8.count
    guard count == rhs.rawValue.utf8.count else { return false }
    return sameBytes(lhs, rhs, count)
  }

  /// Whether the two ids are one string: the same two words (a small string, or storage shared, as
  /// the decoder hands out a repeated id). True means equal; false says nothing.
  @inlinable
  package func isSameString(as other: ControllerID) -> Bool {
    MemoryLayout<String>.size == 16
      && unsafeBitCast(rawValue, to: (UInt64, UInt64).self) == unsafeBitCast(other.rawValue, to: (UInt64, UInt64).self)
  }

  /// Whether two ids of `count` bytes each have the same bytes.
  @usableFromInline
  static func sameBytes(_ lhs: ControllerID, _ rhs: ControllerID, _ count: Int) -> Bool {
    let same = lhs.rawValue.utf8.withContiguousStorageIfAvailable { a in
      rhs.rawValue.utf8.withContiguousStorageIfAvailable { b in sameBytes(a, b, count) }
    }
    if let same, let same { return same }
    return lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8)
  }

  /// Whether the first `count` bytes of `a` and `b` (each at least that long) are the same.
  @inline(__always)
  static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ count: Int) -> Bool {
    guard let p = a.baseAddress, let q = b.baseAddress else { return count == 0 }
    if p == q { return true }
    let x = UnsafeRawPointer(p)
    let y = UnsafeRawPointer(q)
    var i = 0
    while i + 8 <= count {
      if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
        return false
      }
      i += 8
    }
    while i < count {
      if p[i] != q[i] { return false }
      i += 1
    }
    return true
  }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue)
  }

  /// Whether the id satisfies the format's rule (non-empty, at most 256 bytes):
  /// the one definition the decoder, the navigator and the scenario parser check.
  public var isValid: Bool { !rawValue.isEmpty && rawValue.utf8.count <= Self.maximumLength }
}
