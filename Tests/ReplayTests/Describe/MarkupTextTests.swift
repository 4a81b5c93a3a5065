import Rendering
import Testing

/// The one escaper of the report's pages (HTML) and `check --format junit` (XML).
@Suite struct MarkupTextTests {
  @Test func htmlShowsEveryControlCharacter() {
    #expect(MarkupText.escape(#"a<b & "c" 'd'>"#, .html) == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;")
    #expect(MarkupText.escape("a\nb\tc\u{7F}\u{85}\u{1B}", .html) == #"a\u{a}b\u{9}c\u{7f}\u{85}\u{1b}"#)
    #expect(MarkupText.escape("é \u{FFFE} 😀", .html) == "é \u{FFFE} 😀")
  }

  @Test func xmlKeepsLineFeedsInContentAndReferencesThemInAttributes() {
    #expect(MarkupText.escape(#"a<b & "c" 'd'>"#, .xml) == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
    #expect(MarkupText.escape("a\nb\tc", .xml) == "a\nb\tc")
    #expect(MarkupText.escape("a\nb\tc", .xmlAttribute) == "a&#10;b&#9;c")
    #expect(MarkupText.escape("\u{1B}\u{7F}\u{FFFE}é", .xml) == #"\u{1B}\u{7F}\u{FFFE}é"#)
  }
}
