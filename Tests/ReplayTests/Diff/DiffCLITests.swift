import Foundation
import Journal
import Testing

@testable import TestSupport

/// `spatial-replay diff`, run as a process: output, exit status, options.
@Suite struct DiffCLITests {
  /// Writes the fixture (possibly edited) as a journal file.
  static func write(_ records: [Record], _ name: String, in dir: TemporaryDirectory) throws -> String {
    try dir.write(name, records.map { $0.ndjson + "\n" }.joined())
  }

  @Test func aJournalAgainstItselfExitsZero() throws {
    let dir = try TemporaryDirectory()
    let a = try Self.write(try DiffFixture.base(), "a.ndjson", in: dir)
    let result = try Binary.run(["diff", a, a])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasSuffix("\nidentical: A 42 events, B 42 events\n"))
    #expect(result.stderr == "")
  }

  @Test func differencesExitOneWithTheReport() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    let b = try Self.write(base.duplicating(seq: 28), "b.ndjson", in: dir)
    let result = try Binary.run(["diff", "--context", "1", a, b])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout == """
        A: \(a) (42 events compared)
        B: \(b) (43 events compared)
        compared: lifecycle, move, modal, dealloc, link, unlink; controllers matched by id (auto: both runs name their controllers)

        first divergence: A none, after seq 28 (line 29); B seq 29 (line 30)
          in move: A seq 26: compose → notes (up, programmatic, animated)
                   B seq 26: compose → notes (up, programmatic, animated)
          last matching events:
            A seq 28, B seq 28  lifecycle notes willAppear

        hunk 1 of 1, duplicated in B: A none, after seq 28 (line 29); B seq 29 (line 30)
          + B seq 29  lifecycle notes willAppear

        1 hunk: 1 duplicated; A 42 events, B 43 events

        """)
    let quiet = try Binary.run(["diff", "-q", a, b])
    #expect(quiet.status == 1)
    #expect(quiet.stdout == "")
  }

  @Test func jsonIsOneDocument() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    let b = try Self.write(base.removing(seq: 31), "b.ndjson", in: dir)
    let result = try Binary.run(["diff", "--json", a, b])
    #expect(result.status == 1, "\(result)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((object["summary"] as? [String: Int])?["missing"] == 1)
    #expect((object["b"] as? [String: Any])?["file"] as? String == b)
  }

  @Test func matchByClassAndStandardInput() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    let renamed = base.renamingControllers(DiffMatchingTests.address).map { $0.ndjson + "\n" }.joined()
    let byID = try Binary.run(["diff", "-q", a, "-"], stdin: renamed)
    #expect(byID.status == 1, "\(byID)")
    let byClass = try Binary.run(["diff", "--match", "class", a, "-"], stdin: renamed)
    #expect(byClass.status == 0, "\(byClass)")
    #expect(byClass.stdout.contains("B: <stdin> (42 events compared)\n"))
    #expect(byClass.stdout.contains("controllers matched by class and order of allocation\n"))
  }

  /// Ids counted over the run's allocations (`HomeViewController#1`), and a
  /// build B that allocates one more controller first: by default the diff
  /// shows that controller's events only, not a shift of every id.
  @Test func instanceCountersAreMatchedByClassByDefault() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base.countingInstances(), "a.ndjson", in: dir)
    let splash = base.allocatingEarly(
      "SplashViewController",
      then: [.lifecycle(controller: "splash", callback: .didLoad), .dealloc(controller: "splash")])
    let b = try Self.write(splash.countingInstances(), "b.ndjson", in: dir)
    let result = try Binary.run(["diff", a, b])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout.contains(
        """
        compared: lifecycle, move, modal, dealloc, link, unlink; controllers matched by class and order of allocation (auto: the ids of both runs are instance counters or addresses)

        first divergence: A none, before seq 5 (line 6); B seq 2 (line 3)
        """))
    #expect(
      result.stdout.hasSuffix(
        """
        hunk 1 of 1, extra: A none, before seq 5 (line 6); B 2 events, seq 2–3 (lines 3–4)
          + B seq 2  lifecycle 1st SplashViewController didLoad
          + B seq 3  dealloc 1st SplashViewController

        1 hunk: 1 extra; A 42 events, B 44 events

        """))
    let json = try Binary.run(["diff", "--json", a, b])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["match"] as? String == "class")
    #expect(object["matchRequested"] as? String == "auto")
    let census = try #require(object["idCensus"] as? [String: [String: Int]])
    #expect(census["b"] == ["allocated": 5, "counters": 5, "addresses": 0])
    // Asked for by id, every later id has shifted.
    let byID = try Binary.run(["diff", "--json", "--match", "id", a, b])
    let byIDObject = try #require(try JSONSerialization.jsonObject(with: Data(byID.stdout.utf8)) as? [String: Any])
    #expect(byIDObject["match"] as? String == "id")
    #expect(byIDObject["matchRequested"] as? String == "id")
    #expect(byIDObject["idCensus"] == nil)
    let hunks = try #require(byIDObject["hunks"] as? [[String: Any]])
    #expect(hunks.reduce(0) { $0 + (($1["b"] as? [String: Any])?["count"] as? Int ?? 0) } == 44)
  }

  @Test func includeAndExclude() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    let pan = Pan(controller: "home", direction: .right, touches: 1, distance: 99, velocity: 10, outcome: .committed)
    let b = try Self.write(base.replacing(seq: 38, with: .pan(pan)).duplicating(seq: 28), "b.ndjson", in: dir)
    #expect(try Binary.run(["diff", "-q", "--exclude", "lifecycle", a, b]).status == 0)
    let withPan = try Binary.run(["diff", "--exclude", "lifecycle", "--include", "pan", a, b])
    #expect(withPan.status == 1, "\(withPan)")
    #expect(withPan.stdout.contains("1 hunk: 1 changed;"))
    #expect(
      withPan.stdout.contains(
        "compared: move, modal, dealloc, link, unlink, pan; controllers matched by id (auto: both runs name their controllers)\n"
      ))
  }

  @Test func unreadableInputExitsTwoOr125ForGitBisect() throws {
    let dir = try TemporaryDirectory()
    let a = try Self.write(try DiffFixture.base(), "a.ndjson", in: dir)
    let missing = dir.file("missing.ndjson")
    let plain = try Binary.run(["diff", a, missing])
    #expect(plain.status == 2, "\(plain)")
    #expect(plain.stderr == "spatial-replay: error: \(missing): cannot open: No such file or directory\n")
    #expect(plain.stdout == "")
    let bisect = try Binary.run(["diff", "--git-bisect", a, missing])
    #expect(bisect.status == 125, "\(bisect)")
  }

  @Test func journalErrorsMakeARunUnusableUnlessLenient() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    var lines = base.map(\.ndjson)
    lines[20] = "{not json"
    let b = try dir.write("b.ndjson", lines.map { $0 + "\n" }.joined())
    let strict = try Binary.run(["diff", a, b])
    #expect(strict.status == 2, "\(strict)")
    #expect(strict.stdout == "")
    #expect(strict.stderr.hasPrefix("\(b):21:2: error: "))
    #expect(
      strict.stderr.hasSuffix(
        "spatial-replay: error: \(b): unusable for comparing: 1 journal error "
          + "(--lenient compares the events that were read)\n"))
    #expect(try Binary.run(["diff", "--git-bisect", a, b]).status == 125)
    let lenient = try Binary.run(["diff", "--lenient", a, b])
    #expect(lenient.status == 1, "\(lenient)")
    #expect(lenient.stdout.contains("missing: A seq 20 (line 21)"))
  }

  @Test func warningsAreReportedButDoNotStopTheComparison() throws {
    let dir = try TemporaryDirectory()
    let base = try DiffFixture.base()
    let a = try Self.write(base, "a.ndjson", in: dir)
    let lines = base.map(\.ndjson)
    let b = try dir.write("b.ndjson", lines.joined(separator: "\n") + "\n{\"seq\":49,\"ti")
    let result = try Binary.run(["diff", a, b])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("\(b):50: warning: "))
    #expect(result.stderr.contains("[torn-tail]"))
  }

  @Test(arguments: [
    (["diff", "one.ndjson"], "diff takes two journals A and B, got 1"),
    (["diff", "-", "-"], "only one of A and B can be '-'"),
    (["diff", "--include", "lifecyle", "a", "b"], "--include: unknown type 'lifecyle' (did you mean lifecycle?)"),
    (["diff", "--include", "session", "a", "b"], "--include session: the header is never compared"),
    (["diff", "--match", "name", "a", "b"], "--match takes one of auto, id, class, got 'name'"),
    (["diff", "--context", "-1", "a", "b"], "--context takes a whole number ≥ 0, got '-1'"),
  ])
  func usageErrorsExit64(arguments: [String], message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.hasPrefix("spatial-replay: error: \(message)\n"), "\(result)")
  }

  @Test func helpHasExamplesAndExitCodes() throws {
    let result = try Binary.run(["diff", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("exit status: 0 identical, 1 different, 2 unreadable or unusable input"))
    #expect(result.stdout.contains("git bisect run"))
  }
}
