import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#endif

/// The command line's edges: each case a bug found by trying the tool as a new
/// user would (issue "Trustworthy verdicts"), and the shared option model.
@Suite struct CommandLineTests {
  static var valid: String { CheckJournals.directory + "/notes.intended.ndjson" }

  /// The overview's line for export and `export --help` name every table (both lists were written by
  /// hand and missed paths).
  @Test func theHelpListsEveryExportTable() throws {
    let line = try #require(SpatialReplay.overview.split(separator: "\n").first { $0.hasPrefix("  export ") })
    let help = ExportCommand.help
    for table in Table.allCases {
      #expect(line.contains(table.rawValue), "the overview's export line misses \(table): \(line)")
      #expect(help.contains("\n  \(table.rawValue) "), "export --help's tables miss \(table)")
    }
  }

  @Test func aRuleSelectionNeverHidesAFormatError() throws {
    let directory = try TemporaryDirectory()
    let garbage = try directory.write("garbage.ndjson", "not a journal\n{\"seq\":\n")
    let noHeader = try directory.write(
      "no-header.ndjson", JournalText.lines([JournalText.alloc(0, "home"), JournalText.alloc(1, "notes")]))
    for path in [garbage, noHeader] {
      for selection in [["--rule", "modal-leak"], ["--no-rule", "malformed,no-header"]] {
        let result = try Binary.run(["check"] + selection + [path])
        #expect(result.status == 2, "\(selection) \(result)")
        #expect(result.stdout.contains("format error"), "\(result)")
      }
    }
    let result = try Binary.run(["check", "--rule", "modal-leak", garbage])
    #expect(
      result.stdout
        == "\(garbage): 0 events, 0 errors, 0 warnings; 3 format errors not reported by the rule selection "
        + "(malformed 2, no-header 1)\n", "\(result)")
  }

  @Test func anEmptyOrBlankJournalHasNoHeader() throws {
    let directory = try TemporaryDirectory()
    let empty = try directory.write("empty.ndjson", "")
    let blank = try directory.write("blank.ndjson", "\n\n")
    let result = try Binary.run(["check", empty, blank])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(empty):1: error: the journal is empty: it must start with a session header at seq 0 [no-header]
        \(empty): 0 events, 1 error, 0 warnings (no-header 1)
        \(blank):1: warning: blank line [blank-line]
        \(blank):2: error: the journal has no session header: none of its lines is an event [no-header]
        \(blank): 1 more blank-line warning like the one on line 1 not shown
        \(blank): 0 events, 1 error, 2 warnings (no-header 1, blank-line 2)
        total: 2 files, 0 events, 2 errors, 2 warnings (no-header 2, blank-line 2)

        """)
  }

  /// Warnings of two rules, interleaved, in a file and then another: each rule is shown once per
  /// file, its omissions in the order the rules were first seen, and the counts by rule are whole.
  @Test func interleavedWarningsOfTwoRulesAreEachShownOncePerFile() throws {
    let directory = try TemporaryDirectory()
    let marks = (1...6).map { JournalText.mark($0, "m\($0)") }
    // Line 1 the header; then a blank line before each mark and every other mark with \r\n.
    var text = JournalText.header() + "\n"
    for (k, mark) in marks.enumerated() { text += "\n" + mark + (k.isMultiple(of: 2) ? "\r\n" : "\n") }
    let a = try directory.write("a.ndjson", text)
    let b = try directory.write("b.ndjson", JournalText.header() + "\r\n\n\n")
    let result = try Binary.run(["check", a, b])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stdout == """
        \(a):2: warning: blank line [blank-line]
        \(a):3: warning: line ends with \\r\\n instead of \\n [crlf]
        \(a): 5 more blank-line warnings like the one on line 2 not shown
        \(a): 2 more crlf warnings like the one on line 3 not shown
        \(a): 7 events, 0 errors, 9 warnings (crlf 3, blank-line 6)
        \(b):1: warning: line ends with \\r\\n instead of \\n [crlf]
        \(b):2: warning: blank line [blank-line]
        \(b): 1 more blank-line warning like the one on line 2 not shown
        \(b): 1 event, 0 errors, 3 warnings (crlf 1, blank-line 2)
        total: 2 files, 8 events, 0 errors, 12 warnings (crlf 4, blank-line 8)

        """, "\(result)")
  }

  @Test func everyCommandThatReadsAJournalTakesTheReadingOptions() throws {
    // A legitimate 5 MB line: refused by default, read with --max-line-bytes.
    let directory = try TemporaryDirectory()
    let label = String(repeating: "x", count: 5 << 20)
    let path = try directory.write(
      "big.ndjson", JournalText.lines([JournalText.header(), JournalText.mark(1, label), JournalText.mark(2, "y")]))
    let raised = ["--max-line-bytes", "\(6 << 20)"]
    let commands: [[String]] = [
      ["check", path], ["cat", path], ["log", path], ["at", path, "2"], ["map", path], ["tail", path], ["stats", path],
      ["export", "--table", "events", path], ["step", "--keys", "q", path], ["diff", path, path],
      ["bisect", path, path],
    ]
    for (command, result) in zip(commands, try Binary.runAll(commands.map { ($0, []) })) {
      #expect(result.status == 2, "default limit, \(command[0]): \(result.status)")
    }
    for (command, result) in zip(commands, try Binary.runAll(commands.map { ($0 + raised, []) })) {
      #expect(result.status == 0, "raised limit, \(command[0]): \(result.status) \(result.stderr.prefix(300))")
    }
    let strict = try Binary.runAll(
      [["log"], ["at"], ["map"], ["cat"], ["tail"]].map { (command: [String]) in
        let crlf = try? directory.write("crlf.ndjson", JournalText.header() + "\r\n" + JournalText.mark(1, "m") + "\n")
        return (command + ["--strict", crlf ?? ""] + (command == ["at"] ? ["0"] : []), [UInt8]())
      })
    for result in strict { #expect(result.status == 2, "--strict makes the crlf warning an error: \(result)") }
  }

  @Test func exportedNDJSONCarriesArraysAndObjects() throws {
    let findings = try Binary.run(["export", "--table", "findings", CheckJournals.directory + "/notes.legacy.ndjson"])
    let first = try #require(findings.stdout.split(separator: "\n").first)
    #expect(first.contains(#""controllers":["#), "\(first)")
    let directory = try TemporaryDirectory()
    let path = try directory.write(
      "extra.ndjson",
      JournalText.lines([
        JournalText.header(), #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"mark","label":"m","k":[1,2]}"#,
      ]))
    let events = try Binary.run(["export", "--table", "events", path])
    #expect(events.stdout.contains(#""extra":{"k":[1,2]}"#), "\(events)")
    let csv = try Binary.run(["export", "--table", "events", "--format", "csv", path])
    #expect(csv.stdout.contains(#""{""k"":[1,2]}""#), "CSV keeps the JSON text: \(csv)")
  }

  @Test func smallerEdges() throws {
    let stdinTwice = try Binary.run(["check", "-", "-"])
    #expect(stdinTwice.status == 64)
    #expect(stdinTwice.stderr.hasPrefix("spatial-replay: error: '-' (standard input) can be read only once\n"))

    let help = try Binary.run(["help", "nosuch"])
    #expect(help.status == 64)
    #expect(help.stderr.hasPrefix("spatial-replay: error: no help for 'nosuch': not a command"))
    let helpCheck = try Binary.run(["help", "check"])
    #expect(helpCheck.status == 0 && helpCheck.stdout.hasPrefix("usage: spatial-replay check"))

    let simulate = try Binary.run(["simulate", "--events", "5", "-o", "/nonexistent/x.ndjson"])
    #expect(simulate.status == 2)
    #expect(
      simulate.stderr == "spatial-replay: error: /nonexistent/x.ndjson: cannot create: No such file or directory\n",
      "\(simulate)")

    let directory = try TemporaryDirectory()
    let missing = directory.file("missing.ndjson")
    let export = try Binary.run(["export", "--table", "visits", "--format", "csv", missing])
    #expect(export.status == 2)
    #expect(export.stdout == "", "no CSV header when no input could be opened")

    let version = try Binary.run(["check", "--version"])
    #expect(version.status == 0 && version.stdout == "spatial-replay \(SpatialReplay.version)\n")
    let afterDashes = try Binary.run(["cat", "--", "--version"])
    #expect(afterDashes.status == 2, "after --, --version is a file name: \(afterDashes)")
  }

  @Test func colourFollowsTheChoiceAndANonEmptyNoColor() {
    var context = Context()
    context.stdoutIsTerminal = true
    context.environment = ["TERM": "xterm"]
    #expect(context.useColor)
    context.environment["NO_COLOR"] = ""
    #expect(context.useColor, "an empty NO_COLOR does not turn colour off")
    context.environment["NO_COLOR"] = "1"
    #expect(!context.useColor)
    context.color = .always
    #expect(context.useColor)
    context.color = .never
    context.environment = ["TERM": "xterm"]
    #expect(!context.useColor)
  }

  @Test func checkColoursAndCollapsesAndLimits() throws {
    let directory = try TemporaryDirectory()
    let lines = [JournalText.header()] + (1...5).map { JournalText.mark($0, "m\($0)") }
    let path = try directory.write("crlf.ndjson", lines.map { $0 + "\r\n" }.joined())
    let text = try Binary.run(["check", path])
    #expect(text.status == 0)
    #expect(
      text.stdout == """
        \(path):1: warning: line ends with \\r\\n instead of \\n [crlf]
        \(path): 5 more crlf warnings like the one on line 1 not shown
        \(path): 6 events, 0 errors, 6 warnings (crlf 6)

        """)
    let coloured = try Binary.run(["check", "--color", "always", path])
    #expect(coloured.stdout.contains("\u{1B}[33mwarning\u{1B}[0m"), "\(coloured)")
    let quiet = try Binary.run(["check", "-q", path])
    #expect(quiet.stdout == "\(path): 6 events, 0 errors, 6 warnings (crlf 6)\n")
    let json = try Binary.run(["check", "--json", "--max-findings", "2", path])
    let objects = json.stdout.split(separator: "\n")
    #expect(objects.count == 3, "two findings, then the summary: \(json)")
    #expect(objects.last?.contains(#""omitted":4"#) == true)
    let contradiction = try Binary.run(["check", "--json", "--format", "sarif", path])
    #expect(contradiction.status == 64)
  }

  @Test func diffWarnsAboutRunsOfDifferentScenarios() throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write(
      "a.ndjson",
      Record(seq: 0, time: JournalText.time(0), event: .session(SessionHeader(session: "A", scenario: "notes"))).ndjson
        + "\n")
    let b = try directory.write(
      "b.ndjson",
      Record(seq: 0, time: JournalText.time(0), event: .session(SessionHeader(session: "B", scenario: "demo"))).ndjson
        + "\n")
    let result = try Binary.run(["diff", a, b])
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "spatial-replay: warning: the runs are of different scenarios: \(a) has 'notes', \(b) has 'demo'; "
        + "the comparison may mean little\n")
  }

  @Test func exportTakesTheFiltersOfCatAndLog() throws {
    let path = CheckJournals.directory + "/notes.legacy.ndjson"
    let cat = try Binary.run(["cat", "--type", "move,pan", "--from", "10", "--to", "90", path])
    let events = try Binary.run([
      "export", "--table", "events", "--type", "move,pan", "--from", "10", "--to", "90", path,
    ])
    #expect(events.status == 0 && cat.status == 0)
    func seqs(_ text: String) -> [Substring] {
      text.split(separator: "\n").map { line in
        line.split(separator: ",").first { $0.hasPrefix(#""seq":"#) || $0.hasPrefix(#"{"seq":"#) }?.drop { $0 != ":" }
          ?? ""
      }
    }
    let catSeqs = seqs(cat.stdout)
    let rowSeqs = seqs(events.stdout)
    #expect(!catSeqs.isEmpty && catSeqs == rowSeqs, "\(catSeqs) != \(rowSeqs)")

    let visits = try Binary.run([
      "export", "--table", "visits", "--controller", "compose", CheckJournals.directory + "/notes.intended.ndjson",
    ])
    let rows = visits.stdout.split(separator: "\n")
    #expect(visits.status == 0 && !rows.isEmpty)
    #expect(rows.allSatisfy { $0.contains(#""controller":"compose""#) }, "\(visits)")
    let findings = try Binary.run(["export", "--table", "findings", "--controller", "compose", path])
    #expect(findings.stdout.split(separator: "\n").allSatisfy { $0.contains(#""compose""#) })
    #expect(!findings.stdout.isEmpty)

    let type = try Binary.run(["export", "--table", "visits", "--type", "move", path])
    #expect(type.status == 64)
    let nobody = try Binary.run(["export", "--table", "moves", "--controller", "nobody", path])
    #expect(nobody.status == 64 && nobody.stdout.isEmpty, "\(nobody)")
  }

  @Test func stepMovesAmongTheEventsTheFiltersSelect() throws {
    let path = CheckJournals.directory + "/notes.intended.ndjson"
    let moves = try Binary.run(["cat", "--type", "move", "--controller", "compose", path]).stdout.split(separator: "\n")
      .map { line in Int(line.dropFirst(7).prefix { $0 != "," })! }
    try #require(moves.count >= 3)
    let step = try Binary.run(["step", "--keys", "l l G h", "--type", "move", "--controller", "compose", path])
    #expect(step.status == 0, "\(step)")
    let seqs = step.stdout.split(separator: "\n").filter { $0.hasPrefix("seq ") }.map { line in
      Int(line.dropFirst(4).prefix { $0 != " " }.filter(\.isNumber))!
    }
    #expect(seqs == [moves[0], moves[1], moves[2], moves[moves.count - 1], moves[moves.count - 2]], "\(seqs) \(moves)")
    let two = try Binary.run(["step", "--keys", "q", "--type", "move", path, path])
    #expect(two.status == 64)
  }

  @Test func bisectIsQuietWhenAsked() throws {
    let runs = (1...12).map { CheckJournals.directory + "/bisect/build-\($0 < 10 ? "0" : "")\($0).ndjson" }
    let quiet = try Binary.run(["bisect", "-q"] + runs)
    #expect(quiet.status == 1 && quiet.stdout.isEmpty, "\(quiet)")
    let good = try Binary.run(["bisect", "--quiet"] + runs.prefix(7))
    #expect(good.status == 0 && good.stdout.isEmpty, "\(good)")
  }

  @Test func reportTakesATimeWindowAsTheSeqsItCovers() throws {
    let path = CheckJournals.directory + "/notes.intended.ndjson"
    let window = ["--since", "2026-11-29T09:00:10Z", "--until", "2026-11-29T09:00:12Z"]
    let lines = try Binary.run(["cat"] + window + [path]).stdout.split(separator: "\n")
    let seqs = lines.map { line in Int(line.dropFirst(7).prefix { $0 != "," })! }
    try #require(seqs.count > 2)
    let byTime = try Binary.run(["report"] + window + [path])
    let bySeq = try Binary.run(["report", "--from", "\(seqs[0])", "--to", "\(seqs[seqs.count - 1])", path])
    #expect(byTime.status == 0 && bySeq.status == 0, "\(byTime.stderr) \(bySeq.stderr)")
    #expect(!byTime.stdoutBytes.isEmpty && byTime.stdoutBytes == bySeq.stdoutBytes)
    let empty = try Binary.run(["report", "--since", "2030-01-01T00:00:00Z", path])
    #expect(empty.status == 2 && empty.stderr.contains("no event in the time window"), "\(empty)")
  }

  @Test func aDirectoryOrAGlobStandsForItsJournals() throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write("a.ndjson", try directory.text(CheckJournals.directory + "/demo.intended.ndjson"))
    let b = try directory.write("b.jsonl", try directory.text(CheckJournals.directory + "/notes.legacy.ndjson"))
    _ = try directory.write("notes.txt", "not a journal\n")
    _ = try directory.write(".hidden.ndjson", "not read\n")
    let explicit = try Binary.run(["check", a, b])
    let whole = try Binary.run(["check", directory.path])
    #expect(whole.status == explicit.status && whole.stdout == explicit.stdout, "\(whole)")
    let glob = try Binary.run(["stats", "--json", directory.path + "/*.ndjson"])
    let one = try Binary.run(["stats", "--json", a])
    #expect(glob.status == 0 && glob.stdout == one.stdout, "\(glob)")
    let nothing = try Binary.run(["cat", directory.path + "/*.csv"])
    #expect(nothing.status == 2 && nothing.stderr.contains("*.csv: cannot open"), "\(nothing)")
    let empty = try TemporaryDirectory()
    let none = try Binary.run(["check", empty.path])
    #expect(
      none.status == 2
        && none.stderr.contains("is a directory with no journal below it (*.ndjson, *.jsonl, or either gzipped)"),
      "\(none)")
    let runs = try Binary.run(["bisect", "-q", CheckJournals.directory + "/bisect"])
    #expect(runs.status == 1, "the bisect folder's builds, in order: \(runs)")
  }

  @Test func diffColoursWhenAsked() throws {
    let a = CheckJournals.directory + "/bisect/build-07.ndjson"
    let b = CheckJournals.directory + "/bisect/build-08.ndjson"
    let plain = try Binary.run(["diff", a, b])
    #expect(plain.status == 1 && !plain.stdoutBytes.contains(0x1B))
    let coloured = try Binary.run(["diff", "--color=always", a, b])
    #expect(coloured.status == 1)
    #expect(coloured.stdout.contains("\u{1B}[31m  - A seq 40  unlink notes down\u{1B}[0m"), "\(coloured)")
    #expect(coloured.stdout.contains("\u{1B}[1mhunk 1 of 1, missing:\u{1B}[0m"))
  }

  @Test func mapSummarisesALongDetachedList() {
    let names = (0..<2999).map { "c\($0)" }
    let lines = MapRenderer.wrapped(names, first: "detached (2999): ", width: 80)
    #expect(lines.count == MapRenderer.listLines)
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    let shown = lines.joined(separator: " ").split(separator: ",").count
    #expect(lines.last?.hasSuffix(" and \(2999 - shown + 1) more") == true, "\(lines.last ?? "")")
    #expect(MapRenderer.wrapped(["a", "b"], first: "detached (2): ", width: 80) == ["detached (2): a, b"])
  }
}

/// `--model [PROFILE]` means one thing on check, step and report; the old spelling still works.
@Suite struct ModelOptionTests {
  static let legacy = CheckJournals.directory + "/notes.legacy.ndjson"

  @Test func checkTakesTheProfileAfterModelAsTheOldSpellingDoes() throws {
    let old = try Binary.run(["check", "--model", "--profile", "legacy", Self.legacy])
    for spelling in [["--model", "legacy"], ["--model=legacy"]] {
      let new = try Binary.run(["check"] + spelling + [Self.legacy])
      #expect(new.status == old.status && new.stdout == old.stdout, "\(spelling): \(new)")
    }
    let intended = try Binary.run(["check", "--model", Self.legacy])
    #expect(intended.stdout.contains("model-divergence"))
    #expect(!old.stdout.contains("model-divergence"), "the legacy model describes the legacy journal")
    let clash = try Binary.run(["check", "--model", "legacy", "--profile", "intended", Self.legacy])
    #expect(clash.status == 64 && clash.stderr.contains("--model legacy contradicts --profile intended"))
    let typo = try Binary.run(["check", "--model=legasy", Self.legacy])
    #expect(typo.status == 64 && typo.stderr.contains("did you mean legacy?"), "\(typo)")
    #expect(try Binary.run(["check", "--help"]).stdout.contains("--model [PROFILE]"))
    #expect(try Binary.run(["check", "--help"]).stdout.contains("the old spelling of --model PROFILE"))
  }

  @Test func stepAndReportTakeTheSameOption() throws {
    let plain = try Binary.run(["step", "--keys", "q", Self.legacy])
    let intended = try Binary.run(["step", "--model", "--keys", "q", Self.legacy])
    let legacy = try Binary.run(["step", "--model", "legacy", "--keys", "q", Self.legacy])
    #expect(plain.status == 0 && intended.status == 0 && legacy.status == 0, "\(intended) \(legacy)")
    #expect(intended.stdout.contains("findings 0 / 57"), "\(intended.stdout.suffix(200))")
    #expect(legacy.stdout.contains("findings 0 / 38"), "\(legacy.stdout.suffix(200))")
    let directory = try TemporaryDirectory()
    let page = directory.path + "/r.html"
    let report = try Binary.run(["report", "--model", Self.legacy, "-o", page])
    #expect(report.status == 0, "\(report)")
    #expect(try directory.text(page).contains("model-divergence"))
    let without = try Binary.run(["report", Self.legacy, "-o", page])
    #expect(without.status == 0)
    #expect(!(try directory.text(page)).contains("\"model-divergence\""))
  }
}

/// The edges a new user met in their first hour (issue 23, item 9).
@Suite struct FirstHourEdgeTests {
  static let notes = CheckJournals.directory + "/notes.intended.ndjson"

  @Test func atBeyondTheEndIsAUsageError() throws {
    let result = try Binary.run(["at", Self.notes, "999"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("seq 999 is out of range"))
  }

  @Test func helpHasItsOwnHelpAndIsInTheCommandList() throws {
    let help = try Binary.run(["help", "--help"])
    #expect(help.status == 0 && help.stdout.contains("usage: spatial-replay help [COMMAND | --man]"), "\(help)")
    let overview = try Binary.run(["--help"])
    #expect(overview.stdout.contains("\n  help  "), "\(overview.stdout)")
  }

  @Test func aGlobalOptionMayComeBeforeTheCommand() throws {
    for global in [["--color", "always"], ["--color=never"]] {
      let result = try Binary.run(global + ["check", Self.notes])
      #expect(result.status == 0, "\(global): \(result)")
    }
    #expect(try Binary.run(["--color", "always", "nocommand"]).status == 64)
  }

  /// A folder of journals given where a command reads one: a usage error that says so and names a few.
  @Test(arguments: [
    (["log"], "log reads one journal"), (["at", "SEQ"], "at reads one journal"), (["map"], "map reads one journal"),
    (["step"], "step reads one journal, or two runs A and B"), (["tail"], "tail reads one journal"),
    (["trace", "--format", "chrome"], "trace reads one journal, or two runs A and B"),
    (["diff", "B"], "diff reads two journals, A and B"),
    (["report", "B"], "report reads two runs A and B as journals (a folder alone is the fleet page)"),
  ])
  func aFolderOfJournalsWhereOneIsReadSaysToNameOne(_ command: [String], _ reads: String) throws {
    let folder = Repository.journals + "/bisect"
    let arguments =
      [command[0], folder]
      + command.dropFirst().map {
        $0 == "SEQ" ? "3" : $0 == "B" ? Repository.journals + "/notes.legacy.ndjson" : $0
      }
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(
      result.stderr.hasPrefix(
        "spatial-replay: error: \(reads); \(folder) is a directory holding 12 journals "
          + "(build-01.ndjson, build-02.ndjson, build-03.ndjson, …): name one\n"), "\(result)")
    #expect(!result.stderr.contains("no journal below it"), "\(result)")
  }

  @Test func aFolderWithoutJournalsSaysSo() throws {
    let empty = try TemporaryDirectory()
    let result = try Binary.run(["check", empty.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("is a directory with no journal below it"), "\(result)")
  }

  @Test func recordGivenAJournalNamesTheMistake() throws {
    let result = try Binary.run(["record", Self.notes])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("is a journal (a line of JSON), not a scenario script"), "\(result)")
    #expect(!result.stderr.contains("unknown command"), "\(result)")
  }
}

extension FirstHourEdgeTests {
  @Test func controllerSuggestionsFindIDsByTheirStart() throws {
    let directory = try TemporaryDirectory()
    let path = try WholeIDsCLITests.journal(directory)
    let result = try Binary.run(["log", "--controller", "Notes", path])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("(did you mean NoteEditorViewController#2, NotesListViewController#1?)") == false)
    #expect(result.stderr.contains("did you mean NotesListViewController#1?"), "\(result)")
    let lower = try Binary.run(["log", "--controller", "note", path])
    #expect(lower.stderr.contains("did you mean NoteEditorViewController#2, NotesListViewController#1?"), "\(lower)")
  }

  @Test func theReportsWindowNoteGroupsItsNumbers() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/big.ndjson"
    #expect(try Binary.run(["simulate", "--events", "1500", "--seed", "3", "-o", path]).status == 0)
    let result = try Binary.run(["report", "--max-events", "1200", path, "-o", directory.path + "/r.html"])
    #expect(result.stderr.contains("shows the 1,200 events seq 0–1,199 of the 1,500"), "\(result)")
  }
}

extension FirstHourEdgeTests {
  static var man: String? { ["/usr/bin/man", "/bin/man"].first { access($0, X_OK) == 0 } }

  /// `spatial-replay help --man | MANWIDTH=80 man -l -` has no line wider than 80 columns.
  @Test(.enabled(if: man != nil, "needs man")) func theManualFitsEightyColumns() throws {
    let outcome = try Subprocess.run(
      ["-c", "\"$1\" help --man | MANWIDTH=80 man -l - 2>/dev/null", "sh", Binary.path], executable: "/bin/sh",
      timeout: .seconds(120))
    let lines = outcome.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count > 200, "\(outcome)")
    let wide = lines.filter { $0.count > 80 }
    #expect(wide.isEmpty, "\(wide.count) lines wider than 80 columns, e.g. \(wide.prefix(3))")
  }
}
