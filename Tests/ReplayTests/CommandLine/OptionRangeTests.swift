import Testing

@testable import TestSupport

/// Option values whose size the user decides: out of range they are usage errors (64) that
/// name the range, and never a trap; in range, however large, they work.
@Suite struct OptionRangeTests {
  static let notes = CheckJournals.directory + "/notes.intended.ndjson"

  @Test(arguments: [
    (["simulate", "--duration", "2562047788h", "-o", "/dev/null"], "--duration takes at most 876000h"),
    (["simulate", "--duration", "999999999999h999999999999m", "-o", "/dev/null"], "--duration takes at most"),
    (["simulate", "--screens", "9223372036854775807", "--events", "10"], "--screens takes a whole number from 1 to"),
    (["simulate", "--controllers", "1000001", "--events", "10"], "--controllers takes a whole number from 1 to"),
    (["tail", "-f", "--timeout", "1e19", notes], "--timeout takes a number of seconds from 0 to 1,000,000,000"),
  ])
  func outOfRangeIsAUsageError(arguments: [String], message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func aHugeLineCountPrintsTheWholeJournal() throws {
    let all = try Binary.run(["tail", "-n", "4611686018427387904", Self.notes])
    #expect(all.status == 0, "\(all)")
    #expect(all.stdout.split(separator: "\n").count == 153)
  }
}
