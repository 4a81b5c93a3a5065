import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `spatial-replay at`, `map` and `log`, run as processes: output, errors, exit status.
@Suite struct CLIAtMapLogTests {
  /// The notes app fixture written to a file.
  static func notesFile() -> String { TemporaryFiles.journal(FixtureJournal.notesApp.bytes, name: "notes.ndjson") }

  /// The recorded journals bundled in `Journals/` (none in a checkout that has not recorded them yet).
  static let bundledJournals: [String] = {
    let directory = Repository.journals
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".ndjson") { names.append(directory + "/" + name) }
    }
    return names.sorted()
  }()

  /// What `at --json` must print for the event at `index`: the fold of the prefix, with its map.
  static func expectedJSON(_ records: [Record], through index: Int) -> String {
    let state = State(folding: records[...index])
    return state.json(map: MapLayout(state: state)) + "\n"
  }

  // MARK: at

  @Test func atEverySeqEqualsFoldingThePrefix() throws {
    var journals = [(Self.notesFile(), FixtureJournal.notesApp.records)]
    if let bundled = Self.bundledJournals.first(where: { $0.hasSuffix("notes.intended.ndjson") }) {
      journals.append((bundled, try JournalReader.readAll(path: bundled).records))
    }
    for (path, records) in journals {
      var mismatches: [Int] = []
      for start in stride(from: 0, to: records.count, by: 8) {
        let indices = Array(start..<min(start + 8, records.count))
        let results = try Binary.runAll(indices.map { (["at", "--json", path, String(records[$0].seq)], []) })
        for (i, result) in zip(indices, results) {
          if result.status != 0 || result.stdout != Self.expectedJSON(records, through: i) || !result.stderr.isEmpty {
            mismatches.append(records[i].seq)
          }
        }
      }
      #expect(mismatches.isEmpty, "\(path): seqs whose `at --json` differs from folding the prefix: \(mismatches)")
    }
  }

  @Test func everyBundledJournalAtEverySeqThroughTheTimeline() throws {
    // `at` finds its state with Timeline.state(afterSeq:); check it on every recorded journal.
    for path in Self.bundledJournals {
      let (records, diagnostics) = try JournalReader.readAll(path: path)
      #expect(diagnostics.isEmpty, "\(path): \(diagnostics.map { CheckFinding.format($0).formatted(file: path) })")
      let timeline = Timeline(records: records)
      var state = State()
      var mismatches: [Int] = []
      for record in records {
        reduce(into: &state, record)
        if timeline.state(afterSeq: record.seq) != state { mismatches.append(record.seq) }
      }
      #expect(mismatches.isEmpty, "\(path): \(mismatches)")
    }
  }

  @Test func atPrintsTheStateThenTheMap() throws {
    let path = Self.notesFile()
    let result = try Binary.run(["at", path, "32"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    GoldenFile.check(result.stdout, "cli-at-notes.txt")
    let state = FixtureJournal.notesApp.state
    var map = ""
    MapRenderer().render(MapLayout(state: state), to: &map)
    #expect(result.stdout == state.text + "\nmap:\n" + map)
  }

  @Test func atASCIIAndWidthReachTheMap() throws {
    let path = Self.notesFile()
    let result = try Binary.run(["at", "--ascii", "--width", "20", path, "32"])
    #expect(result.status == 0, "\(result)")
    var map = ""
    MapRenderer(options: .init(width: 20, glyphs: .ascii)).render(
      MapLayout(state: FixtureJournal.notesApp.state), to: &map)
    #expect(result.stdout.hasSuffix("\nmap:\n" + map))
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var status: Int32
    var stderr: String
    var testDescription: String { name }
  }

  /// `<path>` stands for the notes journal's path.
  static let failures = [
    Failure(
      name: "seq past the end", arguments: ["at", "<path>", "99"], status: 64,
      stderr: "spatial-replay: error: seq 99 is out of range: <path> has seq 0…32\n"),
    Failure(
      name: "map --at past the end", arguments: ["map", "--at", "33", "<path>"], status: 64,
      stderr: "spatial-replay: error: seq 33 is out of range: <path> has seq 0…32\n"),
    Failure(
      name: "negative seq", arguments: ["at", "<path>", "-1"], status: 64,
      stderr: "spatial-replay: error: SEQ takes a whole number ≥ 0, got '-1'\nusage: see 'spatial-replay at --help'\n"),
    Failure(
      name: "seq not a number", arguments: ["at", "<path>", "ten"], status: 64,
      stderr: "spatial-replay: error: SEQ takes a whole number ≥ 0, got 'ten'\nusage: see 'spatial-replay at --help'\n"),
    Failure(
      name: "no seq", arguments: ["at", "<path>"], status: 64,
      stderr: "spatial-replay: error: at needs a FILE and a SEQ ('-' for standard input), got 1 argument\n"
        + "usage: see 'spatial-replay at --help'\n"),
    Failure(
      name: "width too small", arguments: ["map", "--width", "5", "<path>"], status: 64,
      stderr:
        "spatial-replay: error: --width takes a whole number ≥ 10, got '5'\nusage: see 'spatial-replay map --help'\n"),
    Failure(
      name: "from after to", arguments: ["log", "--from", "5", "--to", "4", "<path>"], status: 64,
      stderr: "spatial-replay: error: --from 5 is after --to 4\nusage: see 'spatial-replay log --help'\n"),
    Failure(
      name: "unknown option", arguments: ["log", "--types", "move", "<path>"], status: 64,
      stderr:
        "spatial-replay: error: unknown option --types (did you mean --type?)\nusage: see 'spatial-replay log --help'\n"
    ),
    Failure(
      name: "missing file", arguments: ["map", "<path>.missing"], status: 2,
      stderr: "spatial-replay: error: <path>.missing: cannot open: No such file or directory\n"),
    Failure(
      name: "missing file for log", arguments: ["log", "<path>.missing"], status: 2,
      stderr: "spatial-replay: error: <path>.missing: cannot open: No such file or directory\n"),
  ]

  @Test(arguments: failures)
  func badInputAndUsageErrors(_ failure: Failure) throws {
    let path = Self.notesFile()
    let result = try Binary.run(failure.arguments.map { $0.replacingOccurrences(of: "<path>", with: path) })
    #expect(result.status == failure.status, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == failure.stderr.replacingOccurrences(of: "<path>", with: path))
  }

  @Test func seqInAGapAndEmptyJournalsAreNamed() throws {
    var records = FixtureJournal.notesApp.records
    records.remove(at: 10)
    let gap = TemporaryFiles.journal(Record.journal(records))
    let inGap = try Binary.run(["at", gap, "10"])
    #expect(inGap.status == 2)
    #expect(
      inGap.stderr.hasSuffix(
        "spatial-replay: error: \(gap) has no event with seq 10 (its seq range is 0…32, with gaps)\n"))
    #expect(inGap.stderr.contains("[seq-gap]"))
    let empty = TemporaryFiles.journal([])
    let none = try Binary.run(["at", empty, "0"])
    #expect(none.status == 2)
    #expect(none.stderr.hasSuffix("spatial-replay: error: \(empty) has no events, so no seq 0\n"))
  }

  @Test func journalErrorsGoToStderrAndTheRestIsUsed() throws {
    var lines = String(decoding: FixtureJournal.notesApp.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    lines.insert("not json", at: 5)
    let path = TemporaryFiles.journal(Array((lines.joined(separator: "\n") + "\n").utf8))
    let result = try Binary.run(["at", "--json", path, "32"])
    #expect(result.status == 2)
    #expect(result.stdout == Self.expectedJSON(FixtureJournal.notesApp.records, through: 32))
    #expect(result.stderr.hasPrefix("\(path):6:1: error: "))
    #expect(result.stderr.hasSuffix("[malformed]\n"))
    let log = try Binary.run(["log", "--to", "3", path])
    #expect(log.status == 2)
    #expect(log.stdout.split(separator: "\n").count == 4)
  }

  /// `at` folds only up to its event but reads on to the end: an error after it is still reported.
  @Test func errorsAfterTheEventStillCount() throws {
    var lines = String(decoding: FixtureJournal.notesApp.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    lines.append("not json")
    let path = TemporaryFiles.journal(Array((lines.joined(separator: "\n") + "\n").utf8))
    for arguments in [["at", "--json", path, "3"], ["map", "--at", "3", path]] {
      let result = try Binary.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.hasPrefix("\(path):\(lines.count):1: error: "), "\(arguments)")
      #expect(result.stderr.hasSuffix("[malformed]\n"), "\(arguments)")
    }
    let at = try Binary.run(["at", "--json", path, "3"])
    #expect(at.stdout == Self.expectedJSON(FixtureJournal.notesApp.records, through: 3))
    let beyond = try Binary.run(["at", path, "40"])
    #expect(beyond.stderr.hasSuffix("spatial-replay: error: seq 40 is out of range: \(path) has seq 0…32\n"))
  }

  @Test func atReadsStandardInput() throws {
    let result = try Binary.run(["at", "--json", "-", "20"], stdin: FixtureJournal.notesApp.bytes)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == Self.expectedJSON(FixtureJournal.notesApp.records, through: 20))
  }

  // MARK: map

  @Test func mapDrawsTheEndOfTheJournal() throws {
    let path = Self.notesFile()
    let result = try Binary.run(["map", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    let golden = try #require(TemporaryFiles.read(GoldenFile.directory + "map-notes.unicode.txt"))
    #expect(result.stdoutBytes == golden)
  }

  @Test func mapAtASeqInASCII() throws {
    let path = Self.notesFile()
    let result = try Binary.run(["map", "--at", "20", "--ascii", "--width", "40", path])
    #expect(result.status == 0, "\(result)")
    GoldenFile.check(result.stdout, "cli-map-notes-at-20.ascii.txt")
    var expected = ""
    let state = State(folding: FixtureJournal.notesApp.records[...20])
    MapRenderer(options: .init(width: 40, glyphs: .ascii)).render(MapLayout(state: state), to: &expected)
    #expect(result.stdout == expected)
    #expect(result.stdout.contains("[notes]"))
  }

  // MARK: log

  @Test func logListsEveryEvent() throws {
    let path = Self.notesFile()
    let result = try Binary.run(["log", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    GoldenFile.check(result.stdout, "cli-log-notes.txt")
    let records = FixtureJournal.notesApp.records
    #expect(result.stdout == records.map { LogLine.text($0) + "\n" }.joined())
    #expect(result.stdout.contains("00:00:00.012 #18 home → notes (left, pan, animated)\n"))
  }

  @Test func logFilters() throws {
    let path = Self.notesFile()
    let records = FixtureJournal.notesApp.records
    func lines(_ keep: (Record) -> Bool) -> String { records.filter(keep).map { LogLine.text($0) + "\n" }.joined() }

    let types = try Binary.run(["log", "--type", "move", "--type", "pan", path])
    #expect(types.stdout == lines { ["move", "pan"].contains($0.event.typeName) })
    #expect(types.stdout.split(separator: "\n").count == 3)

    let compose = try Binary.run(["log", "--controller", "compose", path])
    #expect(compose.stdout == lines { $0.event.controllers.contains("compose") })
    #expect(compose.stdout.hasPrefix("00:00:00.263 #23 alloc compose (ComposeViewController)\n"))

    let range = try Binary.run(["log", "--from", "10", "--to=12", "--type", "lifecycle", "--controller", "home", path])
    #expect(
      range.stdout
        == lines { (10...12).contains($0.seq) && $0.event.typeName == "lifecycle" && $0.event.controllers == ["home"] })

    let nothing = try Binary.run(["log", "--controller", "nobody", path])
    #expect(nothing.status == 64, "an id no event names is a usage error")
    #expect(nothing.stdout.isEmpty)
    #expect(nothing.stderr.hasPrefix("spatial-replay: error: --controller: no event names 'nobody'"))
    let typo = try Binary.run(["log", "--controller", "compse", path])
    #expect(typo.status == 64)
    #expect(
      typo.stderr.hasPrefix("spatial-replay: error: --controller: no event names 'compse' (did you mean compose?)"))
    let type = try Binary.run(["log", "--type", "Move", path])
    #expect(type.status == 64)
    #expect(type.stderr.hasPrefix("spatial-replay: error: --type: unknown type 'Move' (did you mean move?)"))
  }

  @Test func logJSONCopiesTheLinesThrough() throws {
    let extra = #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"a","class":"A","zz":[1]}"#
    let header = FixtureJournal(session: "X").records[0].ndjson
    let path = TemporaryFiles.journal(Array((header + "\n" + extra + "\n").utf8))
    let result = try Binary.run(["log", "--json", "--type", "alloc", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == extra + "\n")
  }

  // MARK: help

  @Test(arguments: ["at", "map", "log"])
  func helpHasUsageOptionsAndExamples(_ command: String) throws {
    let result = try Binary.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: spatial-replay \(command) "))
    #expect(result.stdout.contains("options:"))
    #expect(result.stdout.contains("exit status:"))
    let examples = result.stdout.components(separatedBy: "examples:\n").last ?? ""
    #expect(examples.split(separator: "\n").filter { $0.hasPrefix("  spatial-replay \(command) ") }.count >= 2)
  }
}

/// Ids as the recording guide makes them (`NotesListViewController#1`) are shown whole by
/// `map` and `step` when the width allows.
@Suite struct WholeIDsCLITests {
  static let ids = ["NotesListViewController#1", "NoteEditorViewController#2", "SettingsViewController#3"]

  static func journal(_ directory: TemporaryDirectory) throws -> String {
    var records: [Record] = [Record(seq: 0, time: JournalText.time(0), event: .session(SessionHeader(session: "S")))]
    func add(_ event: Event) { records.append(Record(seq: records.count, time: JournalText.time(0), event: event)) }
    for id in ids { add(.alloc(controller: ControllerID(id), className: String(id.prefix { $0 != "#" }))) }
    let (list, editor, settings) = (ControllerID(ids[0]), ControllerID(ids[1]), ControllerID(ids[2]))
    add(.root(controller: list))
    for callback in [Callback.didLoad, .willAppear, .didAppear] {
      add(.lifecycle(controller: list, callback: callback))
    }
    add(.link(from: list, direction: .right, to: editor))
    add(.link(from: list, direction: .down, to: settings))
    return try directory.write("ids.ndjson", Record.journal(records))
  }

  @Test func mapAtWidth220ShowsEveryIDWhole() throws {
    let directory = try TemporaryDirectory()
    let result = try Binary.run(["map", "--width", "220", try Self.journal(directory)])
    #expect(result.status == 0, "\(result)")
    for id in Self.ids { #expect(result.stdout.contains(id + " ") || result.stdout.contains(id + "]"), "\(result)") }
    #expect(!result.stdout.contains("…"), "\(result.stdout)")
  }

  @Test func stepShowsEveryIDWholeWhenItFits() throws {
    let directory = try TemporaryDirectory()
    let result = try Binary.run(["step", "--size", "160x40", "--keys", "G q", try Self.journal(directory)])
    #expect(result.status == 0, "\(result)")
    for id in Self.ids { #expect(result.stdout.contains(id + " ") || result.stdout.contains(id + "]"), "\(id)") }
  }
}
