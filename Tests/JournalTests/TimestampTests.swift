import Testing

@testable import Journal

@Suite struct TimestampTests {
  @Test func printsSixDigits() throws {
    let t = try Timestamp(rfc3339: "2026-11-29T10:23:12.521Z")
    #expect(t.rfc3339 == "2026-11-29T10:23:12.521000Z")
    #expect(Timestamp.modelEpoch.rfc3339 == "2026-01-01T00:00:00.000000Z")
  }
}
