import Foundation
import Journal
import Projection
import Rendering
import Stepper
import Testing

@testable import TestSupport

/// `spatial-replay step` without a terminal: keys from `--keys` or from
/// standard input, a frame printed after each, and its errors.
@Suite struct StepCLITests {
  /// The fixture journals in files.
  static func files() throws -> (TemporaryDirectory, intended: String, legacy: String) {
    let directory = try TemporaryDirectory()
    let intended = try directory.write("intended.ndjson", StepFixture.text(.intended))
    let legacy = try directory.write("legacy.ndjson", StepFixture.text(.legacy))
    return (directory, intended, legacy)
  }

  /// What the core renders for these keys, named as the command names the file.
  static func transcript(_ stepper: Stepper, _ keys: String, size: (Int, Int) = (80, 24)) -> String {
    var driver = StepDriver(stepper, size: size)
    driver.press(keys)
    return driver.transcript
  }

  /// The number of `--- frame N (KEY) ---` lines.
  static func frameCount(_ output: String) -> Int {
    output.split(separator: "\n").filter { $0.hasPrefix("--- frame ") }.count
  }

  @Test func keysPrintTheFramesTheCoreRenders() throws {
    let (directory, _, legacy) = try Self.files()
    defer { _ = directory }
    let keys = "l ] ] f :30 /compose n ?pan H Esc G PgUp Right"
    let result = try Binary.run(["step", "--keys", keys, legacy])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let stepper = Stepper(journal: StepperJournal(name: legacy, records: StepFixture.records(.legacy)))
    #expect(result.stdout == Self.transcript(stepper, keys))
    #expect(result.stdout.hasPrefix("--- frame 0 (start) ---\n"))
    #expect(result.stdout.contains("--- frame 13 (Right) ---\n"))
  }

