/// Strings of up to 15 printable ASCII bytes made from two words, as the
/// standard library lays out its small strings, without a call into it.
///
/// Implementation note: on a 64-bit platform a `String` of at most 15 UTF-8
/// bytes is held in its own two words (the bytes in order, then a byte of
/// flags and the count: `0xE0 | count` for ASCII), which the standard library
/// keeps stable. `String(decoding:as:)` gets there through a validating call;
/// the decoder, which has just checked that the bytes are printable ASCII and
/// has them in two words already (``ShortText``), writes the two words itself.
/// ``isAvailable`` checks, once, that `String(decoding:as:)` makes the very
/// same words for every count; where it does not, the decoder takes the
/// standard library's way.
enum SmallASCII {
  /// The longest string made so.
  static let capacity = 15

  /// Whether this platform's small strings are laid out as assumed (checked on the words before
  /// any string is made from them).
  static let isAvailable: Bool = {
    guard MemoryLayout<String>.size == 16, UInt16(littleEndian: 1) == 1 else { return false }
    let sample = Array("abcdefghijklmnop".utf8)
    return (0...capacity).allSatisfy { n in
      let text = sample.withUnsafeBufferPointer { ShortText(copying: $0.baseAddress!, n) }
      let expected = String(decoding: sample[..<n], as: UTF8.self)
      guard words(text, n) == unsafeBitCast(expected, to: (UInt64, UInt64).self) else { return false }
      return string(text, n) == expected
    }
  }()

  /// The string of the first `n` (at most 15) bytes of `text`, printable ASCII; `text` may hold
  /// more bytes after them (left out here).
  /// - Precondition: ``isAvailable``.
  @inline(__always)
  static func string(_ text: ShortText, _ n: Int) -> String {
    unsafeBitCast(words(text, n), to: String.self)
  }

  /// The two words of a small string of the first `n` bytes of `text`.
  @inline(__always)
  private static func words(_ text: ShortText, _ n: Int) -> (UInt64, UInt64) {
    let first = n >= 8 ? text.first : text.first & ((1 &<< UInt64(n &* 8)) &- 1)
    let second = n <= 8 ? 0 : text.second & ((1 &<< UInt64((n &- 8) &* 8)) &- 1)
    return (first, second | (0xE0 | UInt64(n)) &<< 56)
  }
}
