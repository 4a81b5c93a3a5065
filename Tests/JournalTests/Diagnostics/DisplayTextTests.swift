import Journal
import Testing

/// `displayText`: what a journal's strings look like on a terminal.
@Suite struct DisplayTextTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var input: String
    var limit: Int
    var output: String
    var testDescription: String { output }
  }

  static let cases: [Case] = [
    Case(input: "HomeViewController", limit: 64, output: "HomeViewController"),
    Case(input: "", limit: 64, output: ""),
    Case(input: "abcde", limit: 5, output: "abcde"),
    Case(input: "abcdef", limit: 5, output: "abcde…"),
    Case(input: "evil\u{1B}[2J", limit: 64, output: "evil\\u{1B}[2J"),
    Case(input: "tab\there", limit: 64, output: "tab\\u{9}here"),
    Case(input: "del\u{7F}", limit: 64, output: "del\\u{7F}"),
    Case(input: "c1\u{9B}31m", limit: 64, output: "c1\\u{9B}31m"),
    Case(input: "\u{202E}txt.exe", limit: 64, output: "\\u{202E}txt.exe"),
    Case(input: "zero\u{200B}width\u{FEFF}", limit: 64, output: "zero\\u{200B}width\\u{FEFF}"),
    Case(input: "line\u{2028}sep", limit: 64, output: "line\\u{2028}sep"),
    Case(input: "café 📍", limit: 64, output: "café 📍"),
    Case(input: "éééé", limit: 3, output: "ééé…"),
    Case(input: "\u{1B}\u{1B}\u{1B}", limit: 2, output: "\\u{1B}\\u{1B}…"),
    Case(input: String(repeating: "x", count: 70), limit: .max, output: String(repeating: "x", count: 70)),
  ]

  @Test(arguments: cases)
  func escapesAndCuts(_ c: Case) {
    #expect(displayText(c.input, limit: c.limit) == c.output)
  }

  /// The default limit is 64 characters.
  @Test func theDefaultLimitIs64() {
    #expect(displayText(String(repeating: "a", count: 64)) == String(repeating: "a", count: 64))
    #expect(displayText(String(repeating: "a", count: 65)) == String(repeating: "a", count: 64) + "…")
  }

  /// Every scalar below U+0100 either stays or is escaped, never passes as a control character.
  @Test func noControlCharacterSurvives() {
    for v in 0..<0x100 {
      let scalar = Unicode.Scalar(UInt8(v))
      let shown = displayText("a" + String(Character(scalar)) + "b")
      let isControl = v < 0x20 || (0x7F..<0xA0).contains(v)
      #expect(shown.unicodeScalars.contains(scalar) != isControl, "U+\(String(v, radix: 16))")
    }
  }
}

/// The byte-level fast path agrees with the scalar rule for every scalar of the
/// Basic Multilingual Plane and some beyond, alone and between letters.
@Test func theFastPathAgreesWithTheScalarRule() {
  var values = Array(0..<0xD800) + Array(0xE000..<0x10000)
  values += [0x1F4CD, 0x10FFFF, 0x1D11E]
  for v in values {
    let scalar = Unicode.Scalar(UInt32(v))!
    let text = "a" + String(Character(scalar)) + "b"
    let escape = "\\u{" + String(v, radix: 16, uppercase: true) + "}"
    let shown = needsEscapeForTest(scalar) ? escape : String(Character(scalar))
    let expected = "a" + shown + "b"
    #expect(displayText(text) == expected, "U+\(String(v, radix: 16))")
  }
}

/// The eight-bytes-at-a-time scan of printable ASCII: a scalar at every
/// position of a longer text, and the limit counted across its chunks.
@Test func theWordScanFindsAScalarAnywhere() {
  let values = Array(0..<0x100) + [0x200B, 0x202E, 0x2060, 0xFEFF, 0xFFFA, 0x1F4CD]
  let ascii = "abcdefghijklmnopqrstuvw"
  for v in values {
    let scalar = Unicode.Scalar(UInt32(v))!
    let escape = "\\u{" + String(v, radix: 16, uppercase: true) + "}"
    let shown = needsEscapeForTest(scalar) ? escape : String(Character(scalar))
    for k in 0...ascii.count {
      let before = String(ascii.prefix(k))
      let after = String(ascii.dropFirst(k))
      let text = before + String(Character(scalar)) + after
      #expect(displayText(text, limit: .max) == before + shown + after, "U+\(String(v, radix: 16)) at \(k)")
    }
  }
  let long = String(repeating: "x", count: 40)
  #expect(displayText(long, limit: 40) == long)
  #expect(displayText(long, limit: 39) == String(repeating: "x", count: 39) + "…")
  #expect(displayText(long, limit: 8) == "xxxxxxxx…")
}

/// The scalars the format's display rule escapes, spelled out independently of the implementation.
private func needsEscapeForTest(_ s: Unicode.Scalar) -> Bool {
  let v = s.value
  return v < 0x20 || (0x7F..<0xA0).contains(v) || (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
    || (0x2060...0x206F).contains(v) || v == 0xFEFF || (0xFFF9...0xFFFB).contains(v)
}

/// Data bound for a terminal: each hazard becomes its JSON escape; line feeds, tabs and the rest stay.
@Test func dataForATerminalCarriesJSONEscapes() {
  var out: [UInt8] = []
  let input = "a\u{1B}[2J\tb\u{9B}c\u{202E}d\u{7F}\r\né→😀\u{FEFF}\u{2066}"
  escapeForTerminal(Array(input.utf8), into: &out)
  #expect(String(decoding: out, as: UTF8.self) == "a\\u001b[2J\tb\\u009bc\\u202ed\\u007f\\u000d\né→😀\\ufeff\\u2066")
  out = []
  escapeForTerminal(Array("plain, \"quoted\"\n".utf8), into: &out)
  #expect(out == Array("plain, \"quoted\"\n".utf8))
}
