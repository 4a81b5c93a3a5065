import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `spatial-replay export`, run as a process: destinations, formats, the
/// partitioned layout, many journals in, exit statuses.
@Suite struct ExportCLITests {
  /// A second journal: another session, with a build, and a session id that needs escaping.
  static let other = """
    {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"a/b:c","build":"7"}
    {"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"x","class":"X"}
    {"seq":2,"time":"2026-01-01T00:00:00.002000Z","type":"root","controller":"x"}
    {"seq":3,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"x","callback":"didLoad"}
    {"seq":4,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"x","callback":"willAppear"}
    {"seq":5,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"x","callback":"didAppear"}
    {"seq":6,"time":"2026-01-01T00:00:00.010500Z","type":"mark","label":"done"}

    """

  static let otherVisitNDJSON =
    #"{"session":"a/b:c","app":null,"build":"7","file":"FILE","controller":"x","class":"X","visit":1,"start_seq":5,"#
    + #""start_time":"2026-01-01T00:00:00.002000Z","end_seq":null,"end_time":"2026-01-01T00:00:00.010500Z","#
    + #""dwell_ms":8.5,"open":true,"complete":true}"#

  @Test func manyJournalsInOneTableOutOnStandardOutput() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", Self.other)
    let result = try Binary.run(["export", "--table", "visits", a, b])
    #expect(result.status == 2, "journal a has a malformed line: \(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 3)
    #expect(lines[0].hasPrefix(#"{"session":"S1","app":"Dicto","build":null,"file":"\#(a)","controller":"home""#))
    #expect(lines[1].hasPrefix(#"{"session":"S1","app":"Dicto","build":null,"file":"\#(a)","controller":"notes""#))
    #expect(lines[2] == Self.otherVisitNDJSON.replacingOccurrences(of: "FILE", with: b))
    #expect(result.stderr == "\(a):22:61: error: missing key \"controller\" for type \"root\" [malformed]\n")
  }

  @Test func csvToAFileIsWrittenAtomicallyWithAHeader() throws {
    let dir = try TemporaryDirectory()
    let b = try dir.write("b.ndjson", Self.other)
    let out = dir.file("moves.csv")
    let result = try Binary.run(["export", "--table", "visits", "--format", "csv", "-o", out, b])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(
      try dir.text(out)
        == "session,app,build,file,controller,class,visit,start_seq,start_time,end_seq,end_time,dwell_ms,open,complete\r\n"
        + "a/b:c,,7,\(b),x,X,1,5,2026-01-01T00:00:00.002000Z,,2026-01-01T00:00:00.010500Z,8.5,true,true\r\n")
    #expect(directoryEntries(dir.path) == ["b.ndjson", "moves.csv"], "no temporary file is left")
  }

  @Test func partitionBySessionWritesAHiveLayout() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", Self.other)
    let c = try dir.write("c.ndjson", Self.other)
    let lake = dir.file("lake")
    defer { removeTree(lake) }
    let result = try Binary.run(["export", "--table", "visits", "-o", lake, "--partition", "session", a, b, c])
    #expect(result.status == 2, "\(result)")
    #expect(directoryEntries(lake) == ["session=S1", "session=a%2Fb%3Ac"])
    #expect(directoryEntries(lake + "/session=S1") == ["part.ndjson"])
    #expect(directoryEntries(lake + "/session=a%2Fb%3Ac") == ["part.ndjson"])
    let s1 = try dir.text(lake + "/session=S1/part.ndjson").split(separator: "\n")
    #expect(s1.count == 2)
    #expect(s1.allSatisfy { $0.hasPrefix(#"{"session":"S1","#) })
    #expect(
      try dir.text(lake + "/session=a%2Fb%3Ac/part.ndjson")
        == Self.otherVisitNDJSON.replacingOccurrences(of: "FILE", with: b) + "\n"
        + Self.otherVisitNDJSON.replacingOccurrences(of: "FILE", with: c) + "\n",
      "two journals of one session go to one file")
  }

  /// Several keys nest in the order given; a journal without a build goes to Hive's null partition.
  @Test func partitionByBuildDateAndSessionNestsTheFolders() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", Self.other)
    let lake = dir.file("lake")
    defer { removeTree(lake) }
    let result = try Binary.run(
      ["export", "--table", "sessions", "-o", lake, "--partition", "build,date,session", a, b])
    #expect(result.status == 2, "\(result)")
    #expect(directoryEntries(lake) == ["build=7", "build=__HIVE_DEFAULT_PARTITION__"])
    #expect(directoryEntries(lake + "/build=7") == ["date=2026-01-01"])
    #expect(directoryEntries(lake + "/build=__HIVE_DEFAULT_PARTITION__") == ["date=2026-11-29"])
    let other = try dir.text(lake + "/build=7/date=2026-01-01/session=a%2Fb%3Ac/part.ndjson")
    #expect(other.hasPrefix(#"{"session":"a/b:c","app":null,"build":"7","file":"\#(b)","device":null,"#))
    #expect(other.split(separator: "\n").count == 1)
    let s1 = try dir.text(lake + "/build=__HIVE_DEFAULT_PARTITION__/date=2026-11-29/session=S1/part.ndjson")
    #expect(s1.hasPrefix(#"{"session":"S1","app":"Dicto","build":null,"#))
  }

  /// `device` and `app` come from the header; `date` is the day of the first event.
  @Test func partitionByDeviceAndApp() throws {
    let dir = try TemporaryDirectory()
    let journal = """
      {"seq":0,"time":"2026-03-04T23:59:59.999999Z","type":"session","v":1,"session":"D","app":"A=1","device":"iPad14,1"}
      {"seq":1,"time":"2026-03-05T00:00:00.000001Z","type":"mark","label":"x"}

      """
    let a = try dir.write("a.ndjson", journal)
    let lake = dir.file("lake")
    defer { removeTree(lake) }
    let result = try Binary.run(["export", "--table", "events", "-o", lake, "--partition", "app,device,date", a])
    #expect(result.status == 0, "\(result)")
    let file = lake + "/app=A%3D1/device=iPad14,1/date=2026-03-04/part.ndjson"
    #expect(try dir.text(file).split(separator: "\n").count == 2, "both events, in the session's start day")
  }

  @Test func partitionedCSVFilesEachHaveAHeader() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let b = try dir.write("b.ndjson", Self.other)
    let lake = dir.file("lake/events")
    defer { removeTree(dir.file("lake")) }
    let result = try Binary.run(
      ["export", "--table", "moves", "--format", "csv", "-o", lake, "--partition", "session", a, b])
    #expect(result.status == 2, "\(result)")
    #expect(directoryEntries(lake) == ["session=S1"], "a journal without moves makes no partition")
    #expect(
      try dir.text(lake + "/session=S1/part.csv")
        == "session,app,build,file,line,seq,time,from,to,direction,trigger,animated,completed,duration_ms,"
        + "from_class,to_class\r\n"
        + "S1,Dicto,,\(a),14,13,2026-11-29T10:00:01.000000Z,home,notes,left,pan,true,true,250.0,Home,Notes\r\n")
  }

  @Test func findingsAreRowsNotMessages() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let result = try Binary.run(["export", "--table", "findings", "--format", "csv", a])
    #expect(result.status == 2)
    #expect(result.stderr.isEmpty, "no progress bar and no messages on a pipe: \(result.stderr)")
    let lines = result.stdout.split(separator: "\r\n")
    try #require(lines.count == 5, "a header and 4 findings: \(result.stdout)")
    #expect(lines[4] == #"S1,Dicto,,\#(a),22,61,,malformed,error,"missing key ""controller"" for type ""root""",[],"#)
  }

  @Test func anUnreadableInputLeavesTheOutputUntouched() throws {
    let dir = try TemporaryDirectory()
    let b = try dir.write("b.ndjson", Self.other)
    let out = try dir.write("visits.ndjson", "old\n")
    let result = try Binary.run(["export", "--table", "visits", "-o", out, b, dir.file("missing.ndjson")])
    #expect(result.status == 2)
    #expect(try dir.text(out) == "old\n")
    #expect(directoryEntries(dir.path) == ["b.ndjson", "visits.ndjson"])
    #expect(
      result.stderr
        == "spatial-replay: error: \(dir.file("missing.ndjson")): cannot open: No such file or directory\n")
  }

  @Test func aWriteErrorExitsTwoAndLeavesNoTemporaryFile() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", AnalyticsFixture.text)
    let result = try Binary.run(["export", "--table", "events", "-o", "/dev/full", a])
    #expect(result.status == 2)
    #expect(result.stderr.hasSuffix("spatial-replay: error: /dev/full: cannot write: No space left on device\n"))
    let directory = try Binary.run(["export", "--table", "events", "-o", dir.path, a])
    #expect(directory.status == 2)
    #expect(directory.stderr == "spatial-replay: error: \(dir.path): is a directory\n")
    #expect(directoryEntries(dir.path) == ["a.ndjson"])
  }

  /// Every row carries the journal's session, app and build: a finding about a line before
  /// the header waits for it.
  @Test func findingsBeforeTheHeaderCarryItsSession() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write(
      "a.ndjson",
      """
      {oops
      {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"late"}
      {"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"root","controller":"ghost"}

      """)
    let result = try Binary.run(["export", "--table", "findings", "--format", "csv", a])
    let lines = result.stdout.split(separator: "\r\n").map(String.init)
    try #require(lines.count == 3, "\(result)")
    #expect(lines[1].hasPrefix("late,,,\(a),1,2,,malformed,error,"), "the malformed first line waits for the header")
    #expect(lines[2].hasPrefix("late,,,\(a),3,,1,unknown-controller,error,"), "rows after the header carry its session")
    let lake = dir.file("lake")
    defer { removeTree(lake) }
    _ = try Binary.run(["export", "--table", "findings", "-o", lake, "--partition", "session", a])
    #expect(directoryEntries(lake) == ["session=late"])
  }

  struct UsageCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    UsageCase(
      arguments: ["export", "a.ndjson"],
      message: "export needs --table (one of events, visits, moves, pans, findings, sessions, paths)"),
    UsageCase(
      arguments: ["export", "--table", "visit", "a.ndjson"],
      message:
        "--table takes one of events, visits, moves, pans, findings, sessions, paths, got 'visit' (did you mean visits?)"
    ),
    UsageCase(
      arguments: ["export", "--table", "pans", "--format", "tsv", "a"],
      message: "--format takes one of ndjson, csv, parquet, got 'tsv' (did you mean csv?)"),
    UsageCase(
      arguments: ["export", "--table", "pans", "--partition", "session", "a"],
      message: "--partition needs -o DIR"),
    UsageCase(
      arguments: ["export", "--table", "pans", "-o", "d", "--partition", "build,dat", "a"],
      message: "--partition takes one of build, app, device, session, date, got 'dat' (did you mean date?)"),
    UsageCase(
      arguments: ["export", "--table", "pans", "-o", "d", "--partition", "build,session,build", "a"],
      message: "--partition names a key twice: build,session,build"),
    UsageCase(
      arguments: ["export", "--schema", "visits", "a"],
      message: "--schema TABLE prints a schema and reads no journal: give it alone"),
    UsageCase(
      arguments: ["export", "--table", "sessions", "--controller", "home", "a"],
      message: "--controller selects rows that name controllers; the sessions table names none"),
    UsageCase(
      arguments: ["export", "--table", "pans"], message: "export needs at least one FILE ('-' for standard input)"),
  ])
  func usageErrors(_ c: UsageCase) throws {
    let result = try Binary.run(c.arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("spatial-replay: error: \(c.message)\n"), "\(result.stderr)")
  }

  @Test func readsStandardInput() throws {
    let result = try Binary.run(["export", "--table", "visits", "-"], stdin: Self.other)
    #expect(result.status == 0)
    #expect(result.stdout == Self.otherVisitNDJSON.replacingOccurrences(of: "FILE", with: "-") + "\n")
  }

  /// A fleet with a 300-byte build, a build named as Hive's null partition, a journal
  /// whose partition folder cannot be made (a file is in the way) and a journal that
  /// does not exist: every other journal is written, the two values under their own
  /// folder names with the full value in the column, each failure in one line of at most
  /// 500 characters naming the path, exit 2, and no empty folder anywhere.
  @Test func oneBadJournalDoesNotStopTheFleet() throws {
    let dir = try TemporaryDirectory()
    let long = String(repeating: "b", count: 300)
    func journal(_ name: String, build: String) throws -> String {
      try dir.write(name, Self.other.replacingOccurrences(of: #""build":"7""#, with: #""build":"\#(build)""#))
    }
    let inputs = [
      try journal("long.ndjson", build: long), try journal("hive.ndjson", build: "__HIVE_DEFAULT_PARTITION__"),
      try journal("blocked.ndjson", build: "blocked"), dir.file("missing.ndjson"),
      try journal("plain.ndjson", build: "7"),
    ]
    let lake = dir.file("lake")
    defer { removeTree(lake) }
    try #require(mkdir(lake, 0o755) == 0)
    try dir.write("lake/build=blocked", "a file where a folder would go")
    let result = try Binary.run(["export", "--table", "sessions", "-o", lake, "--partition", "build"] + inputs)
    #expect(result.status == 2, "\(result)")
    let longFolder = "build=" + String(repeating: "b", count: 64) + "~d6e6622da9911f25"
    #expect(
      directoryEntries(lake) == ["build=%5F_HIVE_DEFAULT_PARTITION__", "build=7", "build=blocked", longFolder].sorted())
    for (folder, build) in [(longFolder, long), ("build=%5F_HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__")] {
      let rows = try dir.text(lake + "/" + folder + "/part.ndjson")
      #expect(rows.contains(#""build":"\#(build)""#), "\(folder): \(rows)")
    }
    #expect(try dir.text(lake + "/build=7/part.ndjson").split(separator: "\n").count == 1)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.allSatisfy { $0.count <= 500 })
    #expect(lines.contains { $0.contains(lake + "/build=blocked") && $0.contains(inputs[2]) }, "\(result.stderr)")
    #expect(lines.contains { $0.contains(inputs[3]) }, "\(result.stderr)")
  }

  /// A partition whose path is too long for the system (past PATH_MAX) fails alone: its
  /// error is one line of at most 500 characters, the other journal is written, and the
  /// folders made for the failed one are removed (no empty folder is left).
  @Test func aFailureIsOneLineAndLeavesNoEmptyFolder() throws {
    let dir = try TemporaryDirectory()
    let top = dir.file("deep")
    defer { removeTree(top) }
    // 16 levels of 250 bytes: room for `build=7` but not for a 108-byte session folder below it.
    let base = top + String(repeating: "/" + String(repeating: "d", count: 250), count: 16)
    let session = String(repeating: "s", count: 100)
    let failing = try dir.write(
      "failing.ndjson", Self.other.replacingOccurrences(of: #""session":"a/b:c""#, with: #""session":"\#(session)""#))
    let written = try dir.write(
      "written.ndjson",
      Self.other.replacingOccurrences(of: #""session":"a/b:c","build":"7""#, with: #""session":"t","build":"8""#))
    let result = try Binary.run(
      ["export", "--table", "sessions", "-o", base, "--partition", "build,session", failing, written])
    #expect(result.status == 2, "\(result)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].count <= 500, "\(result.stderr)")
    #expect(lines.first?.contains("File name too long") == true && lines.first?.contains(failing) == true)
    #expect(directoryEntries(base) == ["build=8"], "build=7 was made for the failed journal, and removed")
    #expect(directoryEntries(base + "/build=8/session=t") == ["part.ndjson"])
  }
}
