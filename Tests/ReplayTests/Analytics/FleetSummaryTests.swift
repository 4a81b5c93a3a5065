import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `check --summary`, `stats --by` and `simulate --device` on the command line.
@Suite struct FleetSummaryTests {
  /// Two clean journals of build 1 (one without a device), one legacy journal of build 2.
  final class Fleet {
    let directory: TemporaryDirectory
    let a: String
    let b: String
    let c: String

    init() throws {
      directory = try TemporaryDirectory()
      a = directory.file("a.ndjson")
      b = directory.file("b.ndjson")
      c = directory.file("c.ndjson")
      for (path, extra) in [
        (a, ["--build", "1", "--device", "iPad"]), (b, ["--build", "1"]),
        (c, ["--build", "2", "--device", "iPad", "--profile", "legacy"]),
      ] {
        let run = try Binary.run(["simulate", "--events", "200", "--seed", "3", "-o", path] + extra)
        try #require(run.status == 0, "\(run)")
      }
    }
  }

  @Test func summaryIsOneLinePerJournalThenTheTotalsEvenForOne() throws {
    let fleet = try Fleet()
    let missing = fleet.directory.file("gone.ndjson")
    let run = try Binary.run(["check", "--summary", fleet.a, missing, fleet.c])
    #expect(run.status == 2, "\(run)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(run)")
    #expect(lines[0] == "\(fleet.a): 200 events, 0 errors, 0 warnings")
    #expect(lines[1] == "\(missing): unreadable: cannot open: No such file or directory")
    #expect(lines[2].hasPrefix("\(fleet.c): 200 events, "), "\(run)")
    #expect(lines[2].contains(" errors, 0 warnings ("))
    #expect(lines[3].hasPrefix("total: 3 files, 400 events, ") && lines[3].hasSuffix(", 1 unreadable"), "\(run)")
    #expect(run.stderr == "spatial-replay: error: \(missing): cannot open: No such file or directory\n")
    let one = try Binary.run(["check", "--summary", fleet.a])
    #expect(one.status == 0)
    #expect(
      one.stdout == "\(fleet.a): 200 events, 0 errors, 0 warnings\ntotal: 1 file, 200 events, 0 errors, 0 warnings\n")
    let quiet = try Binary.run(["check", "--summary", "-q", fleet.a, fleet.c])
    #expect(quiet.status == 1)
    #expect(quiet.stdout.split(separator: "\n").count == 1 && quiet.stdout.hasPrefix("total: 2 files, 400 events, "))
  }

  @Test func summaryJSONIsOneObjectPerJournalThenTheTotals() throws {
    let fleet = try Fleet()
    let missing = fleet.directory.file("gone.ndjson")
    let run = try Binary.run(["check", "--summary", "--json", fleet.a, missing])
    #expect(run.status == 2)
    #expect(
      run.stdout == """
        {"file":"\(fleet.a)","events":200,"errors":0,"warnings":0,"formatErrors":0,"rules":{},"unreported":{}}
        {"file":"\(missing)","unreadable":"cannot open: No such file or directory"}
        {"total":true,"files":2,"events":200,"errors":0,"warnings":0,"formatErrors":0,"rules":{},"unreported":{},"unreadable":1}

        """)
    let quiet = try Binary.run(["check", "--summary", "--json", "-q", fleet.a])
    #expect(quiet.stdout.hasPrefix(#"{"total":true,"files":1,"#) && quiet.stdout.split(separator: "\n").count == 1)
  }

  @Test(arguments: [
    (["check", "--summary", "--format", "sarif"], "--summary is a text or JSON report; --format sarif has its own"),
    (
      ["stats", "--format", "csv"],
      "--format csv is the table of groups: give --by (e.g. --by session for one row set per journal)"
    ),
    (["stats", "--by", "build,build"], "--by names build twice"),
    (
      ["stats", "--by", "bild"],
      "--by takes one of build, app, device, session, profile, class, got 'bild' (did you mean build?)"
    ),
    (["stats", "--json", "--format", "csv", "--by", "app"], "--json contradicts --format csv"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let fleet = try Fleet()
    let run = try Binary.run(arguments + [fleet.a])
    #expect(run.status == 64, "\(run)")
    #expect(run.stderr.hasPrefix("spatial-replay: error: \(message)\n"), "\(run)")
  }

  @Test func statsByBuildAndDevicePutsAJournalWithoutADeviceInTheNullGroup() throws {
    let fleet = try Fleet()
    let json = try Binary.run(["stats", "--by", "build,device", "--json", fleet.directory.path])
    #expect(json.status == 0, "lifecycle findings are counted, not judged: \(json)")
    #expect(json.stdout.hasPrefix(#"{"by":["build","device"],"groups":[{"key":{"build":"1","device":"iPad"},"#))
    let keys = json.stdout.components(separatedBy: #"{"key":"#).dropFirst().map { $0.prefix(while: { $0 != "}" }) }
    #expect(
      keys == [#"{"build":"1","device":"iPad""#, #"{"build":"1","device":null"#, #"{"build":"2","device":"iPad""#])
    let text = try Binary.run(["stats", "--by", "build,device", fleet.directory.path])
    let titles = text.stdout.split(separator: "\n").filter { $0.hasPrefix("== ") }
    #expect(
      titles == [
        "== build 1, device iPad: 1 journal", "== build 1, device (none): 1 journal",
        "== build 2, device iPad: 1 journal", "== overall: 3 journals",
      ])
    let csv = try Binary.run(["stats", "--by", "device", "--format", "csv", fleet.directory.path])
    let rows = csv.stdout.components(separatedBy: "\r\n")
    #expect(rows[0] == "device,measure,item,value")
    #expect(rows.contains("iPad,journals,,2") && rows.contains(",journals,,1"), "\(csv)")
    #expect(rows.firstIndex(of: ",journals,,1")! > rows.firstIndex(of: "iPad,journals,,2")!, "null last")
  }

  @Test func simulateWritesTheDeviceInTheHeader() throws {
    let run = try Binary.run(["simulate", "--events", "1", "--device", "iPad13,4", "--build", "7"])
    #expect(
      run.stdout
        == #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"sim-1","build":"7","device":"iPad13,4","profile":"intended"}"#
        + "\n")
  }
}
