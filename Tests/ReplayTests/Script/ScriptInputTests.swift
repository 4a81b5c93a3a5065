import Journal
import Projection
import Testing

@testable import TestSupport

/// `script` on journals the model did not write, and on texts that need quoting.
@Suite struct ScriptInputTests {
  static func time(_ ms: Int64) -> Timestamp { Timestamp.modelEpoch.adding(milliseconds: ms) }

  static func journal(_ events: [(Int64, Event)]) -> String {
    events.enumerated().map { Record(seq: $0.offset, time: time($0.element.0), event: $0.element.1).ndjson + "\n" }
      .joined()
  }

  /// An app's journal: instance ids, callbacks out of order, a move without its pan, a mark with a
  /// number, a dealloc of a controller never allocated.
  @Test func anAppsJournalGetsItsInputsWithItsIDs() throws {
    let directory = try TemporaryDirectory()
    let text = Self.journal([
      (0, .session(SessionHeader(session: "APP-1", app: "Shop"))),
      (3, .alloc(controller: "Home#1", className: "HomeViewController")),
      (4, .alloc(controller: "Cart#12", className: "CartViewController")),
      (9, .root(controller: "Home#1")),
      (9, .lifecycle(controller: "Home#1", callback: .willAppear)),
      (10, .lifecycle(controller: "Home#1", callback: .didAppear)),
      (20, .link(from: "Home#1", direction: .right, to: "Cart#12")),
      (35, .move(Move(from: "Home#1", to: "Cart#12", direction: .right, trigger: .pan, animated: true))),
      (35, .lifecycle(controller: "Cart#12", callback: .willAppear)),
      (36, .lifecycle(controller: "Home#1", callback: .willDisappear)),
      (50, .mark(label: "paid", fields: [Field(key: "items", value: RawJSON(unchecked: "3"))])),
      (60, .dealloc(controller: "Ghost#1")),
      (70, .touches(controller: "Home#1", direction: .down, min: 2)),
    ])
    let path = try directory.write("shop.ndjson", text)
    let result = try Binary.run(["script", path])
    #expect(result.status == 1, "\(result)")
    let script = result.stdout
    for line in [
      // `#` starts a comment: the app's ids are quoted.
      "session id=APP-1 app=Shop", #"controller "Home#1" HomeViewController"#,
      #"controller "Cart#12" CartViewController"#, #"root "Home#1""#, #"link "Home#1" right "Cart#12""#,
      "# line 8: move Home#1 Cart#12: a move by a pan without the pan that made it", "mark paid items=3",
      #"touches "Home#1" down 2"#,
    ] {
      #expect(script.split(separator: "\n").contains { $0 == line }, "missing '\(line)' in\n\(script)")
    }
    #expect(
      script.contains("# line 12: dealloc Ghost#1: the model refuses it (unknown controller 'Ghost#1')"), "\(script)")
    // Lifecycle callbacks are outputs: no line says them.
    #expect(!script.contains("willAppear") && !script.contains("didAppear"), "\(script)")
    #expect(result.stderr.contains("shop.ndjson:8: move Home#1 Cart#12"), "\(result)")
    #expect(result.stderr.contains("shop.ndjson:12: dealloc Ghost#1"), "\(result)")
    // The script is one `record` reads.
    let scriptPath = try directory.write("shop.scenario", script)
    let recorded = try Binary.run(["record", scriptPath])
    #expect(recorded.status == 0, "\(recorded)")
  }

  /// An app's clock, finer than the model's: the waits are the whole milliseconds of each gap.
  @Test func anAppsFinerClockGivesWholeMilliseconds() {
    func at(_ us: Int64) -> Timestamp { Timestamp(microseconds: Timestamp.modelEpoch.microseconds + us) }
    let records = [
      Record(seq: 0, time: at(0), event: .session(SessionHeader(session: "T"))),
      Record(seq: 1, time: at(2_500), event: .alloc(controller: "a", className: "A")),
      Record(seq: 2, time: at(9_999), event: .mark(label: "m", fields: [])),
      Record(seq: 3, time: at(10_100), event: .mark(label: "n", fields: [])),
    ]
    let script = JournalScript(records)
    #expect(
      script.commands.dropFirst()
        == [
          .wait(milliseconds: 1), .controller("a", className: "A"), .wait(milliseconds: 6),
          .mark(label: "m", fields: []), .mark(label: "n", fields: []),
        ], "\(script.text)")
    #expect(!script.reproduces)
    #expect(script.firstDifference == 2)
  }

  /// Ids, classes, labels and values with spaces, quotes, backslashes, `#` and `=` are quoted so
  /// that the recording comes back byte for byte; a line feed cannot be said, and is a comment.
  @Test func textsAreQuotedAsTheParserNeeds() throws {
    var nav = Navigator(
      profile: .intended,
      header: SessionHeader(
        session: "S 1=\"x\"", app: "My App #2", build: "1\\2", device: "", profile: "intended", scenario: "odd"),
      start: Self.time(123_456))
    try nav.controller("a b#1", className: "C=D")
    try nav.controller("q\"\\x", className: "#E")
    try nav.controller("=", className: "cancel")
    try nav.root("a b#1")
    try nav.link("a b#1", .left, "q\"\\x")
    try nav.link("q\"\\x", .up, "=")
    try nav.mark("x=y", [(key: "k\\", value: "v w#"), (key: "e", value: ""), (key: "t", value: "tab\there")])
    try nav.pan(.left, distance: 0.1, velocity: 1e-5)
    try nav.pan(.left, distance: 1234.5678, velocity: 651)
    let journal = nav.journal
    let (records, _) = JournalReader.readAll(bytes: journal)
    let script = JournalScript(records)
    #expect(script.reproduces, "\(script.notes) \(script.firstDifference ?? 0)\n\(script.text)")
    let directory = try TemporaryDirectory()
    let again = try ScenarioCompiler.record(
      Array(script.text.utf8), script: directory.file("odd.scenario"), profile: .intended)
    #expect(again.journal == journal, "\(script.text)")

    // A mark whose label has a line feed: a comment and a note.
    var other = Navigator(profile: .intended, header: SessionHeader(session: "S2"))
    try other.mark("two\nlines")
    try other.mark("fine")
    let (lines, _) = JournalReader.readAll(bytes: other.journal)
    let withBreak = JournalScript(lines)
    #expect(withBreak.notes.count == 1 && withBreak.notes.first?.line == 2, "\(withBreak.notes)")
    #expect(withBreak.text.contains("\n# line 2: mark: a script cannot say it"), "\(withBreak.text)")
    #expect(withBreak.commands.contains(.mark(label: "fine", fields: [])))
  }

  @Test func unreadableJournalsAreRefused() throws {
    let directory = try TemporaryDirectory()
    let broken = try directory.write(
      "broken.ndjson", Self.journal([(0, .session(SessionHeader(session: "B")))]) + "{oops\n")
    let result = try Binary.run(["script", broken])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("broken.ndjson:2:"), "\(result)")
    let script = try directory.write("s.scenario", "controller a A\n")
    let asScript = try Binary.run(["script", script])
    #expect(asScript.status == 2, "\(asScript)")
    let missing = try Binary.run(["script", directory.file("none.ndjson")])
    #expect(missing.status == 2, "\(missing)")
    let same = try Binary.run(["script", broken, "-o", broken])
    #expect(same.status == 64, "\(same)")
    let two = try Binary.run(["script", broken, broken])
    #expect(two.status == 64, "\(two)")
  }
}
