import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `spatial-replay tail`, run as a process: the last events and their findings,
/// following appends, a file that does not exist yet, a writer repairing a torn
/// tail, stopping on SIGTERM or after --timeout.
@Suite struct TailCLITests {
  static func line(_ seq: Int, _ event: Event, ms: Int64) -> String {
    Record(seq: seq, time: Timestamp.modelEpoch.adding(milliseconds: ms), event: event).ndjson
  }

  static let header = line(0, .session(SessionHeader(session: "T")), ms: 0)
  static let home = line(1, .alloc(controller: "home", className: "Home"), ms: 1)
  static let root = line(2, .root(controller: "home"), ms: 2)

  @Test func printsTheLastEventsThenTheFindingsOfTheirLines() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", AnalyticsFixture.text)
    let result = try Binary.run(["tail", "-n", "3", path])
    #expect(result.status == 2, "line 22 is malformed: \(result)")
    #expect(result.stdout == "10:00:01.302 #20 notes: willAppear\n10:00:02.000 #22 mark end\n")
    let inMove = " (in move at seq 13: home → notes)"
    #expect(
      result.stderr == """
        \(path):21: error: notes: willAppear while already appeared\(inMove) [will-repeated]
        \(path):21: error: 0 controllers appeared at rest; expected exactly 1\(inMove) [visible-count]
        \(path):22:61: error: missing key "controller" for type "root" [malformed]

        """)
  }

  @Test func jsonPrintsTheLinesAsTheyAreAndZeroLinesPrintsNothing() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", AnalyticsFixture.text)
    let json = try Binary.run(["tail", "--json", path, "-n", "4"])
    let lines = AnalyticsFixture.text.split(separator: "\n")
    #expect(json.stdout == [lines[19], lines[20], lines[22]].map { $0 + "\n" }.joined())
    let none = try Binary.run(["tail", "-n", "0", path])
    #expect(none.status == 2, "the journal has a malformed line")
    #expect(none.stdout.isEmpty)
    #expect(none.stderr == "\(path): 1 format error on earlier lines ('spatial-replay check' lists them)\n")
  }

  @Test func withoutFollowAMissingFileIsAnErrorAndATornTailAWarning() throws {
    let dir = try TemporaryDirectory()
    let missing = try Binary.run(["tail", dir.file("none.ndjson")])
    #expect(missing.status == 2)
    #expect(
      missing.stderr == "spatial-replay: error: \(dir.file("none.ndjson")): cannot open: No such file or directory\n")
    let path = try dir.write("t.ndjson", Self.header + "\n" + #"{"seq":1,"ti"#)
    let torn = try Binary.run(["tail", path])
    #expect(torn.stdout == "00:00:00.000 #0 session T (v1)\n")
    // As `check` reports it: the line, the rule.
    #expect(
      torn.stderr
        == "\(path):2: warning: torn tail: 12 bytes at offset \(Self.header.utf8.count + 1) without a line end [torn-tail]\n"
    )
    let check = try Binary.run(["check", path])
    #expect(check.stdout.contains("\(path):2: warning: torn tail: 12 bytes at offset \(Self.header.utf8.count + 1)"))
  }

  @Test func followsAppendsToAFileThatDoesNotExistYet() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("live.ndjson")
    let tail = try RunningProcess(arguments: ["tail", "--follow", "--timeout", "20", path])
    tail.closeStdin()
    TailFollowerTests.append(path, Self.header + "\n" + Self.home + "\n")
    #expect(tail.readLine() == "00:00:00.000 #0 session T (v1)")
    #expect(tail.readLine() == "00:00:00.001 #1 alloc home (Home)")
    TailFollowerTests.append(path, Self.root + "\n")
    #expect(tail.readLine() == "00:00:00.002 #2 root home")
    tail.send(SIGTERM)
    #expect(tail.wait() == 0, "SIGTERM stops it cleanly")
    #expect(tail.remainingLines() == [])
    #expect(tail.remainingStderr() == "")
  }

  @Test func survivesAWriterRepairingATornTailAndReportsFindingsAsTheyOccur() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write(
      "live.ndjson", [Self.header, Self.home].map { $0 + "\n" }.joined() + #"{"seq":2,"time":"20"#)
    let tail = try RunningProcess(arguments: ["tail", "-f", "--json", "--timeout", "20", path])
    tail.closeStdin()
    #expect(tail.readLine() == Self.header)
    #expect(tail.readLine() == Self.home)
    // A writer opens the journal: it cuts the torn tail off (into live.ndjson.torn) and appends.
    let writer = try JournalWriter(path: path, durability: .none)
    #expect(writer.repairedTail?.length == 19)
    let t = Timestamp.modelEpoch.adding(milliseconds: 5)
    try writer.append(contentsOf: [
      Draft(time: t, event: .root(controller: "home")),
      Draft(time: t, event: .lifecycle(controller: "home", callback: .didAppear)),
    ])
    try writer.close()
    #expect(tail.readLine() == Self.line(2, .root(controller: "home"), ms: 5))
    #expect(tail.readLine() == Self.line(3, .lifecycle(controller: "home", callback: .didAppear), ms: 5))
    tail.send(SIGINT)
    #expect(tail.wait() == 0, "SIGINT stops it cleanly")
    #expect(tail.remainingLines() == [], "nothing of the torn bytes")
    #expect(
      tail.remainingStderr() == """
        \(path):4: error: home: didAppear before didLoad (in initial display at seq 2: home) [appear-before-load]

        """)
  }

  @Test func timeoutStopsAfterSecondsWithoutNewLines() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", Self.header + "\n")
    let result = try Binary.run(["tail", "-f", "--timeout", "0.3", path])
    #expect(result.status == 0)
    #expect(result.stdout == "00:00:00.000 #0 session T (v1)\n")
  }

  @Test(arguments: [
    (["tail"], "tail needs exactly one FILE"),
    (["tail", "-f", "-"], "--follow needs a file; standard input cannot be followed"),
    (["tail", "--timeout", "1", "j"], "--timeout only applies with --follow"),
    (
      ["tail", "-f", "--timeout", "soon", "j"],
      "--timeout takes a number of seconds from 0 to 1,000,000,000, got 'soon'"
    ),
    (["tail", "-n", "-2", "j"], "--lines takes a whole number ≥ 0, got '-2'"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("spatial-replay: error: \(message)\n"), "\(result.stderr)")
  }
}
