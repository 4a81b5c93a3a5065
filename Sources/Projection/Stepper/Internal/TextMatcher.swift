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

  @inline(__always)
  private func fold(_ byte: UInt8) -> UInt8 {
    ignoresCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }
}
