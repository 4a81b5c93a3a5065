import Journal
import Testing

@testable import TestSupport

/// `spatial-replay check`, run as a process: exact output and exit status.
@Suite struct CLICheckTests {
  /// A newer format version is read as version 1, with a word: a warning on the header's line.
  @Test func aHeaderOfANewerFormatVersionIsAWarning() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write(
      "v2.ndjson", #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":2,"session":"S"}"# + "\n")
    let result = try Binary.run(["check", path])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stdout == """
        \(path):1: warning: the header declares format version 2: a newer format than this version of spatial-replay \
        knows; it is read as version 1 (types and keys it does not know are kept as they are) [format-version]
        \(path): 1 event, 0 errors, 1 warning (format-version 1)

        """)
    #expect(try Binary.run(["check", "--strict", path]).status == 2)
    let unselected = try Binary.run(["check", "--no-rule", "format-version", path])
    #expect(unselected.stdout == "\(path): 1 event, 0 errors, 0 warnings\n", "\(unselected)")
  }

  @Test func cleanJournalExitsZeroWithASummary() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write(
      "j.ndjson",
      JournalText.lines([JournalText.header(), JournalText.alloc(1, "home"), JournalText.alloc(2, "notes")]))
    let result = try Binary.run(["check", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "\(path): 3 events, 0 errors, 0 warnings\n")
    #expect(result.stderr == "")
  }

  @Test func findingsArePrintedOnePerLineAndExitOne() throws {
    let dir = try TemporaryDirectory()
    let beforeValue = #"{"seq":4,"time":"2026-01-01T00:00:00.004000Z","type":"alloc","controller":"#
    let bad = beforeValue + #"17,"class":"X"}"#
    let column = beforeValue.utf8.count + 1
    let path = try dir.write(
      "j.ndjson",
      JournalText.header() + "\n" + JournalText.alloc(1, "home") + "\r\n" + JournalText.alloc(3, "notes") + "\n" + bad
        + "\n")
    let result = try Binary.run(["check", path])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(path):2: warning: line ends with \\r\\n instead of \\n [crlf]
        \(path):3: error: seq jumps from 1 to 3 (1 event missing) [seq-gap]
        \(path):4:\(column): error: expected a string for "controller", found 17 [malformed]
        \(path): 3 events, 2 errors, 1 warning (malformed 1, seq-gap 1, crlf 1)

        """)
    #expect(result.stderr == "")
  }

  @Test func warningsAloneExitZeroUnlessStrict() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines([JournalText.header(), "", JournalText.alloc(1, "home")]))
    let relaxed = try Binary.run(["check", path])
    #expect(relaxed.status == 0, "\(relaxed)")
    #expect(
      relaxed.stdout == """
        \(path):2: warning: blank line [blank-line]
        \(path): 2 events, 0 errors, 1 warning (blank-line 1)

        """)
    let strict = try Binary.run(["check", "--strict", path])
    #expect(strict.status == 2, "\(strict)")
    #expect(
      strict.stdout == """
        \(path):2: error: blank line [blank-line]
        \(path): 2 events, 1 error, 0 warnings (blank-line 1)

        """)
  }

  @Test func unreadableFileExitsTwo() throws {
    let dir = try TemporaryDirectory()
    let missing = dir.file("missing.ndjson")
    let result = try Binary.run(["check", missing])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout == "")
    #expect(result.stderr == "spatial-replay: error: \(missing): cannot open: No such file or directory\n")
    let directory = try Binary.run(["check", dir.path])
    #expect(directory.status == 2, "\(directory)")
    #expect(
      directory.stderr
        == "spatial-replay: error: \(dir.path): is a directory with no journal below it (*.ndjson, *.jsonl, or either gzipped)\n"
    )
  }

  @Test func severalFilesGetATotalAndTheWorstStatus() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("a.ndjson", JournalText.lines([JournalText.header(), JournalText.alloc(1, "home")]))
    let b = try dir.write("b.ndjson", JournalText.lines([JournalText.header(), JournalText.alloc(2, "home")]))
    let missing = dir.file("c.ndjson")
    let result = try Binary.run(["check", a, b, missing])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(a): 2 events, 0 errors, 0 warnings
        \(b):2: error: seq jumps from 0 to 2 (1 event missing) [seq-gap]
        \(b): 2 events, 1 error, 0 warnings (seq-gap 1)
        total: 3 files, 4 events, 1 error, 0 warnings (seq-gap 1), 1 unreadable

        """)
    let twoFiles = try Binary.run(["check", a, b])
    #expect(twoFiles.status == 2)
    #expect(twoFiles.stdout.hasSuffix("total: 2 files, 4 events, 1 error, 0 warnings (seq-gap 1)\n"))
  }

  @Test func jsonPrintsFindingsAndASummaryObject() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines([JournalText.header(), JournalText.alloc(2, "home")]))
    let result = try Binary.run(["check", "--json", path])
    #expect(result.status == 2, "\(result)")
    let offset = JournalText.header().utf8.count + 1
    #expect(
      result.stdout == """
        {"file":"\(path)","line":2,"seq":2,"severity":"error","rule":"seq-gap","message":"seq jumps from 0 to 2 (1 event missing)","offset":\(offset)}
        {"summary":true,"files":[{"file":"\(path)","events":2,"errors":1,"warnings":0,"formatErrors":1,"rules":{"seq-gap":1},"unreported":{}}],"events":2,"errors":1,"warnings":0,"formatErrors":1,"rules":{"seq-gap":1},"unreported":{},"unreadable":0,"omitted":0}

        """)
  }

  @Test func standardInputIsNamedStdin() throws {
    let result = try Binary.run(["check", "-"], stdin: JournalText.lines([JournalText.alloc(0, "home")]))
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        <stdin>:1: error: the journal does not start with a session header (the first event is "alloc" at seq 0) [no-header]
        <stdin>: 1 event, 1 error, 0 warnings (no-header 1)

        """)
  }

  @Test func journalTextIsEscapedBeforeItReachesTheTerminal() throws {
    let dir = try TemporaryDirectory()
    let evil = #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"x\u001b[2J\u202e"}"#
    let path = try dir.write("j.ndjson", JournalText.lines([JournalText.header(), evil]))
    let result = try Binary.run(["check", path])
    #expect(result.status == 0, "\(result)")
    #expect(!result.stdoutBytes.contains(0x1B))
    #expect(
      result.stdout.hasPrefix(
        #"\#(path):2: warning: unknown event type "x\u{1B}[2J\u{202E}" (kept as is; reported once per type) [unknown-type]"#
      ))
  }

  @Test func limitsComeFromTheCommandLine() throws {
    let dir = try TemporaryDirectory()
    let long = JournalText.mark(1, String(repeating: "x", count: 200))
    let path = try dir.write("j.ndjson", JournalText.lines([JournalText.header(), long, JournalText.mark(2, "y")]))
    let result = try Binary.run(["check", "--max-line-bytes", "150", path])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(path):2:151: error: line is longer than the limit of 150 bytes [framing]
        \(path): 2 events, 1 error, 0 warnings (framing 1)

        """)
  }

  @Test(arguments: [
    (["check"], "spatial-replay: error: check needs at least one FILE ('-' for standard input)\n"),
    (["check", "--bogus", "x"], "spatial-replay: error: unknown option --bogus\n"),
    (["check", "--max-depth", "0", "x"], "spatial-replay: error: --max-depth takes a whole number ≥ 1, got '0'\n"),
  ])
  func usageErrorsExitSixtyFour(arguments: [String], message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout == "")
    #expect(result.stderr == message + "usage: see 'spatial-replay check --help'\n")
  }

  @Test(arguments: ["check", "cat", "append"])
  func helpHasAUsageLineOptionsAndExamples(command: String) throws {
    let result = try Binary.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: spatial-replay \(command) "))
    #expect(result.stdout.contains("options:"))
    let examples = try #require(result.stdout.split(separator: "examples:\n").last)
    #expect(examples.split(separator: "\n").filter { $0.hasPrefix("  ") }.count >= 2)
  }
}
