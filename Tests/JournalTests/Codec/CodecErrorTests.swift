import Testing

@testable import Journal

/// Every way a line can be refused, with the exact rule, offset and message.
@Suite struct CodecErrorTests {
  struct ErrorCase: CustomTestStringConvertible, Sendable {
    typealias Rule = FormatRule

    var name: String
    var bytes: [UInt8]
    var rule: Rule
    var offset: Int
    var message: String
    var testDescription: String { name }

    init(_ name: String, _ line: String, _ rule: Rule, _ offset: Int, _ message: String) {
      self.init(name, bytes: Array(line.utf8), rule, offset, message)
    }

    init(_ name: String, bytes: [UInt8], _ rule: Rule, _ offset: Int, _ message: String) {
      self.name = name
      self.bytes = bytes
      self.rule = rule
      self.offset = offset
      self.message = message
    }
  }

  /// One line per error kind; offsets are 0-based bytes (the reader shows column = offset + 1).
  static let cases: [ErrorCase] = [
    ErrorCase("top level is an array", "[1,2]", .malformed, 0, "expected a JSON object, found an array"),
    ErrorCase("top level is a string", "\"text\"", .malformed, 0, "expected a JSON object, found a string"),
    ErrorCase("top level is a number", "42", .malformed, 0, "expected a JSON object, found a number"),
    ErrorCase("top level is null", "null", .malformed, 0, "expected a JSON object, found null"),
    ErrorCase("top level is a word", "hello", .malformed, 0, "expected a JSON object, found 'hello'"),
    ErrorCase("empty line", "", .malformed, 0, "expected a JSON object, found the end of the line"),
    ErrorCase("only whitespace", "   ", .malformed, 3, "expected a JSON object, found the end of the line"),
    ErrorCase("trailing garbage", "{\"seq\":0} x", .malformed, 10, "trailing characters after the object"),
    ErrorCase(
      "two objects on one line", "{\"seq\":0}{\"seq\":1}", .malformed, 9, "trailing characters after the object"),
    ErrorCase("key without quotes", "{x:1}", .malformed, 1, "expected '\"' to start a key, found 'x'"),
    ErrorCase("trailing comma in an object", "{\"seq\":1,}", .malformed, 9, "expected '\"' to start a key, found '}'"),
    ErrorCase("missing colon", "{\"seq\" 1}", .malformed, 7, "expected ':' after a key, found '1'"),
    ErrorCase(
      "missing comma", "{\"seq\":1 \"time\":2}", .malformed, 9, "expected ',' or '}' after a value, found '\"'"),
    ErrorCase("missing value", "{\"seq\":}", .malformed, 7, "expected a value, found '}'"),
    ErrorCase("misspelt literal", "{\"seq\":tru}", .malformed, 7, "expected a value, found 'tru'"),
    ErrorCase("literal running on", "{\"seq\":truex}", .malformed, 7, "expected a value, found 'truex'"),
    ErrorCase("single quotes", "{'seq':1}", .malformed, 1, "expected '\"' to start a key, found '''"),
    ErrorCase("end of line inside an object", "{\"seq\":1", .malformed, 8, "unexpected end of line inside an object"),
    ErrorCase("end of line before a value", "{\"seq\":", .malformed, 7, "unexpected end of line inside an object"),
    ErrorCase("only an opening brace", "{", .malformed, 1, "unexpected end of line inside an object"),
    ErrorCase("end of line inside an array", "{\"x\":[1,2", .malformed, 9, "unexpected end of line inside an array"),
    ErrorCase("trailing comma in an array", "{\"x\":[1,]}", .malformed, 8, "expected a value, found ']'"),
    ErrorCase(
      "missing comma in an array", "{\"x\":[1 2]}", .malformed, 8, "expected ',' or ']' after a value, found '2'"),
    ErrorCase(
      "missing colon in a nested object", "{\"x\":{\"a\" 1}}", .malformed, 10, "expected ':' after a key, found '1'"),
    ErrorCase(
      "mismatched bracket", "{\"x\":{\"a\":1]}", .malformed, 11, "expected ',' or '}' after a value, found ']'"),
    ErrorCase(
      "end of line inside a string", "{\"time\":\"2026", .malformed, 13, "unexpected end of line inside a string"),
    ErrorCase("non-ASCII where a value belongs", "{\"seq\":é}", .malformed, 7, "expected a value, found 'é'"),
    ErrorCase("invalid escape", "{\"x\":\"a\\qb\"}", .malformed, 7, "invalid escape '\\q' in a string"),
    ErrorCase("invalid unicode escape", "{\"x\":\"\\u12g4\"}", .malformed, 6, "invalid escape '\\u12g' in a string"),
    ErrorCase("lone high surrogate", "{\"x\":\"\\ud800\"}", .malformed, 6, "unpaired surrogate \\ud800 in a string"),
    ErrorCase("lone low surrogate", "{\"x\":\"\\uDC00\"}", .malformed, 6, "unpaired surrogate \\udc00 in a string"),
    ErrorCase(
      "reversed surrogate pair", "{\"x\":\"\\udc00\\ud800\"}", .malformed, 6, "unpaired surrogate \\udc00 in a string"),
    ErrorCase(
      "high surrogate before a non-surrogate", "{\"x\":\"\\ud800\\u0041\"}", .malformed, 6,
      "unpaired surrogate \\ud800 in a string"),
    ErrorCase(
      "high surrogate before a character", "{\"x\":\"\\ud800x\"}", .malformed, 6,
      "unpaired surrogate \\ud800 in a string"),
    ErrorCase(
      "raw tab in a string", "{\"x\":\"a\u{9}b\"}", .malformed, 7, "control character 0x09 must be escaped in a string"),
    ErrorCase(
      "raw line feed in a string", "{\"x\":\"a\u{A}b\"}", .malformed, 7,
      "control character 0x0a must be escaped in a string"),
    ErrorCase(
      "raw NUL in a string", "{\"x\":\"a\u{0}b\"}", .malformed, 7, "control character 0x00 must be escaped in a string"),
    ErrorCase(
      "end of line after a backslash", "{\"x\":\"ab\\", .malformed, 9, "unexpected end of line inside a string"),
    ErrorCase(
      "end of line inside a unicode escape", "{\"x\":\"\\u00", .malformed, 10, "unexpected end of line inside a string"),
    ErrorCase("invalid number: leading zero", "{\"x\":01}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: plus sign", "{\"x\":+1}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: leading dot", "{\"x\":.5}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: trailing dot", "{\"x\":1.}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: bare minus", "{\"x\":-}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: empty exponent", "{\"x\":1e}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: exponent sign only", "{\"x\":1e+}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: two dots", "{\"x\":1.2.3}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: hex", "{\"x\":0x10}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: minus before dot", "{\"x\":-.5}", .malformed, 5, "invalid number"),
    ErrorCase("invalid number: letters after digits", "{\"x\":12abc}", .malformed, 5, "invalid number"),
    ErrorCase(
      "negative seq", "{\"seq\":-1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}",
      .malformed, 7, "expected an integer ≥ 0 for \"seq\", found -1"),
    ErrorCase(
      "fractional seq",
      "{\"seq\":1.5,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}", .malformed, 7,
      "expected an integer ≥ 0 for \"seq\", found 1.5"),
    ErrorCase(
      "seq with an exponent",
      "{\"seq\":1e2,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}", .malformed, 7,
      "expected an integer ≥ 0 for \"seq\", found 1e2"),
    ErrorCase(
      "seq as a string",
      "{\"seq\":\"1\",\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}", .malformed,
      7, "expected an integer ≥ 0 for \"seq\", found \"1\""),
    ErrorCase(
      "seq too large",
      "{\"seq\":99999999999999999999,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}",
      .malformed, 7, "expected an integer ≥ 0 for \"seq\", found 99999999999999999999"),
    ErrorCase(
      "missing seq", "{\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"home\"}", .malformed,
      71, "missing key \"seq\""),
    ErrorCase(
      "missing time", "{\"seq\":1,\"type\":\"root\",\"controller\":\"home\"}", .malformed, 42, "missing key \"time\""),
    ErrorCase(
      "missing type", "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"controller\":\"home\"}", .malformed, 65,
      "missing key \"type\""),
    ErrorCase(
      "type not a string", "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":7,\"controller\":\"home\"}",
      .malformed, 53, "expected a string for \"type\", found 7"),
    ErrorCase(
      "time as a number", "{\"seq\":1,\"time\":1795946400,\"type\":\"root\",\"controller\":\"home\"}", .malformed, 16,
      "expected a string for \"time\", found 1795946400"),
    ErrorCase(
      "time without Z", "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000\",\"type\":\"root\",\"controller\":\"home\"}",
      .malformed, 43, "\"time\": expected 'Z' (UTC) at the end of the time"),
    ErrorCase(
      "time with a zone offset",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00+01:00\",\"type\":\"root\",\"controller\":\"home\"}", .malformed, 36,
      "\"time\": expected 'Z' (UTC) at the end of the time"),
    ErrorCase(
      "time with month 13", "{\"seq\":1,\"time\":\"2026-13-29T10:00:00Z\",\"type\":\"root\",\"controller\":\"home\"}",
      .malformed, 36, "\"time\": invalid date in time"),
    ErrorCase(
      "time that is not a time", "{\"seq\":1,\"time\":\"yesterday\",\"type\":\"root\",\"controller\":\"home\"}",
      .malformed, 17, "\"time\": expected an RFC 3339 time like 2026-11-29T10:23:12.521000Z"),
    ErrorCase(
      "time with 10 fractional digits",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.0000000001Z\",\"type\":\"root\",\"controller\":\"home\"}", .malformed,
      47, "\"time\": at most 9 fractional digits"),
    ErrorCase(
      "id that is a number",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":17,\"class\":\"C\"}",
      .malformed, 74, "expected a string for \"controller\", found 17"),
    ErrorCase(
      "id that is an object",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":{\"a\":1},\"class\":\"C\"}",
      .malformed, 74, "expected a string for \"controller\", found an object"),
    ErrorCase(
      "id that is an array",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":[\"a\"],\"class\":\"C\"}",
      .malformed, 74, "expected a string for \"controller\", found an array"),
    ErrorCase(
      "empty id",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":\"\",\"class\":\"C\"}",
      .malformed, 74, "\"controller\" must be a non-empty string of at most 256 bytes; found \"\""),
    ErrorCase(
      "id of 257 bytes",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"class\":\"C\"}",
      .malformed, 74, "\"controller\" must be a non-empty string of at most 256 bytes; found \"aaaaaaaaaaaaaaaaaaa…"),
    ErrorCase(
      "missing class",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":\"home\"}", .malformed, 80,
      "missing key \"class\" for type \"alloc\""),
    ErrorCase(
      "missing controller", "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"class\":\"C\"}",
      .malformed, 72, "missing key \"controller\" for type \"alloc\""),
    ErrorCase(
      "class that is null",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"alloc\",\"controller\":\"home\",\"class\":null}",
      .malformed, 89, "expected a string for \"class\", found null"),
    ErrorCase(
      "direction outside its values",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"link\",\"from\":\"a\",\"direction\":\"north\",\"to\":\"b\"}",
      .malformed, 83, "\"direction\" must be one of left, right, up, down; found \"north\""),
    ErrorCase(
      "direction in the wrong case",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"link\",\"from\":\"a\",\"direction\":\"Left\",\"to\":\"b\"}",
      .malformed, 83, "\"direction\" must be one of left, right, up, down; found \"Left\""),
    ErrorCase(
      "direction that is a number",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"link\",\"from\":\"a\",\"direction\":2,\"to\":\"b\"}",
      .malformed, 83, "expected a string for \"direction\", found 2"),
    ErrorCase(
      "callback outside its values",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"lifecycle\",\"controller\":\"a\",\"callback\":\"viewDidLoad\"}",
      .malformed, 93,
      "\"callback\" must be one of didLoad, willAppear, didAppear, willDisappear, didDisappear; found \"viewDidLoad\""),
    ErrorCase(
      "trigger outside its values",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"move\",\"from\":\"a\",\"to\":\"b\",\"direction\":\"left\",\"trigger\":\"swipe\",\"animated\":true}",
      .malformed, 109, "\"trigger\" must be one of programmatic, pan, fling, goToRoot; found \"swipe\""),
    ErrorCase(
      "animated that is a number",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"move\",\"from\":\"a\",\"to\":\"b\",\"direction\":\"left\",\"trigger\":\"pan\",\"animated\":1}",
      .malformed, 126, "expected true or false for \"animated\", found 1"),
    ErrorCase(
      "animated that is a string",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"move\",\"from\":\"a\",\"to\":\"b\",\"direction\":\"left\",\"trigger\":\"pan\",\"animated\":\"true\"}",
      .malformed, 126, "expected true or false for \"animated\", found \"true\""),
    ErrorCase(
      "distance that is a string",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"pan\",\"controller\":\"a\",\"direction\":\"up\",\"touches\":1,\"distance\":\"12\",\"velocity\":3,\"outcome\":\"blocked\"}",
      .malformed, 116, "expected a number for \"distance\", found \"12\""),
    ErrorCase(
      "velocity too large for a double",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"pan\",\"controller\":\"a\",\"direction\":\"up\",\"touches\":1,\"distance\":12,\"velocity\":1e999,\"outcome\":\"blocked\"}",
      .malformed, 130, "expected a finite number for \"velocity\", found 1e999"),
    ErrorCase(
      "touches with a fraction",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"pan\",\"controller\":\"a\",\"direction\":\"up\",\"touches\":1.5,\"distance\":12,\"velocity\":3,\"outcome\":\"blocked\"}",
      .malformed, 103, "expected an integer for \"touches\", found 1.5"),
    ErrorCase(
      "outcome outside its values",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"pan\",\"controller\":\"a\",\"direction\":\"up\",\"touches\":1,\"distance\":12,\"velocity\":3,\"outcome\":\"won\"}",
      .malformed, 142, "\"outcome\" must be one of committed, snapBack, blocked, refused, cancelled; found \"won\""),
    ErrorCase(
      "missing velocity",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"pan\",\"controller\":\"a\",\"direction\":\"up\",\"touches\":1,\"distance\":12,\"outcome\":\"blocked\"}",
      .malformed, 138, "missing key \"velocity\" for type \"pan\""),
    ErrorCase(
      "min of zero",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"touches\",\"controller\":\"a\",\"direction\":\"up\",\"min\":0}",
      .malformed, 103, "expected an integer ≥ 1 for \"min\", found 0"),
    ErrorCase(
      "long value cut to 20 characters",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"touches\",\"controller\":\"a\",\"direction\":\"up\",\"min\":\"aaaaaaaaaaaaaaaaaaaaaaaaa\"}",
      .malformed, 103, "expected an integer ≥ 1 for \"min\", found \"aaaaaaaaaaaaaaaaaaa…"),
    ErrorCase(
      "session without v",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"session\",\"session\":\"s\"}", .malformed, 76,
      "missing key \"v\" for type \"session\""),
    ErrorCase(
      "v as a string",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"session\",\"v\":\"1\",\"session\":\"s\"}",
      .malformed, 67, "expected an integer for \"v\", found \"1\""),
    ErrorCase(
      "optional header key of the wrong type",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"session\",\"v\":1,\"session\":\"s\",\"app\":3}",
      .malformed, 89, "expected a string for \"app\", found 3"),
    ErrorCase(
      "mark without label", "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"mark\",\"x\":1}",
      .malformed, 65, "missing key \"label\" for type \"mark\""),
    ErrorCase("duplicate seq", "{\"seq\":1,\"seq\":2}", .malformed, 9, "duplicate key \"seq\""),
    ErrorCase(
      "duplicate of a key read before its usual place",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"class\":\"C\",\"type\":\"alloc\",\"controller\":\"c\",\"class\":\"D\"}",
      .malformed, 90, "duplicate key \"class\""),
    ErrorCase(
      "duplicate after the last key of the type",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"lifecycle\",\"controller\":\"a\",\"callback\":\"didLoad\",\"controller\":\"b\"}",
      .malformed, 103, "duplicate key \"controller\""),
    ErrorCase(
      "duplicate controller",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"a\",\"controller\":\"b\"}",
      .malformed, 77, "duplicate key \"controller\""),
    ErrorCase(
      "duplicate unknown key",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"a\",\"x\":1,\"x\":2}",
      .malformed, 83, "duplicate key \"x\""),
    ErrorCase(
      "duplicate spelt with an escape",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"a\",\"\\u0073eq\":2}",
      .malformed, 77, "duplicate key \"seq\""),
    ErrorCase(
      "duplicate in a nested object",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"a\",\"x\":{\"a\":1,\"b\":{\"c\":1,\"c\":2}}}",
      .malformed, 99, "duplicate key \"c\""),
    ErrorCase(
      "duplicate in an object inside an array",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"root\",\"controller\":\"a\",\"x\":[{\"a\":1},{\"a\":1,\"a\":2}]}",
      .malformed, 97, "duplicate key \"a\""),
    ErrorCase(
      "duplicate unknown key spelt with an escape",
      "{\"seq\":1,\"time\":\"2026-11-29T10:00:00.001000Z\",\"type\":\"mark\",\"label\":\"l\",\"k\":1,\"\\u006b\":2}",
      .malformed, 78, "duplicate key \"k\""),
    ErrorCase(
      "byte 0xff", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0x61, 0xFF, 0x22, 0x7D], .framing, 7,
      "invalid UTF-8 byte 0xff"),
    ErrorCase(
      "lone continuation byte", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0x61, 0x80, 0x22, 0x7D], .framing, 7,
      "invalid UTF-8 byte 0x80"),
    ErrorCase(
      "overlong 2-byte slash", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D], .framing, 6,
      "invalid UTF-8 byte 0xc0"),
    ErrorCase(
      "overlong 3-byte slash", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xE0, 0x80, 0xAF, 0x22, 0x7D], .framing, 6,
      "invalid UTF-8 byte 0xe0"),
    ErrorCase(
      "overlong 4-byte slash", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22, 0x7D],
      .framing, 6, "invalid UTF-8 byte 0xf0"),
    ErrorCase(
      "surrogate encoded in UTF-8", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D], .framing,
      6, "invalid UTF-8 byte 0xed"),
    ErrorCase(
      "scalar above U+10FFFF", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D],
      .framing, 6, "invalid UTF-8 byte 0xf4"),
    ErrorCase(
      "lead byte 0xf5", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xF5, 0x80, 0x80, 0x80, 0x22, 0x7D], .framing, 6,
      "invalid UTF-8 byte 0xf5"),
    ErrorCase(
      "truncated 3-byte sequence", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xE2, 0x82, 0x22, 0x7D], .framing, 6,
      "invalid UTF-8 byte 0xe2"),
    ErrorCase(
      "sequence cut by the end of the line", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x22, 0xE2, 0x82], .framing, 6,
      "invalid UTF-8 byte 0xe2"),
    ErrorCase(
      "invalid UTF-8 in a key", bytes: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], .framing, 2,
      "invalid UTF-8 byte 0xff"),
    ErrorCase(
      "invalid UTF-8 after the object", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0x31, 0x7D, 0xFF], .framing, 7,
      "invalid UTF-8 byte 0xff"),
    ErrorCase(
      "invalid UTF-8 where a value belongs", bytes: [0x7B, 0x22, 0x78, 0x22, 0x3A, 0xFE, 0x7D], .framing, 5,
      "invalid UTF-8 byte 0xfe"),
    ErrorCase(
      "byte order mark (the reader strips it)", "\u{FEFF}{\"x\":1}", .malformed, 0,
      "expected a JSON object, found '\\u{FEFF}'"),
  ]

  @Test(arguments: cases)
  func refusesWithExactMessage(_ c: ErrorCase) {
    let expected = DecodeError(rule: c.rule, offset: c.offset, message: c.message)
    #expect(decodeBytes(c.bytes).failure == expected)
  }

  @Test(arguments: cases)
  func draftsAreRefusedTheSameWay(_ c: ErrorCase) {
    // Lines without seq or time are fine as drafts; every other error is the same.
    guard !c.message.hasPrefix("missing key \"seq\""), !c.message.hasPrefix("missing key \"time\"") else { return }
    let result = c.bytes.withUnsafeBytes { buffer in
      Result { () throws(DecodeError) -> Draft in try RecordDecoder.decodeDraft(buffer) }
    }
    #expect(result.failure == DecodeError(rule: c.rule, offset: c.offset, message: c.message))
  }

  // MARK: Limits

  /// `depth` nested arrays inside the value of `x` (the top-level object is depth 1).
  static func nested(_ depth: Int) -> String {
    #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"mark","label":"deep","x":"#
      + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
  }

  @Test func nestingAtTheLimitIsAccepted() throws {
    let line = Self.nested(63)  // 1 (the object) + 63 arrays = 64
    let record = try RecordDecoder.decode(line)
    let expected = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
    #expect(record.event == .mark(label: "deep", fields: [Field(key: "x", value: RawJSON(unchecked: expected))]))
  }

  @Test func nestingOverTheLimitIsRefused() {
    let line = Self.nested(64)
    let offset = line.utf8.count - 1 - 64 - 1  // the 64th '['
    #expect(
      decodeLine(line).failure
        == DecodeError(rule: .framing, offset: offset, message: "nesting deeper than the limit of 64"))
  }

  @Test func nestingOfObjectsAndArraysMixed() {
    let limits = DecodeLimits(maxDepth: 4)
    let ok = #"{"seq":0,"time":"2026-11-29T10:00:00Z","type":"root","controller":"a","x":{"y":[{}]}}"#
    #expect(decodeLine(ok, limits: limits).success != nil)
    let deep = #"{"seq":0,"time":"2026-11-29T10:00:00Z","type":"root","controller":"a","x":{"y":[{"z":[]}]}}"#
    let offset = deep.utf8.count - 6  // the '[' after "z":
    #expect(
      decodeLine(deep, limits: limits).failure
        == DecodeError(rule: .framing, offset: offset, message: "nesting deeper than the limit of 4"))
  }

  @Test func veryDeepNestingIsAnErrorNotACrash() {
    let line = Self.nested(500_000)
    let offset = line.utf8.count - 1 - 500_000 - (500_000 - 63)  // the 64th '['
    #expect(
      decodeLine(line).failure
        == DecodeError(rule: .framing, offset: offset, message: "nesting deeper than the limit of 64"))
    let unclosed = #"{"x":"# + String(repeating: "[", count: 200_000)
    #expect(
      decodeLine(unclosed, limits: DecodeLimits(maxDepth: 1_000_000)).failure?.message
        == "unexpected end of line inside an array")
  }

  @Test func depthLimitOfOneAllowsOnlyAFlatObject() {
    let limits = DecodeLimits(maxDepth: 1)
    let flat = #"{"seq":0,"time":"2026-11-29T10:00:00Z","type":"root","controller":"a"}"#
    #expect(decodeLine(flat, limits: limits).success != nil)
    #expect(decodeLine(#"{"x":[]}"#, limits: limits).failure?.offset == 5)
    #expect(
      decodeLine(flat, limits: DecodeLimits(maxDepth: 0)).failure
        == DecodeError(rule: .framing, offset: 0, message: "nesting deeper than the limit of 0"))
  }

  /// A valid line padded with an unknown key to exactly `length` bytes.
  static func line(ofLength length: Int) -> String {
    let head = #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"root","controller":"a","pad":""#
    return head + String(repeating: "p", count: length - head.utf8.count - 2) + #""}"#
  }

  @Test func lineAtTheDefaultLimitIsAccepted() throws {
    let line = Self.line(ofLength: 1 << 20)
    #expect(line.utf8.count == 1_048_576)
    let record = try RecordDecoder.decode(line)
    #expect(record.extra.first?.value.text.utf8.count == 1_048_576 - 84)
  }

  @Test func lineOverTheDefaultLimitIsRefused() {
    let line = Self.line(ofLength: (1 << 20) + 1)
    #expect(
      decodeLine(line).failure
        == DecodeError(rule: .framing, offset: 1_048_576, message: "line is longer than the limit of 1048576 bytes"))
  }

  @Test func lineLengthLimitIsConfigurable() {
    let line = Self.line(ofLength: 120)
    #expect(decodeLine(line, limits: DecodeLimits(maxLineLength: 120)).success != nil)
    #expect(
      decodeLine(line, limits: DecodeLimits(maxLineLength: 119)).failure
        == DecodeError(rule: .framing, offset: 119, message: "line is longer than the limit of 119 bytes"))
  }

  @Test func errorDescriptionShowsTheColumn() {
    let error = DecodeError(rule: .malformed, offset: 16, message: "duplicate key \"seq\"")
    #expect(error.description == "17: duplicate key \"seq\"")
  }
}

/// The known types' names are their wire names, as `Event.typeName` spells them.
@Test func knownTypeNamesAreTheWireNames() {
  #expect(
    Event.Kind.allCases.map(\.rawValue) == [
      "session", "alloc", "root", "link", "unlink", "modal", "touches", "pan", "move", "lifecycle", "dealloc", "mark",
    ])
}
