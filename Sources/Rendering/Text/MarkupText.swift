/// Text made safe for HTML and XML: the report's pages and `check --format junit` escape the same
/// characters, and differ only where their readers do.
///
/// ```swift
/// MarkupText.escape("a < b & 'c'", .html)  // "a &lt; b &amp; &#39;c&#39;"
/// MarkupText.escape("a\tb", .xmlAttribute)  // "a&#9;b"
/// ```
public enum MarkupText {
  /// Where the text goes.
  public enum Context: Sendable, Hashable {
    /// HTML content or a quoted attribute value: every control character (a line feed too) is
    /// shown as a visible `\u{a}`, so that a journal's text cannot break a page's layout.
    case html
    /// XML 1.0 content: a line feed and a tab stay; the characters XML does not allow (most
    /// controls, U+FFFE, U+FFFF) are shown as a visible `\u{1B}`.
    case xml
    /// An XML attribute value: as ``xml``, with a line feed and a tab as character references,
    /// which a parser keeps (it turns a literal one into a space: a file name holding a line feed
    /// would lose it).
    case xmlAttribute
  }

  /// `text` with `&`, `<`, `>`, `"` and `'` as entities and the characters `context` cannot hold
  /// shown as `\u{…}`.
  public static func escape(_ text: String, _ context: Context) -> String {
    let html = context == .html
    let attribute = context == .xmlAttribute
    return ScalarEscape.escape(
      text, uppercase: !html,
      named: { scalar in
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": html ? "&#39;" : "&apos;"
        case "\n" where !html: attribute ? "&#10;" : "\n"
        case "\t" where !html: attribute ? "&#9;" : "\t"
        default: nil
        }
      },
      holds: { scalar in
        let v = scalar.value
        return v >= 0x20 && !(v >= 0x7F && v < 0xA0)
          && (html || v < 0xD800 || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000)
      })
  }
}