  /// At 100×30 the map has three rows of boxes: the focus with the rows above and below
  /// it; a link to a box that is cropped ends in an arrow on the frame, never in a
  /// junction with nothing beyond it (issue 23: a stray `┴` over a cropped neighbour).
  @Test(arguments: ["notes.intended", "notes.legacy", "demo.intended", "cycle.legacy"])
  func aCroppedMapShowsTheNeighboursAndArrowsForWhatIsOutOfView(journal: String) throws {
    let result = try Binary.run(["step", "--size", "100x30", "--keys", "G", Repository.journals + "/\(journal).ndjson"])
    #expect(result.status == 0)
    let frame = result.stdout.components(separatedBy: "--- frame 1 (G) ---\n")[1]
    let lines = frame.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
    let map = Array(lines[1..<12])
    if journal.hasPrefix("notes") {
      // The focus, list, has search above it.
      #expect(map.contains { String($0).contains("search") }, "\(map.map { String($0) })")
    }
    // Every junction that leads up has a line above it, every one that leads down a line
    // below it (or the next row's box), inside the map.
    for (row, line) in map.enumerated() {
      for (column, glyph) in line.enumerated() where "┴╧╨╩".contains(glyph) || "┬╤╥╦".contains(glyph) {
        let up = "┴╧╨╩".contains(glyph)
        let neighbour = up ? row - 1 : row + 1
        let next: Character? =
          map.indices.contains(neighbour) && map[neighbour].indices.contains(column)
          ? map[neighbour][column] : nil
        #expect(
          next.map { "│║?".contains($0) } == true,
          "\(journal): '\(glyph)' at row \(row), column \(column) leads nowhere:\n\(map.map { String($0) }.joined(separator: "\n"))"
        )
      }
    }
  }

  @Test func keysFromStandardInputSeveralPerLine() throws {
    let (directory, intended, _) = try Self.files()
    defer { _ = directory }
    let piped = try Binary.run(["step", "--size", "100x30", intended], stdin: "l l\n]\n\n:12 PgDn\n")
    #expect(piped.status == 0)
    let given = try Binary.run(["step", "--size", "100x30", "--keys", "l l ] :12 PgDn", intended])
    #expect(piped.stdout == given.stdout)
    let frames = piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter {
      $0.hasPrefix("--- frame ")
    }
    #expect(
      frames == [
        "--- frame 0 (start) ---", "--- frame 1 (l) ---", "--- frame 2 (l) ---",
        "--- frame 3 (]) ---", "--- frame 4 (:12) ---", "--- frame 5 (PgDn) ---",
      ])
    // 6 frames of 30 lines and their separators.
    #expect(piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 6 * 31 + 1)
    #expect(piped.stdout.contains("seq 62 / 68 · move 8 / 8"))
  }

  @Test func qEndsTheKeys() throws {
    let (directory, intended, _) = try Self.files()
    defer { _ = directory }
    let given = try Binary.run(["step", "--keys", "l q l l", intended])
    #expect(given.status == 0)
    #expect(Self.frameCount(given.stdout) == 2)
    let piped = try Binary.run(["step", intended], stdin: "l\nq\nl l\n")
    #expect(piped.status == 0)
    #expect(piped.stdout == given.stdout)
  }

  @Test func twoJournalsSideBySide() throws {
    let (directory, intended, legacy) = try Self.files()
    defer { _ = directory }
    let result = try Binary.run(["step", "--keys", "d d n G", intended, legacy])
    #expect(result.status == 0)
    let comparison = StepperComparison(
      StepperJournal(name: intended, records: StepFixture.records(.intended)),
      StepperJournal(name: legacy, records: StepFixture.records(.legacy)))
    #expect(result.stdout == Self.transcript(Stepper(comparison: comparison), "d d n G"))
    #expect(result.stdout.contains("divergence 3 of 10 · "))
  }

  /// `step A B` lines the runs up as `diff` does: ids that count instances,
  /// renumbered by one more controller allocated early, match by class by default.
  @Test func twoJournalsAreMatchedAsDiffMatchesThem() throws {
    let directory = try TemporaryDirectory()
    let base = try DiffFixture.base()
    func write(_ records: [Record], _ name: String) throws -> String {
      try directory.write(name, records.map { $0.ndjson + "\n" }.joined())
    }
    let a = try write(base.countingInstances(), "a.ndjson")
    let b = try write(base.allocatingEarly("PrefetchViewController").countingInstances(), "b.ndjson")
    for (options, identical) in [([], true), (["--match", "class"], true), (["--match", "id"], false)] {
      let result = try Binary.run(["step", "--keys", "q"] + options + [a, b])
      #expect(result.status == 0, "\(result)")
      #expect(result.stdout.contains("\nno divergences · A seq ") == identical, "\(options): \(result)")
    }
  }

  @Test func aJournalWithErrorsOpensWithItsFindings() throws {
    let directory = try TemporaryDirectory()
    var lines = StepFixture.text(.intended).split(separator: "\n").map(String.init)
    lines[20] = "{\"seq\":20,\"time\":\"oops\""
    lines.insert("", at: 30)
    let path = try directory.write("broken.ndjson", lines.joined(separator: "\n") + "\n")
    // Findings: line 21 (malformed), #22 (the checker: inbox's didAppear stands for the lost willAppear), line 31 (blank).
    let result = try Binary.run(["step", "--keys", "f f f f", path])
    #expect(result.status == 2, "a journal with format errors opens, and the status says it")
    #expect(result.stderr == "")
    // The reader's findings (no seq: shown by line) among the checker's.
    #expect(result.stdout.contains("▶ line 21 malformed: "))
    #expect(result.stdout.contains("▶ line 31 blank-line: "))
    // seq 20 is missing: the status line gives each event's place too.
    #expect(result.stdout.contains("seq 21 · event 21 / 67 · move 1 / 8 · findings 1 / 3"))
    #expect(result.stdout.hasSuffix("seq 30 · event 30 / 67 · move 2 / 8 · findings 3 / 3\n"))
  }

  @Test func standardInputJournalNeedsKeys() throws {
    let text = StepFixture.text(.intended)
    let refused = try Binary.run(["step", "-"], stdin: text)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("with a journal on standard input, give the keys with --keys"))
    let read = try Binary.run(["step", "--keys", "G", "-"], stdin: text)
    #expect(read.status == 0)
    #expect(read.stdout.hasPrefix("--- frame 0 (start) ---\n<stdin> · focus none"))
    #expect(read.stdout.contains("seq 67 / 68"))
  }

  struct Refusal: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    Refusal(arguments: ["step"], status: 64, message: "step takes one journal FILE, or two journals A B, got 0"),
    Refusal(arguments: ["step", "a", "b", "c"], status: 64, message: "got 3"),
    Refusal(arguments: ["step", "-", "-"], status: 64, message: "'-' (standard input) can be read only once"),
    Refusal(arguments: ["step", "--keys", "l zz", "x"], status: 64, message: "unknown key 'zz'"),
    Refusal(arguments: ["step", "--size", "80", "x"], status: 64, message: "--size takes WIDTHxHEIGHT"),
    Refusal(arguments: ["step", "--size", "5x5", "x"], status: 64, message: "at least 20x1"),
    Refusal(arguments: ["step", "--model=future", "x"], status: 64, message: "--model takes one of"),
    Refusal(
      arguments: ["step", "--keys", "q", "/no/such/journal.ndjson"], status: 2, message: "/no/such/journal.ndjson"),
  ])
  func refusals(_ refusal: Refusal) throws {
    let result = try Binary.run(refusal.arguments)
    #expect(result.status == refusal.status)
    #expect(result.stderr.contains(refusal.message), "\(result.stderr)")
    #expect(result.stdout == "")
  }

  @Test func anUnknownKeyOnStandardInputStopsThere() throws {
    let (directory, intended, _) = try Self.files()
    defer { _ = directory }
    let result = try Binary.run(["step", intended], stdin: "l\nl bogus l\n")
    #expect(result.status == 64)
    #expect(result.stderr.contains("line 2: unknown key 'bogus'"))
    #expect(Self.frameCount(result.stdout) == 2)
  }

  @Test func helpExplainsTheKeysAndTheQuestionMark() throws {
    let result = try Binary.run(["step", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("usage: spatial-replay step [options] FILE"))
    #expect(result.stdout.contains("'?' opens the backward search, so the help is H, F1,"))
    #expect(result.stdout.contains("--- frame N (KEY) ---"))
    let overview = try Binary.run(["--help"])
    #expect(overview.stdout.contains("  step "))
  }

  @Test func aModelComparisonAddsItsFindings() throws {
    let (directory, _, legacy) = try Self.files()
    defer { _ = directory }
    let plain = try Binary.run(["step", "--keys", "G", legacy])
    let model = try Binary.run(["step", "--model", "intended", "--keys", "G", legacy])
    #expect(plain.status == 0 && model.status == 0)
    var check = JournalCheck(model: .intended)
    var findings: [CheckFinding] = []
    let reader = try JournalReader(path: legacy)
    while let item = reader.next() { check.consume(item, into: &findings) }
    check.finish(into: &findings)
    let divergences = findings.filter { $0.rule == .check(.modelDivergence) }.count
    try #require(divergences > 0)
    #expect(plain.stdout.hasSuffix("seq 62 / 63 · move 8 / 8 · findings 20 / 20\n"))
    #expect(model.stdout.hasSuffix("seq 62 / 63 · move 8 / 8 · findings \(findings.count) / \(findings.count)\n"))
    #expect(findings.count == 20 + divergences)
  }
}
