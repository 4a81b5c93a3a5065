import Testing

@testable import Journal

@Suite struct TimestampTests {
  @Test func printsSixDigits() throws {
    let t = try Timestamp(rfc3339: "2026-11-29T10:23:12.521Z")
    #expect(t.rfc3339 == "2026-11-29T10:23:12.521000Z")
    #expect(Timestamp.modelEpoch.rfc3339 == "2026-01-01T00:00:00.000000Z")
  }

  @Test(arguments: [
    ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z", Int64(0)),
    ("1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z", Int64(-1)),
    ("2024-02-29T12:00:00.5Z", "2024-02-29T12:00:00.500000Z", Int64(1_709_208_000_500_000)),
    ("2000-03-01T00:00:00.123456789Z", "2000-03-01T00:00:00.123456Z", Int64(951_868_800_123_456)),
    ("9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z", Int64(253_402_300_799_999_999)),
    ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000Z", Int64(-62_135_596_800_000_000)),
  ])
  func parsesAndPrints(input: String, printed: String, micros: Int64) throws {
    let t = try Timestamp(rfc3339: input)
    #expect(t.microseconds == micros)
    #expect(t.rfc3339 == printed)
  }

  @Test func offsetsOnlyWhenAllowed() throws {
    #expect(throws: Timestamp.ParseError.self) { try Timestamp(rfc3339: "2026-01-01T01:00:00+01:00") }
    let t = try Timestamp(rfc3339: "2026-01-01T01:00:00+01:00", allowOffset: true)
    #expect(t == Timestamp.modelEpoch)
  }

  @Test func exactMicrosecondsRefusesFinerDigits() throws {
    #expect(throws: Timestamp.ParseError.self) {
      try Timestamp(rfc3339: "2026-01-01T00:00:00.0000001Z", exactMicroseconds: true)
    }
    let t = try Timestamp(rfc3339: "2026-01-01T00:00:00.000001000Z", exactMicroseconds: true)
    #expect(t.microseconds == Timestamp.modelEpoch.microseconds + 1)
  }

  @Test(arguments: ["2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00", "x"])
  func refusesInvalid(input: String) {
    #expect(throws: Timestamp.ParseError.self) { try Timestamp(rfc3339: input) }
  }

  /// A leap second reads in order with the seconds around it, and only after 23:59:59 UTC.
  @Test func aLeapSecondIsReadInOrder() throws {
    let before = try Timestamp(rfc3339: "2016-12-31T23:59:59.9Z")
    let leap = try Timestamp(rfc3339: "2016-12-31T23:59:60.1Z")
    let after = try Timestamp(rfc3339: "2017-01-01T00:00:00Z")
    #expect(before < leap && leap < after)
    #expect(leap.rfc3339 == "2016-12-31T23:59:59.999999Z")
    #expect(try Timestamp(rfc3339: "2016-12-31T23:59:60.9Z") == leap, "its fraction is not kept")
    #expect(try Timestamp(rfc3339: "2017-01-01T00:59:60.5+01:00", allowOffset: true) == leap)
    for text in ["2026-11-29T12:00:60Z", "2026-11-29T23:58:60Z", "2026-11-29T23:59:61Z"] {
      #expect(throws: Timestamp.ParseError.self, "\(text)") { try Timestamp(rfc3339: text) }
    }
  }
}
