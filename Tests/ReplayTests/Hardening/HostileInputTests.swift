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

/// Input made to hurt (docs/hardening.md, "Hostile input"): a few bytes of gzip
/// that inflate to millions of findings, a web page given as a journal, an
/// output that names an input, FIFOs. Every command answers in bounded memory
/// and bounded output, and never writes over what it reads.
@Suite(.serialized) struct HostileInputTests {
  /// Blank lines after the header in the gzip bomb: 1 million here (about 1 KB of gzip); the
  /// measurement of docs/hardening.md uses 50 million. At this size a command that kept
  /// each finding (some 800 bytes) would need about 800 MB, a command that printed each
  /// one would write 59 MB to stderr.
  static let blankLines = 1_000_000

  /// A valid journal of 144 events.
  static func notes() throws -> [UInt8] {
    try #require(TemporaryFiles.read(Repository.journals + "/notes.legacy.ndjson"))
  }

  /// A session header followed by `blankLines` empty lines, gzip-compressed, in `directory`.
  static func gzipBomb(in directory: TemporaryDirectory) throws -> String {
    let plain = directory.file("bomb.ndjson")
    let fd = open(plain, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    var bytes = Array((JournalText.header() + "\n").utf8)
    bytes += [UInt8](repeating: UInt8(ascii: "\n"), count: blankLines)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    try #require(written == bytes.count)
    try #require(system("gzip -9 '\(plain)'") == 0)
    return plain + ".gz"
  }

  @Test(.enabled(if: gzipAvailable, "needs the gzip command"))
  func millionsOfBlankLinesGiveAFewLinesOnStderrInBoundedMemory() throws {
    let directory = try TemporaryDirectory()
    let bomb = try Self.gzipBomb(in: directory)
    let more = "\(bomb): \((Self.blankLines - 1).grouped) more blank-line warnings like the one on line 2 not shown\n"
    let runs: [[String]] = [
      ["check", bomb], ["cat", bomb], ["log", bomb], ["map", bomb], ["at", bomb, "0"], ["stats", bomb],
      ["export", "--table", "events", "-o", directory.file("events.ndjson"), bomb],
      ["report", "-o", directory.file("report.html"), bomb],
    ]
    for arguments in runs {
      let outcome = try Subprocess.run(arguments, timeout: .seconds(600))
      #expect(outcome.exitStatus == 0, "warnings only: \(outcome)")
      #expect(outcome.stderr.count <= 4096, "\(outcome)")
      #expect(outcome.peakMemoryKiB > 0 && outcome.peakMemoryKiB < LimitsTests.streamingBudgetKiB, "\(outcome)")
      switch arguments[0] {
      case "check":
        #expect(outcome.stdoutText.hasPrefix("\(bomb):2: warning: blank line [blank-line]\n" + more), "\(outcome)")
      case "stats":
        #expect(outcome.stdoutText.contains("warnings: blank-line \(Self.blankLines)\n"), "\(outcome)")
      case "export":
        #expect(outcome.stderr.isEmpty, "export reports errors only: \(outcome)")
      default:
        #expect(outcome.stderrText == "\(bomb):2: warning: blank line [blank-line]\n" + more, "\(outcome)")
      }
    }
    unlink(directory.file("events.ndjson"))
    unlink(directory.file("report.html"))
  }

  /// `check --json` writes every finding, as it comes, in line order: none is held back or dropped.
  @Test func checkJSONWritesEveryFindingOfAFlood() throws {
    let directory = try TemporaryDirectory()
    let count = 30_000
    let path = try directory.write(
      "blank.ndjson", JournalText.header() + "\n" + String(repeating: "\n", count: count))
    let outcome = try Subprocess.run(["check", "--json", path])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.stdoutText.split(separator: "\n")
    #expect(lines.count == count + 1, "\(outcome)")
    #expect(
      lines.first
        == #"{"file":"\#(path)","line":2,"severity":"warning","rule":"blank-line","message":"blank line","offset":\#(JournalText.header().utf8.count + 1)}"#
    )
    // Every blank line, in order.
    var expected = 2
    for line in lines.dropLast() {
      guard line.contains(#""line":\#(expected),"#) else {
        Issue.record("expected line \(expected): \(line)")
        break
      }
      expected += 1
    }
    #expect(expected == count + 2)
    #expect(lines.last?.contains(#""warnings":\#(count)"#) == true, "\(lines.last ?? "")")
  }

