/// Finds a text inside event texts, for the stepper's search: a substring
/// match on UTF-8 bytes, ignoring ASCII case when the text has no capitals
/// ("smart case": `didappear` finds `didAppear`, `didAppear` only itself).
///
/// Implementation note: a search may scan a million events for every key
/// press, so it compares bytes rather than `Character`s.
struct TextMatcher {
  private let needle: [UInt8]
  private let ignoresCase: Bool

  init(_ text: String) {
    let bytes = Array(text.utf8)
    ignoresCase = !bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    needle = bytes
  }

  /// Whether `haystack` contains the text.
  func matches(_ haystack: String) -> Bool {
    guard !needle.isEmpty else { return true }
    var haystack = haystack
    return haystack.withUTF8 { bytes in
      let n = needle.count
      guard bytes.count >= n else { return false }
      let first = needle[0]
      var i = 0
      while i <= bytes.count - n {
        if fold(bytes[i]) == first {
          var k = 1
          while k < n && fold(bytes[i + k]) == needle[k] { k += 1 }
          if k == n { return true }
        }
        i += 1
      }
      return false
    }
  }

  /// Where the first match starting in `range` of `bytes` starts.
  func first(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    let n = needle.count
    guard n > 0 else { return range.isEmpty ? nil : range.lowerBound }
    let end = min(range.upperBound, bytes.count - n + 1)
    guard range.lowerBound < end else { return nil }
    return needle.withUnsafeBufferPointer { needle in
      let (a, b) = firstBytes(needle)
      var i = range.lowerBound
      while i < end {
        let c = bytes[i]
        if (c == a || c == b) && restMatches(bytes, at: i, needle) { return i }
        i += 1
      }
      return nil
    }
  }

  /// Where the last match starting in `range` of `bytes` starts.
  func last(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    let n = needle.count
    guard n > 0 else { return range.isEmpty ? nil : range.upperBound - 1 }
    let end = min(range.upperBound, bytes.count - n + 1)
    guard range.lowerBound < end else { return nil }
    return needle.withUnsafeBufferPointer { needle in
      let (a, b) = firstBytes(needle)
      var i = end - 1
      while i >= range.lowerBound {
        let c = bytes[i]
        if (c == a || c == b) && restMatches(bytes, at: i, needle) { return i }
        i -= 1
      }
      return nil
    }
  }

  /// The bytes a match can start with: the first byte of the text, and its capital when case is ignored.
  @inline(__always)
  private func firstBytes(_ needle: UnsafeBufferPointer<UInt8>) -> (UInt8, UInt8) {
    let a = needle[0]
    return (a, ignoresCase && a >= UInt8(ascii: "a") && a <= UInt8(ascii: "z") ? a - 0x20 : a)
  }

  /// Whether the text's bytes after the first follow at `i` (the first one already matched).
  @inline(__always)
  private func restMatches(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool
  {
    var k = 1
    while k < needle.count && fold(bytes[i + k]) == needle[k] { k += 1 }
    return k == needle.count
  }

  /// Whether the text holds a line feed (a search index cannot find it: its records are lines).
  var spansLines: Bool { needle.contains(0x0A) }

  @inline(__always)
  private func fold(_ byte: UInt8) -> UInt8 {
    ignoresCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }
}
