import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `--jobs`: `check`, `stats` and `export` over a fleet of journals print the same
/// bytes with several threads as with one, and as the journals checked one by one.
@Suite struct FleetCLITests {
  /// A fleet in one directory: journals of three builds, two devices, both profiles
  /// (legacy ones have findings), one large enough that its output spills to disk, one
  /// with a format error, and one without a header field but `build`.
  final class Fleet {
    let directory: TemporaryDirectory
    /// The journals in the order a directory argument lists them (sorted by path).
    let journals: [String]

    init() throws {
      directory = try TemporaryDirectory()
      var made: [String] = []
      for i in 0..<7 {
        let profile = i % 3 == 1 ? "legacy" : "intended"
        let name = directory.file("j\(i).ndjson")
        let events = i == 3 ? "4000" : "\(120 + 40 * i)"
        var arguments = [
          "simulate", "--events", events, "--seed", "\(i + 1)", "--profile", profile, "--build", "3.\(i % 3) (4\(i))",
          "-o", name,
        ]
        if i != 5 { arguments += ["--app", "Dicto", "--device", i % 2 == 0 ? "iPhone15,2" : "iPad13,4"] }
        let made1 = try Binary.run(arguments)
        try #require(made1.status == 0, "\(made1)")
        made.append(name)
      }
      // A torn line in the middle of j4: a format error (status 2), the rest is read.
      var lines = try directory.text(made[4]).split(separator: "\n", omittingEmptySubsequences: false)
      lines[40] = #"{"seq":40,"time":"2026"#
      try directory.write("j4.ndjson", lines.joined(separator: "\n"))
      journals = made
    }
  }

  /// The arguments of one run: the command, then the files.
  static func run(_ command: [String], _ files: [String]) throws -> Binary.Result {
    try Binary.run(command + files)
  }

  @Test(arguments: [
    ["check"], ["check", "--json"], ["check", "--format", "github"], ["check", "-q"], ["check", "--summary"],
    ["check", "--summary", "--json"], ["stats"], ["stats", "--json"], ["stats", "--by", "build,device"],
    ["stats", "--by", "app", "--json"], ["stats", "--by", "build", "--format", "csv"],
    ["export", "--table", "events"], ["export", "--table", "visits", "--format", "csv"],
    ["export", "--table", "findings"],
  ])
  func severalJobsPrintWhatOneJobPrints(_ command: [String]) throws {
    let fleet = try Fleet()
    let one = try Binary.run(command + ["--jobs", "1", fleet.directory.path])
    #expect([1, 2].contains(one.status), "\(one)")
    #expect(one.stdoutBytes.count > 0)
    for jobs in ["2", "3", "8"] {
      let several = try Binary.run(command + ["--jobs", jobs, fleet.directory.path])
      #expect(several.status == one.status, "--jobs \(jobs): \(several)")
      #expect(several.stdoutBytes == one.stdoutBytes, "--jobs \(jobs): \(several)")
      #expect(several.stderr == one.stderr, "--jobs \(jobs)")
    }
  }

  /// The large journal's events table is over the spool's MiB kept in memory.
  @Test func checkOfADirectoryIsTheJournalsCheckedOneByOneThenTheTotal() throws {
    let fleet = try Fleet()
    let all = try Binary.run(["check", "--jobs", "2", fleet.directory.path])
    #expect(all.status == 2, "the torn line: \(all)")
    var expected = ""
    for journal in fleet.journals {
      let alone = try Binary.run(["check", journal])
      expected += alone.stdout
    }
    let lines = all.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.dropLast(2).joined(separator: "\n") + "\n" == expected)
    #expect(lines[lines.count - 2].hasPrefix("total: 7 files, "), "\(all)")
    let large = try Binary.run(["export", "--table", "events", fleet.journals[3]])
    #expect(large.stdoutBytes.count > 1 << 20)
  }

  @Test func anUnreadableFileInTheMiddleIsReportedWithItsPathAndTheRestIsRead() throws {
    let fleet = try Fleet()
    let missing = fleet.directory.file("missing.ndjson")
    let files = [fleet.journals[0], fleet.journals[1], missing, fleet.journals[2]]
    for command in [["check"], ["stats"], ["export", "--table", "moves"]] {
      let one = try Binary.run(command + ["--jobs", "1"] + files)
      let two = try Binary.run(command + ["--jobs", "2"] + files)
      #expect(one.status == 2 && two.status == 2, "\(command): \(two)")
      #expect(two.stderr == "spatial-replay: error: \(missing): cannot open: No such file or directory\n", "\(two)")
      #expect(two.stdoutBytes == one.stdoutBytes, "\(command)")
    }
    let check = try Binary.run(["check", "--jobs", "2"] + files)
    #expect(check.stdout.contains("\(fleet.journals[2]): "), "the file after the unreadable one is checked")
    #expect(check.stdout.hasSuffix(", 1 unreadable\n"), "\(check)")
  }

  @Test func partitionedExportsAreTheSameFiles() throws {
    let fleet = try Fleet()
    let one = fleet.directory.file("one")
    let two = fleet.directory.file("two")
    defer { _ = system("rm -rf '\(one)' '\(two)'") }
    for (jobs, out) in [("1", one), ("2", two)] {
      let run = try Binary.run(
        ["export", "--table", "visits", "--format", "csv", "--partition", "session", "--jobs", jobs, "-o", out]
          + fleet.journals)
      #expect(run.status == 2, "the torn line: \(run)")
    }
    #expect(system("diff -r '\(one)' '\(two)' > /dev/null") == 0)
    #expect(system("test $(ls '\(one)' | wc -l) -eq 7") == 0)
  }

  @Test(arguments: ["0", "-1", "two"])
  func jobsIsAWholeNumberOfAtLeastOne(_ value: String) throws {
    let run = try Binary.run(["check", "--jobs", value, "Journals"])
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("spatial-replay: error: --jobs takes a whole number ≥ 1, got '\(value)'"), "\(run)")
  }
}

/// Builds in version order (`sort -V`): a folder's journals and `stats --by build`.
@Suite struct BuildOrderCLITests {
  static let builds = ["9.0", "9.2", "9.10", "10.0"]

  static func fleet() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for build in builds.reversed() {
      let result = try Binary.run([
        "simulate", "--events", "30", "--seed", "1", "--build", build, "-o", directory.path + "/build-\(build).ndjson",
      ])
      #expect(result.status == 0, "\(result)")
    }
    return directory
  }

  @Test func checkSummaryReadsAFolderInVersionOrder() throws {
    let directory = try Self.fleet()
    let result = try Binary.run(["check", "--summary", directory.path])
    let files = result.stdout.split(separator: "\n").compactMap { line in
      line.split(separator: ":").first.flatMap { $0.hasPrefix(directory.path) ? $0.split(separator: "/").last : nil }
    }
    #expect(files == Self.builds.map { "build-\($0).ndjson"[...] }, "\(result)")
  }

  @Test func statsByBuildOrdersBuildsAsVersions() throws {
    let directory = try Self.fleet()
    let result = try Binary.run(["stats", "--by", "build", "--format", "csv", directory.path])
    #expect(result.status == 0, "\(result)")
    var seen: [String] = []
    for line in result.stdout.split(separator: "\r\n").dropFirst() {
      let build = String(line.split(separator: ",", omittingEmptySubsequences: false)[0])
      if !build.isEmpty, seen.last != build { seen.append(build) }
    }
    #expect(seen == Self.builds, "\(result.stdout.prefix(400))")
  }
}