  /// The commands that read a journal, given 20,000 lines of a web page, and what each prints last.
  static let readers: [[String]] = [
    ["check"], ["cat"], ["log"], ["map"], ["at", "FILE", "0"], ["stats"], ["export", "--table", "events"],
    ["report", "-o", "REPORT"], ["tail", "-n", "2"], ["diff", "FILE", "FILE"], ["step", "--keys", "q"], ["script"],
    ["shrink", "--rule", "modal-leak"],
  ]

  @Test func aWebPageGivesAtMostAHundredLinesOnStderrAndTheCountOfTheRest() throws {
    let directory = try TemporaryDirectory()
    var page = "<!DOCTYPE html>\n"
    for i in 1..<20_000 { page += "<p>paragraph \(i)</p>\n" }
    let path = try directory.write("page.html", page)
    let report = directory.file("page-report.html")
    for command in Self.readers {
      var arguments = command.map { $0 == "FILE" ? path : $0 == "REPORT" ? report : $0 }
      if !command.contains("FILE") { arguments.append(path) }
      let outcome = try Subprocess.run(arguments)
      #expect(outcome.exitStatus == 2, "\(outcome)")
      let lines = outcome.stderrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      #expect(lines.count <= 100, "\(outcome)")
      if ["cat", "log", "map", "export", "report"].contains(command[0]) {
        #expect(
          lines.last
            == "\(path): 19,981 more errors not shown (malformed 19,980, no-header 1; --max-errors 0 shows them all)",
          "\(outcome)")
        #expect(lines.count == 21, "\(outcome)")
      }
    }
    unlink(report)
    // --max-errors N shows N, 0 every one.
    let five = try Subprocess.run(["cat", "--max-errors", "5", path])
    #expect(five.stderrText.split(separator: "\n").count == 6, "\(five)")
    let all = try Subprocess.run(["log", "--max-errors", "0", path])
    #expect(all.stderrText.split(separator: "\n").count == 20_001, "\(all.stderr.count) bytes")
    #expect(all.exitStatus == 2)
  }

  /// How an output can name an input.
  struct Alias: CustomTestStringConvertible, Sendable {
    var testDescription: String
    /// Makes the output's path in `directory`, given the input's.
    var make: @Sendable (_ directory: String, _ input: String) -> String
  }

  static let aliases: [Alias] = [
    Alias(testDescription: "the same path") { _, input in input },
    Alias(testDescription: "the same file by another path") { directory, input in
      directory + "/./" + String(input.split(separator: "/").last!)
    },
    Alias(testDescription: "a symbolic link to it") { directory, input in
      let link = directory + "/link"
      symlink(input, link)
      return link
    },
    Alias(testDescription: "a hard link to it") { directory, input in
      let hard = directory + "/hard"
      link(input, hard)
      return hard
    },
  ]

  /// `report` (a journal or a fleet), `export`, `record` and `trace` with `-o` naming their input: refused (64), the input keeps its bytes.
  @Test(arguments: aliases)
  func anOutputThatIsAnInputIsRefused(_ alias: Alias) throws {
    let directory = try TemporaryDirectory()
    let journal = try directory.write("run.ndjson", try Self.notes())
    let script = try directory.write("run.scenario", "controller home Home\nroot home\n")
    for (arguments, input) in [
      (["report", journal], journal), (["export", "--table", "events", journal], journal),
      (["export", "--table", "events", "--format", "csv", directory.path], journal), (["record", script], script),
      (["trace", "--format", "chrome", journal], journal), (["report", directory.path], journal),
      (["script", journal], journal), (["shrink", "--rule", "modal-leak", journal], journal),
      (["shrink", "--rule", "modal-leak", script], script),
    ] {
      let before = try directory.read(input)
      let output = alias.make(directory.path, input)
      let outcome = try Subprocess.run(arguments + ["-o", output])
      #expect(outcome.exitStatus == 64, "\(outcome)")
      #expect(outcome.stderrText.hasPrefix("spatial-replay: error: the output "), "\(outcome)")
      #expect(outcome.stderrText.contains(" is an input"), "\(outcome)")
      #expect(try directory.read(input) == before, "\(arguments) -o \(output)")
      #expect(outcome.stdout.isEmpty)
      unlink(directory.path + "/link")
      unlink(directory.path + "/hard")
    }
  }

  /// A journal found below a folder given as input is an input too, and so is a
  /// file of the partitions `export --partition` would write.
  @Test func aFileBelowAnInputFolderIsAnInput() throws {
    let directory = try TemporaryDirectory()
    let folder = directory.file("fleet")
    let partition = folder + "/build=3.2%20%2841%29"
    try #require(mkdir(folder, 0o755) == 0 && mkdir(partition, 0o755) == 0)
    let journals = [folder + "/a.ndjson", partition + "/part.ndjson"]
    defer {
      for path in journals { unlink(path) }
      rmdir(partition)
      rmdir(folder)
    }
    let bytes = try Self.notes()
    for path in journals { try #require(TemporaryFiles.write(bytes, to: path)) }
    for arguments in [
      ["report", journals[0], "-o", journals[0]],
      ["export", "--table", "events", folder, "-o", journals[0]],
      ["export", "--table", "events", folder, "-o", journals[1]],
      ["export", "--table", "events", "--partition", "build", folder, "-o", folder],
    ] {
      let outcome = try Subprocess.run(arguments)
      #expect(outcome.exitStatus == 64, "\(outcome)")
      for path in journals { #expect(TemporaryFiles.read(path) == bytes, "\(arguments)") }
    }
  }

  /// `-o -` is standard output on every command that takes `-o`; no file named `-` appears.
  @Test func dashAsOutputIsStandardOutput() throws {
    let directory = try TemporaryDirectory()
    let journal = try directory.write("run.ndjson", try Self.notes())
    let script = try directory.write("run.scenario", "controller home Home\nroot home\n")
    for (arguments, start) in [
      (["report", journal], "<!DOCTYPE html>"), (["export", "--table", "sessions", journal], #"{"session":"#),
      (["record", script], #"{"seq":0,"#), (["simulate", "--events", "5"], #"{"seq":0,"#),
      (["trace", "--format", "otlp", journal], #"{"resourceSpans":"#),
      (["report", "--fleet", journal], "<!DOCTYPE html>"), (["script", journal], "# spatial-replay script"),
    ] {
      let outcome = try Subprocess.run(arguments + ["-o", "-"], directory: directory.path)
      #expect(outcome.exitStatus == 0, "\(outcome)")
      #expect(outcome.stdoutText.hasPrefix(start), "\(outcome)")
      #expect(access(directory.file("-"), F_OK) != 0, "\(arguments): a file named '-'")
    }
    let partitioned = try Subprocess.run(["export", "--table", "events", "--partition", "build", "-o", "-", journal])
    #expect(partitioned.exitStatus == 64, "\(partitioned)")
  }

  /// A FIFO is read as standard input is: `tail` prints its last lines, `report --since` refuses it.
  @Test func aFIFOIsReadAsStandardInput() throws {
    let directory = try TemporaryDirectory()
    let bytes = try Self.notes()
    let fifo = directory.file("events.fifo")
    try #require(mkfifo(fifo, 0o600) == 0)

    let fromStdin = try Subprocess.run(["tail", "-n", "2", "-"], stdin: bytes)
    #expect(fromStdin.exitStatus == 0, "\(fromStdin)")
    let tail = try Subprocess.start(["tail", "-n", "2", fifo])
    let writer = open(fifo, O_WRONLY | O_CLOEXEC)
    try #require(writer >= 0)
    let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    close(writer)
    try #require(written == bytes.count)
    let fromFIFO = try tail.finish(timeout: .seconds(60))
    #expect(fromFIFO.exitStatus == 0, "\(fromFIFO)")
    #expect(fromFIFO.stdout == fromStdin.stdout && !fromFIFO.stdout.isEmpty, "\(fromFIFO)")
    #expect(fromFIFO.stderrText == fromStdin.stderrText.replacing("<stdin>", with: fifo), "\(fromFIFO)")

    let since = ["--since", "2026-11-29T09:00:01Z"]
    let stdinReport = try Subprocess.run(["report", "-"] + since, stdin: bytes)
    #expect(stdinReport.exitStatus == 64, "\(stdinReport)")
    // Refused before the FIFO is opened: no writer is needed.
    let fifoReport = try Subprocess.run(["report", fifo] + since, timeout: .seconds(60))
    #expect(fifoReport.exitStatus == 64, "\(fifoReport)")
    #expect(fifoReport.stderrText.contains("FIFO"), "\(fifoReport)")
    let follow = try Subprocess.run(["tail", "-f", fifo], timeout: .seconds(60))
    #expect(follow.exitStatus == 64, "\(follow)")
    unlink(fifo)
  }
}
