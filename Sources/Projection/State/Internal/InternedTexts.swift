import Journal

/// Texts kept once each, by their bytes: every alloc of a class hands the state the
/// same string, not a copy of its own.
///
/// A decoded record holds its own copy of each string; the state keeps every
/// controller ever allocated, with its class, for the whole session. Without
/// interning, a small journal of many allocs of one long class name would hold gigabytes.
///
/// Not part of the state's value: two states are equal, and hash alike, whatever
/// texts they have interned (``==`` is always true).
///
/// Implementation note: a text of at most 15 UTF-8 bytes is a small string, stored
/// inline without an allocation: it is returned as is, without a look-up.
package struct InternedTexts: Sendable, Hashable {
  private var texts: [ExactText: String] = [:]

  package init() {}

  /// The text kept for `text`'s bytes, `text` itself the first time.
  package mutating func intern(_ text: String) -> String {
    guard text.utf8.count > 15 else { return text }
    let key = ExactText(text)
    if let kept = texts[key] { return kept }
    texts[key] = text
    return text
  }

  /// Texts kept.
  var count: Int { texts.count }

  package static func == (lhs: InternedTexts, rhs: InternedTexts) -> Bool { true }
  package func hash(into hasher: inout Hasher) {}
}
