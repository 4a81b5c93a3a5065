import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A writer never writes a line its readers refuse: an event too long for a line, or with a
/// time past the year 9999, is refused before anything is written, and the journal stays one
/// that reads and takes more appends.
@Suite struct WriterLimitsTests {
  static let header = #"{"type":"session","v":1,"session":"W"}"#

  @Test func appendRefusesALineItsReadersWouldRefuse() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    #expect(try Binary.run(["append", path], stdin: Self.header + "\n").status == 0)
    // Under the input limit, but seq and time make the written line longer than the readers'.
    let label = String(repeating: "x", count: (1 << 20) - 60)
    let big = try Binary.run(["append", path], stdin: #"{"type":"mark","label":"\#(label)"}"# + "\n")
    #expect(big.status == 2, "\(big)")
    #expect(big.stderr.contains("would be a line of"), "\(big.stderr)")
    let after = try Binary.run(["append", path], stdin: #"{"type":"mark","label":"after"}"# + "\n")
    #expect(after.status == 0, "the journal takes more appends: \(after)")
    let check = try Binary.run(["check", "-q", path])
    #expect(check.status == 0, "\(check)")
    #expect(check.stdout.hasPrefix("\(path): 2 events, 0 errors"))
    // With a larger limit (given to its readers too), the line is written.
    let raised = try Binary.run(
      ["append", "--max-line-bytes", "2000000", path], stdin: #"{"type":"mark","label":"\#(label)"}"# + "\n")
    #expect(raised.status == 0, "\(raised)")
    #expect(try Binary.run(["check", "-q", "--max-line-bytes", "2000000", path]).status == 0)
  }

  @Test func aTimePastTheYear9999IsRefused() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let writer = try JournalWriter(path: path, durability: .none)
    _ = try writer.append(Draft(time: Timestamp.latest, event: .mark(label: "last", fields: [])))
    #expect(throws: JournalFileError.self) {
      _ = try writer.append(
        Draft(time: Timestamp(microseconds: Timestamp.latest.microseconds + 1), event: .mark(label: "x", fields: [])))
    }
    try writer.close()
    #expect(try Binary.run(["check", "-q", path]).stdout.hasPrefix("\(path): 1 event,"))
  }

  @Test(arguments: [
    (
      "controller a A\nroot a\nmark \"\(String(repeating: "x", count: 1 << 20))\"\n",
      ":3: the mark would make a line of"
    ),
    ("controller a \(String(repeating: "C", count: 1 << 20))\n", ":1: the class of 'a' would make a line of"),
    (
      "session start=9999-12-20T00:00:00Z\ncontroller a A\nwait 2000000000\nroot a\n",
      ":3: wait 2000000000 takes the clock past the year 9999"
    ),
  ])
  func recordRefusesAScriptWhoseJournalReadersWouldRefuse(script: String, message: String) throws {
    let dir = try TemporaryDirectory()
    let scenario = try dir.write("s.scenario", script)
    let out = dir.file("j.ndjson")
    let result = try Binary.run(["record", scenario, "-o", out])
    #expect(result.status == 2, "\(result.stderr.prefix(300))")
    #expect(result.stderr.contains(message), "\(result.stderr.prefix(300))")
    #expect(access(out, F_OK) != 0, "nothing written")
  }

  /// `cat --replayable` renumbers and re-encodes: a line of the input at the limit grew past it
  /// (1 MiB + 14 bytes, exit 0); it is refused before it is written.
  @Test func catReplayableRefusesALineItsReadersWouldRefuse() throws {
    let dir = try TemporaryDirectory()
    let header = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"C"}"#
    let start = #"{"seq":1,"time":"2026-01-01T00:00:00.000000Z","type":"mark","label":""#
    let label = String(repeating: "x", count: (1 << 20) - start.utf8.count - 2)
    let path = try dir.write("j.ndjson", header + "\n" + start + label + "\"}\n")
    #expect(try Binary.run(["check", "-q", path]).status == 0, "the input is at the limit, not past it")
    let cat = try Binary.run(["cat", "--replayable", path])
    #expect(cat.status == 2, "\(cat.stderr)")
    #expect(cat.stderr.contains("longer than the readers' limit of 1048576"), "\(cat.stderr)")
    #expect(!cat.stdout.contains("xxxx"), "the long line is not written")
    // With a limit its readers are given too, it is written and reads back.
    let raised = try Binary.run(["cat", "--replayable", "--max-line-bytes", "2000000", path])
    #expect(raised.status == 0, "\(raised.stderr)")
  }
}
