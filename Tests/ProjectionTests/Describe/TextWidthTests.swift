import Testing

@testable import Projection
@testable import Rendering

/// Terminal columns of text, as `wcwidth` counts them.
@Suite struct TextWidthTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var columns: Int
    var testDescription: String { "\(text.unicodeScalars.map { String($0.value, radix: 16) }) → \(columns)" }
  }

  static let cases: [Case] = [
    Case(text: "home", columns: 4),
    Case(text: "", columns: 0),
    Case(text: "日本", columns: 4),
    Case(text: "ｈｏｍｅ", columns: 8),
    Case(text: "😀", columns: 2),
    Case(text: "🇫🇷", columns: 2),
    Case(text: "e\u{301}", columns: 1),
    Case(text: "क्ष", columns: 2),
    Case(text: "नमस्ते", columns: 4),
    Case(text: "❤\u{FE0F}", columns: 1),
    Case(text: "한국", columns: 4),
  ]

  @Test(arguments: cases)
  func columnsAsATerminalDrawsThem(_ c: Case) {
    #expect(TextWidth.columns(of: c.text) == c.columns)
  }

  /// Cutting never leaves more columns than asked for, whatever the script.
  @Test func truncateKeepsToTheLimit() {
    for text in ["क्षक्षक्षक्ष", "नमस्ते नमस्ते", "日本語のテキスト", "home, notes, settings"] {
      for limit in 1...12 {
        #expect(TextWidth.columns(of: TextWidth.truncate(text, to: limit, ellipsis: "…")) <= limit, "\(text) \(limit)")
      }
    }
  }
}
