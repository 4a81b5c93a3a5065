import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the `gzip` command is installed (it is on every Debian and macOS system).
private let gzipAvailable = system("command -v gzip >/dev/null 2>&1") == 0

/// Journals compressed by the real `gzip` read as the plain ones: the same
/// findings on the same lines, from a file and from standard input.
@Suite(.enabled(if: gzipAvailable, "needs the gzip command"))
struct GzipInputTests {
  /// A journal whose reading finds things: a seq gap, a blank line, a malformed line, a torn tail.
  static let damaged: [UInt8] = {
    var text = FuzzCorpus.journals.first(where: { $0.name == "notes.legacy.ndjson" })?.bytes ?? []
    var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    lines.remove(at: 30)
    lines.insert([], at: 50)
    lines.insert(Array(#"{"seq":"#.utf8), at: 70)
    text = Array(lines.joined(separator: [0x0A]))
    return text + Array(#"{"seq":999,"time":"2026"#.utf8)
  }()

  /// Compresses `plain` with `gzip -c` into `name` (optionally as two members, as `cat a.gz b.gz` makes).
  static func compress(_ plain: String, into name: String, members: Int = 1) throws {
    let command =
      members == 1
      ? "gzip -c < '\(plain)' > '\(name)'"
      : "head -c 5000 '\(plain)' | gzip -c > '\(name)' && tail -c +5001 '\(plain)' | gzip -c >> '\(name)'"
    try #require(system(command) == 0, "\(command)")
  }

  static let cases: [(name: String, bytes: [UInt8])] =
    FuzzCorpus.journals.filter { ["notes.legacy.ndjson", "demo.intended.ndjson"].contains($0.name) }
    + [("damaged.ndjson", damaged)]

  @Test(arguments: cases.map(\.name))
  func checkReadsGzipFromAFileAndFromStandardInputWithTheSameLines(_ name: String) throws {
    let directory = try TemporaryDirectory()
    let bytes = try #require(Self.cases.first(where: { $0.name == name })?.bytes)
    let plain = try directory.write(name, bytes)
    let compressed = plain + ".gz"
    try Self.compress(plain, into: compressed)
    let unnamed = directory.file("journal.bin")
    try Self.compress(plain, into: unnamed, members: 2)

    let expected = try Subprocess.run(["check", plain])
    // Clean, lifecycle findings, format errors.
    let status: Int32 = ["demo.intended.ndjson": 0, "notes.legacy.ndjson": 1, "damaged.ndjson": 2][name] ?? -1
    #expect(expected.exitStatus == status, "\(expected)")
    let gzBytes = try #require(readWholeFile(compressed))
    for (label, outcome, shownAs) in [
      ("file", try Subprocess.run(["check", compressed]), compressed),
      ("stdin", try Subprocess.run(["check", "-"], stdin: gzBytes), "<stdin>"),
      ("two members, no .gz name", try Subprocess.run(["check", unnamed]), unnamed),
    ] {
      #expect(outcome.exitStatus == expected.exitStatus, "\(label): \(outcome)")
      #expect(
        outcome.stdoutText.replacing(shownAs + ":", with: plain + ":") == expected.stdoutText,
        "\(label): \(outcome)")
      #expect(outcome.stderrText == expected.stderrText, "\(label): \(outcome)")
    }
  }

  @Test func catAndStatsReadGzipToo() throws {
    let directory = try TemporaryDirectory()
    let source = try #require(FuzzCorpus.journals.first(where: { $0.name == "notes.intended.ndjson" }))
    let plain = try directory.write(source.name, source.bytes)
    try Self.compress(plain, into: plain + ".gz")
    let cat = try Subprocess.run(["cat", plain + ".gz"])
    #expect(cat.exitStatus == 0 && cat.stdout == source.bytes, "\(cat)")
    let stats = try Subprocess.run(["stats", "--json", plain])
    let statsGz = try Subprocess.run(["stats", "--json", plain + ".gz"])
    #expect(statsGz.exitStatus == 0 && statsGz.stdoutText.replacing(".gz", with: "") == stats.stdoutText)
  }

  @Test func aTruncatedGzipJournalIsAnErrorNamingTheFile() throws {
    let directory = try TemporaryDirectory()
    let source = try #require(FuzzCorpus.journals.first(where: { $0.name == "notes.intended.ndjson" }))
    let plain = try directory.write(source.name, source.bytes)
    try Self.compress(plain, into: plain + ".gz")
    let gzBytes = try #require(readWholeFile(plain + ".gz"))
    let cut = try directory.write("cut.ndjson.gz", Array(gzBytes.prefix(gzBytes.count / 2)))
    let outcome = try Subprocess.run(["check", cut])
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(
      outcome.stderrText.hasSuffix(
        "\(cut): cannot read: the gzip data is truncated (it ends inside the compressed stream)\n"), "\(outcome)")
  }

  @Test func tailRefusesAGzipJournalWithAReason() throws {
    let directory = try TemporaryDirectory()
    let source = try #require(FuzzCorpus.journals.first(where: { $0.name == "notes.intended.ndjson" }))
    let plain = try directory.write(source.name, source.bytes)
    try Self.compress(plain, into: plain + ".gz")
    let outcome = try Subprocess.run(["tail", plain + ".gz"])
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(outcome.stderrText.contains("is gzip-compressed; tail follows plain journals"), "\(outcome)")
  }
}
