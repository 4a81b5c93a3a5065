import Testing

@testable import Journal

/// What the decoder accepts and how it reads it.
@Suite struct CodecDecoderTests {
  static let time = "2026-11-29T10:00:00.001000Z"
  static let t = exampleTime(micros: 1000)

  @Test func keysInAnyOrder() throws {
    let line = #"{"to":"notes","type":"link","direction":"left","time":"\#(Self.time)","from":"home","seq":7}"#
    #expect(
      try RecordDecoder.decode(line)
        == Record(seq: 7, time: Self.t, event: .link(from: "home", direction: .left, to: "notes")))
  }

  @Test func whitespaceWhereJSONAllowsIt() throws {
    let line =
      " \t{ \"seq\" :\r7 ,\n\"time\":\"\(Self.time)\" , \"type\" : \"move\", \"from\":\"a\",\"to\":\"b\","
      + "\"direction\":\"up\",\"trigger\":\"fling\",\"animated\" : false , \"x\" : [ 1 , { \"y\" : null } ] } \t"
    let record = try RecordDecoder.decode(line)
    #expect(
      record
        == Record(
          seq: 7, time: Self.t,
          event: .move(Move(from: "a", to: "b", direction: .up, trigger: .fling, animated: false)),
          extra: [Field(key: "x", value: RawJSON(unchecked: #"[ 1 , { "y" : null } ]"#))]))
  }

  @Test func escapesAreDecodedEverywhere() throws {
    // Keys, the type, enum values and ids may all use escapes; they mean the same as the plain text.
    let line =
      #"{"\u0073eq":1,"time":"2026-11-29T10:00:00.001000\u005a","typ\u0065":"l\u0069nk","fr\u006fm":"h\u00e9\ud83d\ude00\n\"\\\/","direction":"\u006ceft","to":"\u4e2d"}"#
    let record = try RecordDecoder.decode(line)
    #expect(record == Record(seq: 1, time: Self.t, event: .link(from: "hé😀\n\"\\/", direction: .left, to: "中")))
  }

  /// Strings are scanned eight bytes at a time: put each kind of special byte at every position of a word.
  @Test func specialBytesAtEveryPosition() throws {
    let head = Array(#"{"seq":1,"time":"\#(Self.time)","type":"root","controller":""#.utf8)
    let contentStart = head.count
    for length in 0..<20 {
      let plain = Array(repeating: UInt8(ascii: "a"), count: length)
      let tail = Array(#"b"}"#.utf8)
      // An escape, a two-byte character, a control character and an invalid byte right after `length` plain bytes.
      let escaped = try #require(decodeBytes(head + plain + Array(#"\"x"#.utf8) + tail).success)
      #expect(escaped.event == .root(controller: ControllerID(String(repeating: "a", count: length) + "\"xb")))
      let accented = try #require(decodeBytes(head + plain + [0xC3, 0xA9] + tail).success)
      #expect(accented.event == .root(controller: ControllerID(String(repeating: "a", count: length) + "éb")))
      #expect(
        decodeBytes(head + plain + [0x01] + tail).failure
          == DecodeError(
            rule: .malformed, offset: contentStart + length,
            message: "control character 0x01 must be escaped in a string"))
      #expect(
        decodeBytes(head + plain + [0xFF] + tail).failure
          == DecodeError(rule: .framing, offset: contentStart + length, message: "invalid UTF-8 byte 0xff"))
      #expect(
        decodeBytes(head + plain + [0x7F, 0x20, 0x1F + 1, 0x7E] + tail).success?.event
          == .root(controller: ControllerID(String(repeating: "a", count: length) + "\u{7F}  ~b")))
    }
  }

  @Test func nonASCIIIsReadAsIs() throws {
    let line = #"{"seq":1,"time":"\#(Self.time)","type":"alloc","controller":"écran-中-😀","class":"Ünïcödé"}"#
    #expect(
      try RecordDecoder.decode(line)
        == Record(seq: 1, time: Self.t, event: .alloc(controller: "écran-中-😀", className: "Ünïcödé")))
  }

  struct TimeCase: CustomTestStringConvertible, Sendable {
    var text: String
    var micros: Int64
    var testDescription: String { text }
  }

  /// Readers accept 0 to 9 fractional digits; digits beyond microseconds are truncated.
  static let times: [TimeCase] = [
    TimeCase(text: "2026-11-29T10:00:00Z", micros: 0),
    TimeCase(text: "2026-11-29T10:00:00.5Z", micros: 500_000),
    TimeCase(text: "2026-11-29T10:00:00.123Z", micros: 123_000),
    TimeCase(text: "2026-11-29T10:00:00.123456Z", micros: 123_456),
    TimeCase(text: "2026-11-29T10:00:00.123456789Z", micros: 123_456),
    TimeCase(text: "2026-11-29t10:00:00.000001z", micros: 1),
    // A leap second: the last microsecond of its minute, whatever its fraction.
    TimeCase(text: "2026-11-29T23:59:60.250000Z", micros: 50_399_999_999),
  ]

  @Test(arguments: times)
  func timeForms(_ c: TimeCase) throws {
    let line = #"{"seq":0,"time":"\#(c.text)","type":"root","controller":"a"}"#
    #expect(try RecordDecoder.decode(line).time == exampleTime(micros: c.micros))
    #expect(try RecordDecoder.decode(line).time == Timestamp(rfc3339: c.text))
  }

  /// The canonical fast path and the general parser agree on canonical times and on damaged ones.
  @Test func canonicalTimesMatchTheGeneralParser() {
    var rng = SeededGenerator(seed: 7)
    for _ in 0..<20_000 {
      var text = Array(Timestamp(microseconds: Int64.random(in: 0...253_402_300_799_999_999, using: &rng)).rfc3339.utf8)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0:
        // Another digit anywhere: invalid months, days, hours, leap days in other years, digits for separators...
        text[Int.random(in: 0..<27, using: &rng)] = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &rng)
      case 1:
        // Any byte anywhere (a letter, ':' or '/' next to the digits, a lowercase 't' or 'z'...).
        text[Int.random(in: 0..<27, using: &rng)] = UInt8.random(in: 0x20...0x7E, using: &rng)
      default:
        break
      }
      var minute = CanonicalMinute()
      expectCanonicalAgreesWithTheGeneralParser(text, &minute)
    }
  }

  /// The canonical fast path, given `minute`, gives what the general parser gives for `text`, or
  /// declines only what the general parser refuses (or the lowercase 't' and 'z' it accepts).
  private func expectCanonicalAgreesWithTheGeneralParser(_ text: [UInt8], _ minute: inout CanonicalMinute) {
    let general = text.withUnsafeBytes { Timestamp.parse($0) }
    let canonical = text.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { Timestamp.parseCanonical($0, buffer.count, minute: &minute) }
    }
    if let canonical {
      #expect(canonical == general.success, "\(String(decoding: text, as: UTF8.self))")
    } else {
      #expect(
        general.success == nil || text[10] == UInt8(ascii: "t") || text[26] == UInt8(ascii: "z"),
        "\(String(decoding: text, as: UTF8.self))")
    }
  }

  /// The minute a decoding thread remembers from one time to the next never changes a result: times a few
  /// seconds apart (the same minute, the next one, a new day), some damaged, parsed in turn with one
  /// ``CanonicalMinute`` agree with the general parser as each alone does.
  @Test func canonicalTimesInSequenceMatchTheGeneralParser() {
    var rng = SeededGenerator(seed: 13)
    var minute = CanonicalMinute()
    var micros = Int64.random(in: 0...253_402_000_000_000_000, using: &rng)
    for _ in 0..<20_000 {
      micros += Int64.random(in: 0...40_000_000, using: &rng)
      var text = Array(Timestamp(microseconds: micros).rfc3339.utf8)
      if Int.random(in: 0..<4, using: &rng) == 0 {
        text[Int.random(in: 0..<27, using: &rng)] = UInt8.random(in: 0x20...0x7E, using: &rng)
      }
      expectCanonicalAgreesWithTheGeneralParser(text, &minute)
    }
  }

  @Test func integersAndNumbers() throws {
    let line =
      #"{"seq":-0,"time":"\#(Self.time)","type":"pan","controller":"c","direction":"down","touches":-2,"distance":1E2,"velocity":-0.5e-3,"outcome":"refused"}"#
    let record = try RecordDecoder.decode(line)
    #expect(record.seq == 0)
    #expect(
      record.event
        == .pan(
          Pan(controller: "c", direction: .down, touches: -2, distance: 100, velocity: -0.0005, outcome: .refused))
    )
  }

  /// Numbers are read to the nearest double, as the standard library's correctly rounded parser reads them.
  @Test func numbersAreCorrectlyRounded() throws {
    var rng = SeededGenerator(seed: 11)
    var texts = [
      "0.1", "0.30000000000000004", "9007199254740993", "1e23", "8.98846567431158e307", "2.2250738585072011e-308",
      "4.9406564584124654e-324", "123456789012345678901234567890", "0.000000000000000000000000001", "1.5e-7",
      "17976931348623157" + String(repeating: "0", count: 292),
    ]
    for _ in 0..<5000 {
      let value = Double(bitPattern: rng.next())
      if value.isFinite { texts.append(JSONWriter.ecmaScriptNumberText(value)) }
      let digits = String(UInt64.random(in: 0...UInt64.max, using: &rng))
      let exponent = Int.random(in: -30...30, using: &rng)
      texts.append(digits.prefix(Int.random(in: 1...digits.count, using: &rng)) + "e\(exponent)")
      texts.append("0." + digits)
    }
    for text in texts {
      let line =
        #"{"seq":0,"time":"\#(Self.time)","type":"pan","controller":"c","direction":"up","touches":1,"distance":\#(text),"velocity":0,"outcome":"blocked"}"#
      guard case .pan(let pan) = try RecordDecoder.decode(line).event else {
        Issue.record("not a pan")
        return
      }
      #expect(pan.distance == Double(text), "\(text)")
    }
  }

  @Test func sessionVersionIsAnyInteger() throws {
    let line = #"{"seq":0,"time":"\#(Self.time)","type":"session","v":2,"session":""}"#
    #expect(try RecordDecoder.decode(line).event == .session(SessionHeader(version: 2, session: "")))
  }

  @Test func unknownKeysAreKeptVerbatimInOrder() throws {
    let line =
      #"{"seq":5,"zz":"\u00e9\/","time":"\#(Self.time)","min":1.50,"type":"root","controller":"home","a":{"b" : [1E2,true]},"class":-0}"#
    let record = try RecordDecoder.decode(line)
    #expect(record.event == .root(controller: "home"))
    #expect(
      record.extra == [
        Field(key: "zz", value: RawJSON(unchecked: #""\u00e9\/""#)),
        Field(key: "min", value: RawJSON(unchecked: "1.50")),
        Field(key: "a", value: RawJSON(unchecked: #"{"b" : [1E2,true]}"#)),
        Field(key: "class", value: RawJSON(unchecked: "-0")),
      ])
    // Copied through, the values keep their spelling.
    #expect(
      record.ndjson
        == #"{"seq":5,"time":"\#(Self.time)","type":"root","controller":"home","zz":"\u00e9\/","min":1.50,"a":{"b" : [1E2,true]},"class":-0}"#
    )
  }

  @Test func unknownKeysWithEscapesAreUnescaped() throws {
    let line = #"{"seq":5,"time":"\#(Self.time)","type":"root","controller":"home","k\u00e9y\n":1}"#
    #expect(try RecordDecoder.decode(line).extra == [Field(key: "kéy\n", value: RawJSON(unchecked: "1"))])
  }

  @Test func unknownTypesAreKept() throws {
    let line =
      #"{"seq":9,"time":"\#(Self.time)","controller":"home","type":"zoom","scale":2.5,"direction":"sideways"}"#
    let record = try RecordDecoder.decode(line)
    #expect(
      record
        == Record(
          seq: 9, time: Self.t, event: .unknown(type: "zoom", raw: line),
          extra: [
            Field(key: "controller", value: RawJSON(unchecked: #""home""#)),
            Field(key: "scale", value: RawJSON(unchecked: "2.5")),
            Field(key: "direction", value: RawJSON(unchecked: #""sideways""#)),
          ]))
  }

  @Test func typeNamesAreCaseSensitive() throws {
    let line = #"{"seq":9,"time":"\#(Self.time)","type":"Root","controller":"home"}"#
    #expect(try RecordDecoder.decode(line).event == .unknown(type: "Root", raw: line))
  }

  @Test func markFieldsKeepEveryOtherKeyInOrder() throws {
    let line =
      #"{"x":1,"seq":3,"time":"\#(Self.time)","type":"mark","controller":"home","label":"tap","y":[],"seq2":{}}"#
    let record = try RecordDecoder.decode(line)
    #expect(
      record
        == Record(
          seq: 3, time: Self.t,
          event: .mark(
            label: "tap",
            fields: [
              Field(key: "x", value: RawJSON(unchecked: "1")),
              Field(key: "controller", value: RawJSON(unchecked: #""home""#)),
              Field(key: "y", value: RawJSON(unchecked: "[]")),
              Field(key: "seq2", value: RawJSON(unchecked: "{}")),
            ])))
  }

  @Test func draftsMayLackTheEnvelope() throws {
    #expect(
      try RecordDecoder.decodeDraft(#"{"type":"lifecycle","controller":"a","callback":"didLoad"}"#)
        == Draft(event: .lifecycle(controller: "a", callback: .didLoad)))
    #expect(
      try RecordDecoder.decodeDraft(#"{"time":"\#(Self.time)","type":"dealloc","controller":"a","note":1}"#)
        == Draft(
          time: Self.t, event: .dealloc(controller: "a"), extra: [Field(key: "note", value: RawJSON(unchecked: "1"))]))
    // Present envelope keys are still checked.
    #expect(
      decodeDraftLine(#"{"seq":-1,"type":"dealloc","controller":"a"}"#).failure
        == DecodeError(rule: .malformed, offset: 7, message: #"expected an integer ≥ 0 for "seq", found -1"#))
    #expect(
      decodeDraftLine(#"{"seq":1}"#).failure
        == DecodeError(rule: .malformed, offset: 8, message: #"missing key "type""#))
  }

  @Test func emptyObjectMissesTheEnvelope() {
    #expect(decodeLine("{}").failure == DecodeError(rule: .malformed, offset: 1, message: #"missing key "seq""#))
    #expect(decodeLine("{ }").failure == DecodeError(rule: .malformed, offset: 2, message: #"missing key "seq""#))
  }

  @Test func syntaxErrorsComeBeforeMissingKeys() {
    // The whole line is checked as JSON first: the duplicate inside `x` is found even though `type` is missing.
    #expect(
      decodeLine(#"{"x":{"a":1,"a":1}}"#).failure
        == DecodeError(rule: .malformed, offset: 12, message: #"duplicate key "a""#))
  }

  @Test func emptyBufferWithoutAnAddress() {
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    let result = Result { () throws(DecodeError) -> Record in try RecordDecoder.decode(empty) }
    #expect(
      result.failure
        == DecodeError(rule: .malformed, offset: 0, message: "expected a JSON object, found the end of the line"))
  }
}
