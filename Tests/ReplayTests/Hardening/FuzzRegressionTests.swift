import Journal
import Testing

@testable import TestSupport

/// Inputs the fuzzers found that crashed a command, kept as fixed cases.
@Suite struct FuzzRegressionTests {
  /// A journal whose last line has the largest seq a line can hold.
  static let maximalSeq = JournalText.lines([
    JournalText.header(),
    #"{"seq":9223372036854775807,"time":"2026-01-01T00:00:00.001000Z","type":"mark","label":"last"}"#,
  ])

  /// `append` computed the next seq as last + 1 and trapped on overflow (SIGILL).
  @Test func appendRefusesAJournalWhoseLastSeqIsIntMax() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("max.ndjson", Self.maximalSeq)
    let outcome = try Subprocess.run(["append", path], stdin: Array(#"{"type":"mark","label":"x"}"#.utf8) + [0x0A])
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(
      outcome.stderrText
        == "spatial-replay: error: \(path): cannot append: the last seq 9223372036854775807 leaves no room for 1 more\n"
    )
    #expect(try directory.text(path) == Self.maximalSeq, "the journal is left as it was")
  }

  /// `step A B` numbered in-memory records seq + 1 and trapped on overflow; diff and bisect read the same runs.
  @Test(arguments: [
    ["step", "--keys", "G d q", "A", "B"], ["diff", "--lenient", "A", "B"], ["bisect", "--lenient", "A", "B"],
  ])
  func comparingAJournalWithSeqIntMaxEndsCleanly(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write("a.ndjson", JournalText.lines([JournalText.header(), JournalText.mark(1, "last")]))
    let b = try directory.write("b.ndjson", Self.maximalSeq)
    let outcome = try Subprocess.run(commandLine.map { $0 == "A" ? a : $0 == "B" ? b : $0 })
    #expect(outcome.endedCleanly, "\(outcome)")
  }
}
