#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A text compared, hashed and ordered by its UTF-8 bytes: the key wherever journal strings are
/// grouped (sessions, screens, header values, partition folders).
///
/// Swift's `String ==` is canonical equivalence: `K` (U+004B) equals the KELVIN SIGN (U+212A),
/// and `é` equals `e` followed by U+0301. The format says an id is its bytes, and so do `check`,
/// the rows of every table and DuckDB: a dictionary keyed by `String` would merge what they keep
/// apart.
///
/// ```swift
/// ExactText("\u{E9}") == ExactText("e\u{301}")   // false
/// "\u{E9}" == "e\u{301}"                         // true
/// ```
public struct ExactText: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) { self.text = text }

  public static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    guard lhs.text.utf8.count == rhs.text.utf8.count else { return false }
    let fast = lhs.text.utf8.withContiguousStorageIfAvailable { a in
      rhs.text.utf8.withContiguousStorageIfAvailable { b in
        a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
      }
    }
    if let fast, let equal = fast { return equal }
    return lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  /// Implementation note: the bytes are hashed as one block (a class name may be a
  /// megabyte long, and hashing it byte by byte pays a call per byte).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(text.utf8.count)
    let hashed =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return true
      } ?? false
    if !hashed { Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
  }

  /// By bytes, as `sort` and DuckDB order text.
  public static func < (lhs: ExactText, rhs: ExactText) -> Bool {
    lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
  }

  public var description: String { text }
}
