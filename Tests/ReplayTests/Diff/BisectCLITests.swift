import Foundation
import Journal
import Testing

@testable import TestSupport

/// `spatial-replay bisect`, run as a process, on the bundled series
/// `Journals/bisect/` (a modal leak from build 08 on) and on edited copies.
@Suite struct BisectCLITests {
  /// The repository's root, found from this file's path.
  static let root = Repository.root

  static func build(_ n: Int) -> String { root + "/Journals/bisect/build-" + (n < 10 ? "0" : "") + "\(n).ndjson" }
  static let series = (1...12).map(build)

  @Test func findsBuild08InTheBundledSeries() throws {
    let result = try Binary.run(["bisect"] + Self.series)
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr == "")
    let s = Self.series
    #expect(
      result.stdout.hasPrefix(
        """
        bisect: 12 runs, \(s[0]) is good; looking for the first that differs from it (at most 4 probes)
        probe 1/4: \(s[6]) (run 7 of 12): good (identical to \(s[0]))
        probe 2/4: \(s[9]) (run 10 of 12): bad (differs from \(s[0]) after seq 39)
        probe 3/4: \(s[7]) (run 8 of 12): bad (differs from \(s[0]) after seq 39)
        first bad run: \(s[7]) (run 8 of 12); last good run: \(s[6]) (run 7)
        3 probes and 1 diff: 4 comparisons (at most ⌈log2 12⌉ + 1 = 5)

        diff \(s[6]) \(s[7]):
        A: \(s[6]) (81 events compared)

        """))
    #expect(
      result.stdout.hasSuffix(
        """
        hunk 1 of 1, missing: A 2 events, seq 40–41 (lines 41–42); B none, after seq 39 (line 40)
          - A seq 40  unlink notes down
          - A seq 41  dealloc compose

        1 hunk: 1 missing; A 81 events, B 79 events

        """))
  }

  @Test func everyRunGoodExitsZero() throws {
    let result = try Binary.run(["bisect"] + Self.series.prefix(7))
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasSuffix("no bad run: none of the 7 runs differs from \(Self.series[0])\n"))
    let single = try Binary.run(["bisect", Self.series[0]])
    #expect(single.status == 0, "\(single)")
    #expect(!single.stdout.contains("probe "))
  }

  @Test func jsonHasProbesAndTheFinalDiff() throws {
    let result = try Binary.run(["bisect", "--json"] + Self.series)
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.split(separator: "\n").count == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["mode"] as? String == "diff")
    #expect((object["runs"] as? [String])?.count == 12)
    let probes = try #require(object["probes"] as? [[String: Any]])
    #expect(probes.map { $0["run"] as? Int } == [7, 10, 8])
    #expect(probes.map { $0["bad"] as? Bool } == [false, true, true])
    #expect((object["firstBad"] as? [String: Any])?["run"] as? Int == 8)
    #expect((object["lastGood"] as? [String: Any])?["file"] as? String == Self.series[6])
    #expect(object["comparisons"] as? Int == 4)
    let diff = try #require(object["diff"] as? [String: Any])
    #expect((diff["summary"] as? [String: Int])?["missing"] == 1)
  }

  @Test func checkModeFindsTheFirstRunWithErrors() throws {
    let dir = try TemporaryDirectory()
    let good = try dir.text(Self.series[0])
    var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[30] = "{\"seq\":30,\"broken\""
    let bad = lines.joined(separator: "\n")
    let paths = try (1...9).map { n in try dir.write("run-\(n).ndjson", n >= 6 ? bad : good) }
    let result = try Binary.run(["bisect", "--check"] + paths)
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.contains("probe 1/4: \(paths[4]) (run 5 of 9): good (no errors)\n"))
    #expect(result.stdout.contains("first bad run: \(paths[5]) (run 6 of 9); last good run: \(paths[4]) (run 5)\n"))
    #expect(result.stdout.contains("\nfindings in \(paths[5]):\n\(paths[5]):31:"))
    #expect(result.stdout.hasSuffix("1 hunk: 1 missing; A 81 events, B 80 events\n"))
    // Without --check the broken run cannot be compared.
    let plain = try Binary.run(["bisect"] + paths)
    #expect(plain.status == 2, "\(plain)")
  }

  @Test func anUnreadableRunExitsTwo() throws {
    let dir = try TemporaryDirectory()
    let result = try Binary.run(["bisect", Self.series[0], dir.file("missing.ndjson"), Self.series[1]])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("missing.ndjson: cannot open: No such file or directory\n"))
  }

  @Test func matchByClassAppliesToEveryProbe() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let paths = try (0..<6).map { i in
      var records = base.renamingControllers { ControllerID("\($0.rawValue)-build\(i)") }
      if i >= 3 { records = records.duplicating(seq: 28) }
      return try DiffCLITests.write(records, "run-\(i).ndjson", in: dir)
    }
    let byID = try Binary.run(["bisect", "--json"] + paths)
    let byIDObject = try #require(try JSONSerialization.jsonObject(with: Data(byID.stdout.utf8)) as? [String: Any])
    #expect((byIDObject["firstBad"] as? [String: Any])?["run"] as? Int == 2)
    let byClass = try Binary.run(["bisect", "--match", "class"] + paths)
    #expect(byClass.status == 1, "\(byClass)")
    #expect(byClass.stdout.contains("first bad run: \(paths[3]) (run 4 of 6)"))
    #expect(byClass.stdout.contains("+ B seq 29  lifecycle 1st NotesViewController willAppear\n"))
  }

  @Test func theGeneratorReproducesTheBundledSeries() throws {
    let dir = try TemporaryDirectory()
    setenv("SPATIAL_REPLAY", Binary.path, 1)
    let status = system("sh '\(Self.root)/Journals/bisect/generate.sh' '\(dir.path)' >/dev/null 2>&1")
    #expect(status == 0)
    for n in 1...12 {
      let made = try dir.read(dir.file("build-" + (n < 10 ? "0" : "") + "\(n).ndjson"))
      let bundled = try dir.read(Self.build(n))
      #expect(made == bundled, "build \(n) differs from its generator's output")
    }
  }

  @Test func checkFindsTheModalLeakFromBuild08On() throws {
    let clean = try Binary.run(["check"] + Self.series.prefix(7))
    #expect(clean.status == 0, "\(clean)")
    for path in Self.series.dropFirst(7) {
      let leaking = try Binary.run(["check", path])
      #expect(leaking.status == 1, "\(leaking)")
      #expect(leaking.stdout.contains("[modal-leak]"))
    }
    let bisect = try Binary.run(["bisect", "--check"] + Self.series)
    #expect(bisect.status == 1, "\(bisect)")
    #expect(bisect.stdout.contains("probe 2/4: \(Self.series[9]) (run 10 of 12): bad (1 error)\n"))
    #expect(bisect.stdout.contains("first bad run: \(Self.series[7]) (run 8 of 12)"))
    #expect(
      bisect.stdout.contains(
        "\nfindings in \(Self.series[7]):\n\(Self.series[7]):40: error: modal compose (presented by "))
  }

  // MARK: Ids that count instances, and builds numbered in their names

  /// The fixture as build `n` records it, with ids counted as the recording
  /// guide's sample counts them and `build` in the header.
  static func counted(_ records: [Record], build n: Int) -> [Record] {
    records.countingInstances().replacing(
      seq: 0, with: .session(SessionHeader(session: "S\(n)", app: "Dicto", build: "2.\(n)")))
  }

  /// Eight builds: 1 to 3 good; 4 and 5 allocate one more controller early
  /// (never shown), which renumbers every later id; 6 to 8 also call one
  /// didAppear twice, later on.
  @Test func renumberedIdsAreNotBlamedTheRealBugIs() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    // seq 43: settings' didAppear, after the pan.
    let doubled = base.duplicating(seq: 43)
    let paths = try (1...8).map { n in
      let records: [Record]
      switch n {
      case 1...3: records = base
      case 4...5: records = base.allocatingEarly("PrefetchViewController")
      default: records = doubled.allocatingEarly("PrefetchViewController")
      }
      return try DiffCLITests.write(Self.counted(records, build: n), "build-\(n).ndjson", in: dir)
    }
    let result = try Binary.run(["bisect"] + paths)
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr == "")
    #expect(result.stdout.contains("first bad run: \(paths[5]) (run 6 of 8); last good run: \(paths[4]) (run 5)\n"))
    #expect(
      result.stdout.contains(
        "compared: lifecycle, move, modal, dealloc, link, unlink; controllers matched by class and order of "
          + "allocation (auto: the ids of both runs are instance counters or addresses)\n"))
    #expect(result.stdout.contains("+ B seq 45  lifecycle 1st SettingsViewController didAppear\n"))
    #expect(result.stdout.hasSuffix("1 hunk: 1 duplicated; A 42 events, B 43 events\n"))
    // Matched by id, the harmless build that renumbers is blamed.
    let byID = try Binary.run(["bisect", "--match", "id"] + paths)
    #expect(byID.stdout.contains("first bad run: \(paths[3]) (run 4 of 8); last good run: \(paths[2]) (run 3)\n"))
  }

  /// `build-1` … `build-10` as a shell's glob lists them: `build-1 build-10 build-2 …`.
  @Test func runsNumberedInTheirNamesAreTakenInBuildOrder() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    var paths = try (1...10).map { n in
      let records = n >= 7 ? base.duplicating(seq: 28) : base
      return try DiffCLITests.write(Self.counted(records, build: n), "build-\(n).ndjson", in: dir)
    }
    let inBuildOrder = paths
    paths.sort()
    #expect(
      paths.map { $0.dropFirst(dir.path.count + 1) }.prefix(3) == [
        "build-1.ndjson", "build-10.ndjson", "build-2.ndjson",
      ])
    let result = try Binary.run(["bisect"] + paths)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr
        == "bisect: runs taken in build order (\(inBuildOrder[0]) … \(inBuildOrder[9])), not the order given "
        + "(--keep-order keeps it)\n")
    let b = inBuildOrder
    #expect(
      result.stdout.hasPrefix(
        """
        bisect: 10 runs, \(b[0]) is good; looking for the first that differs from it (at most 4 probes)
        probe 1/4: \(b[5]) (run 6 of 10): good (identical to \(b[0]))
        probe 2/4: \(b[7]) (run 8 of 10): bad (differs from \(b[0]) after seq 28)
        probe 3/4: \(b[6]) (run 7 of 10): bad (differs from \(b[0]) after seq 28)
        first bad run: \(b[6]) (run 7 of 10); last good run: \(b[5]) (run 6)

        """))
    let json = try Binary.run(["bisect", "--json"] + paths)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["runs"] as? [String] == inBuildOrder)
    #expect(object["order"] as? String == "build")
    #expect((object["firstBad"] as? [String: Any])?["file"] as? String == b[6])

    // --keep-order: the order given, and a warning that the headers' builds disagree with it.
    let kept = try Binary.run(["bisect", "--keep-order"] + paths)
    #expect(kept.stdout.hasPrefix("bisect: 10 runs, \(paths[0]) is good;"), "\(kept)")
    #expect(
      kept.stderr
        == "spatial-replay: warning: the journals' headers put the builds in another order: "
        + "\(b[9]) is build '2.10', \(b[1]) after it is build '2.2'; bisect assumes the runs are in build order\n")
    let keptJSON = try Binary.run(["bisect", "--json", "--keep-order"] + paths)
    let keptObject = try #require(
      try JSONSerialization.jsonObject(with: Data(keptJSON.stdout.utf8)) as? [String: Any])
    #expect(keptObject["runs"] as? [String] == paths)
    #expect(keptObject["order"] as? String == "given")
  }
}
