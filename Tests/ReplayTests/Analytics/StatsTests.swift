import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// `stats` on hand-checked journals: counts, visits and dwell worked out by hand.
@Suite struct StatsTests {
  static func stats(_ text: String, file: String) -> SessionStats {
    let reader = JournalReader(bytes: Array(text.utf8), name: file)
    var builder = StatsBuilder(file: file)
    while let item = reader.next() { builder.consume(item) }
    return builder.finish()
  }

  /// The fixture's stats, counted by hand from its lines (see ``AnalyticsFixture``).
  static let fixtureJSON =
    #"{"file":"j.ndjson","session":"S1","app":"Dicto","build":null,"device":"iPhone","profile":"intended","#
    + #""journals":1,"events":22,"#
    + #""firstTime":"2026-11-29T10:00:00.000000Z","lastTime":"2026-11-29T10:00:02.000000Z","durationMs":2000.0,"#
    + #""eventsByType":{"session":1,"alloc":2,"root":1,"link":1,"unlink":0,"modal":0,"touches":1,"pan":3,"#
    + #""move":1,"lifecycle":9,"dealloc":0,"mark":2,"swipe":1},"#
    + #""moves":{"total":1,"animated":1,"byDirection":{"left":1,"right":0,"up":0,"down":0},"#
    + #""byTrigger":{"programmatic":0,"pan":1,"fling":0,"goToRoot":0}},"#
    + #""pans":{"total":3,"byOutcome":{"committed":1,"snapBack":0,"blocked":1,"refused":1,"cancelled":0}},"#
    + #""controllers":[{"controller":"home","class":"Home","visits":1,"dwellMs":997.0,"openVisits":0,"incompleteVisits":0},"#
    + #"{"controller":"notes","class":"Notes","visits":1,"dwellMs":750.0,"openVisits":1,"incompleteVisits":0}],"#
    + #""modals":{"presented":0,"deallocated":0,"leaked":0,"leakedModals":[],"leakFindings":0},"#
    + #""findings":{"total":4,"errors":3,"warnings":1,"#
    + #""byRule":{"malformed":1,"unknown-type":1,"will-repeated":1,"visible-count":1}}}"#

  static let fixtureText = """
    == j.ndjson: session S1, app Dicto
    events    22 from 2026-11-29T10:00:00.000000Z to 2026-11-29T10:00:02.000000Z (2000.000 ms)
    types     session 1, alloc 2, root 1, link 1, touches 1, pan 3, move 1, lifecycle 9, mark 2, swipe 1
    moves     1 (1 animated): left 1, right 0, up 0, down 0; programmatic 0, pan 1, fling 0, goToRoot 0
    pans      3: committed 1, snapBack 0, blocked 1, refused 1, cancelled 0
    modals    0 presented, 0 deallocated, 0 leaked (0 modal-leak findings)
    findings  3 errors, 1 warning: malformed 1, unknown-type 1, will-repeated 1, visible-count 1

    controller  class  visits  dwell_ms  open  incomplete
    home        Home        1   997.000     0           0
    notes       Notes       1   750.000     1           0

    """

  @Test func countsVisitsAndDwellOfTheFixtureByHand() {
    let s = Self.stats(AnalyticsFixture.text, file: "j.ndjson")
    #expect(s.events == 22)
    #expect(s.moves == 1 && s.pans == 3 && s.findings == 4)
    #expect(
      s.controllers == [
        .init(controller: "home", className: "Home", visits: 1, dwellMicroseconds: 997_000, openVisits: 0),
        .init(controller: "notes", className: "Notes", visits: 1, dwellMicroseconds: 750_000, openVisits: 1),
      ])
  }

  @Test func textIsOneBlockOfTablesPerJournal() {
    let report = StatsReport(sessions: [Self.stats(AnalyticsFixture.text, file: "j.ndjson")])
    #expect(report.text == Self.fixtureText)
  }

  /// The controllers' table pads each column to its widest cell in characters: a cell that is not
  /// ASCII is as wide as its characters, a control character is escaped, numbers are right-aligned
  /// (negative and large ones too), dwell has exactly three decimals.
  @Test func theControllersTableAlignsEveryKindOfCell() {
    var s = SessionStats()
    s.file = "t.ndjson"
    s.controllers = [
      .init(controller: "h\u{E9}\u{7}x", className: "K\u{FC}", visits: 1, dwellMicroseconds: 5, openVisits: 1),
      .init(controller: "a", className: nil, visits: 1_234_567_890, dwellMicroseconds: -2_500, openVisits: 0),
      .init(
        controller: "ComposeViewController#412", className: "ComposeViewController", visits: 0,
        dwellMicroseconds: 9_223_372_036_854_775_807, openVisits: 0, incompleteVisits: 12),
    ]
    let table = StatsReport(sessions: [s]).text.components(separatedBy: "\n\n").last
    #expect(
      table == """
        controller                 class                      visits              dwell_ms  open  incomplete
        h\u{E9}\\u{7}x                   K\u{FC}                              1                 0.005     1           0
        a                          -                      1234567890                -2.500     0           0
        ComposeViewController#412  ComposeViewController           0  9223372036854775.807     0          12

        """)
  }

  /// The one way the tables write a duration: exact milliseconds, three decimals, `-` for none,
  /// the same as a string and as bytes (the stats table writes bytes).
  @Test func durationsAreExactMillisecondsWithThreeDecimals() {
    let cases: [(Int64?, String)] = [
      (nil, "-"), (0, "0.000"), (5, "0.005"), (1_250_000, "1250.000"), (999, "0.999"), (-2_500, "-2.500"),
      (-1, "-0.001"), (Int64.max, "9223372036854775.807"), (Int64.min, "-9223372036854775.808"),
    ]
    for (microseconds, text) in cases {
      #expect(Distribution.milliseconds(microseconds) == text)
      var bytes: [UInt8] = [UInt8(ascii: "x")]
      Distribution.appendMilliseconds(microseconds, to: &bytes)
      #expect(bytes == Array(("x" + text).utf8))
    }
  }

  @Test func jsonIsOneDocumentWithSessionsAndOverall() {
    let report = StatsReport(sessions: [Self.stats(AnalyticsFixture.text, file: "j.ndjson")])
    let overall = Self.fixtureJSON.replacingOccurrences(
      of: #"{"file":"j.ndjson","session":"S1","app":"Dicto","build":null,"device":"iPhone","profile":"intended","#,
      with: #"{"file":null,"session":null,"app":null,"build":null,"device":null,"profile":null,"#)
    #expect(report.json == #"{"sessions":["# + Self.fixtureJSON + #"],"overall":"# + overall + "}")
  }

  @Test func overallMergesControllersByIdAndSumsDwell() {
    let a = Self.stats(AnalyticsFixture.text, file: "a.ndjson")
    let b = Self.stats(AnalyticsFixture.text, file: "b.ndjson")
    let c = Self.stats(ExportCLITests.other, file: "c.ndjson")
    let report = StatsReport(sessions: [a, b, c])
    #expect(report.overall.journals == 3)
    #expect(report.overall.events == 22 + 22 + 7)
    #expect(
      report.overall.controllers == [
        .init(controller: "home", className: "Home", visits: 2, dwellMicroseconds: 1_994_000, openVisits: 0),
        .init(controller: "notes", className: "Notes", visits: 2, dwellMicroseconds: 1_500_000, openVisits: 2),
        .init(controller: "x", className: "X", visits: 1, dwellMicroseconds: 8_500, openVisits: 1),
      ])
    #expect(report.overall.findingsByRule["visible-count"] == 2)
    #expect(report.overall.firstTime == c.firstTime, "the other journal starts earlier")
    #expect(report.overall.lastTime == a.lastTime)
    #expect(
      report.text.hasSuffix(
        """
        == overall: 3 journals
        events    51 from 2026-01-01T00:00:00.000000Z to 2026-11-29T10:00:02.000000Z (28720802000.000 ms)
        types     session 3, alloc 5, root 3, link 2, touches 2, pan 6, move 2, lifecycle 21, mark 5, swipe 2
        moves     2 (2 animated): left 2, right 0, up 0, down 0; programmatic 0, pan 2, fling 0, goToRoot 0
        pans      6: committed 2, snapBack 0, blocked 2, refused 2, cancelled 0
        modals    0 presented, 0 deallocated, 0 leaked (0 modal-leak findings)
        findings  6 errors, 2 warnings: malformed 2, unknown-type 2, will-repeated 2, visible-count 2

        controller  class  visits  dwell_ms  open  incomplete
        home        Home        2  1994.000     0           0
        notes       Notes       2  1500.000     2           0
        x           X           1     8.500     1           0

        """))
  }

  /// A modal presented by home and never cleaned up: home reappears (its didAppear at
  /// seq 18), the modal is still linked and alive: one modal-leak, one leaked modal.
  static let leak = """
    {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"L"}
    {"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"home","class":"Home"}
    {"seq":2,"time":"2026-01-01T00:00:00.002000Z","type":"root","controller":"home"}
    {"seq":3,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"home","callback":"didLoad"}
    {"seq":4,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"home","callback":"willAppear"}
    {"seq":5,"time":"2026-01-01T00:00:00.002000Z","type":"lifecycle","controller":"home","callback":"didAppear"}
    {"seq":6,"time":"2026-01-01T00:00:00.003000Z","type":"alloc","controller":"sheet","class":"Sheet"}
    {"seq":7,"time":"2026-01-01T00:00:00.003000Z","type":"modal","controller":"sheet","presenter":"home"}
    {"seq":8,"time":"2026-01-01T00:00:00.003000Z","type":"link","from":"home","direction":"down","to":"sheet"}
    {"seq":9,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"sheet","callback":"didLoad"}
    {"seq":10,"time":"2026-01-01T00:00:00.003000Z","type":"move","from":"home","to":"sheet","direction":"down","trigger":"programmatic","animated":false}
    {"seq":11,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"home","callback":"willDisappear"}
    {"seq":12,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"sheet","callback":"willAppear"}
    {"seq":13,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"home","callback":"didDisappear"}
    {"seq":14,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"sheet","callback":"didAppear"}
    {"seq":15,"time":"2026-01-01T00:00:00.504000Z","type":"move","from":"sheet","to":"home","direction":"up","trigger":"programmatic","animated":false}
    {"seq":16,"time":"2026-01-01T00:00:00.504000Z","type":"lifecycle","controller":"sheet","callback":"willDisappear"}
    {"seq":17,"time":"2026-01-01T00:00:00.504000Z","type":"lifecycle","controller":"home","callback":"willAppear"}
    {"seq":18,"time":"2026-01-01T00:00:00.504000Z","type":"lifecycle","controller":"sheet","callback":"didDisappear"}
    {"seq":19,"time":"2026-01-01T00:00:00.504000Z","type":"lifecycle","controller":"home","callback":"didAppear"}
    {"seq":20,"time":"2026-01-01T00:00:01.000000Z","type":"mark","label":"end"}

    """

  @Test func modalsPresentedAndLeakedWithTheirFindings() {
    let s = Self.stats(Self.leak, file: "l.ndjson")
    #expect(s.modalsPresented == 1)
    #expect(s.modalsDeallocated == 0)
    #expect(s.leakedModals == ["sheet"])
    #expect(s.modalLeakFindings == 1)
    #expect(s.findingsByRule == ["modal-leak": 1])
    #expect(
      s.controllers == [
        .init(controller: "home", className: "Home", visits: 2, dwellMicroseconds: 497_000, openVisits: 1),
        .init(controller: "sheet", className: "Sheet", visits: 1, dwellMicroseconds: 501_000, openVisits: 0),
      ])
    let text = StatsReport(sessions: [s]).text
    #expect(text.contains("\nmodals    1 presented, 0 deallocated, 1 leaked (1 modal-leak finding): sheet\n"))
  }

  @Test func cleanedUpModalsAreDeallocatedNotLeaked() throws {
    let navigator = try ScenarioCompiler.record(
      Array("controller home Home\nroot home\nmodal sheet Sheet down\nmove up\n".utf8), script: "m.scenario",
      profile: .intended)
    let s = Self.stats(String(decoding: navigator.journal, as: UTF8.self), file: "m.ndjson")
    #expect(s.modalsPresented == 1)
    #expect(s.modalsDeallocated == 1)
    #expect(s.leakedModals.isEmpty)
    #expect(s.findings == 0)
    #expect(s.eventsByType["dealloc"] == 1 && s.eventsByType["unlink"] == 1)
  }

  @Test func theCommandPrintsTextOrJSONAndExitsTwoOnAnUnreadableFile() throws {
    let dir = try TemporaryDirectory()
    let a = try dir.write("j.ndjson", AnalyticsFixture.text)
    let text = try Binary.run(["stats", a])
    #expect(text.status == 2, "lifecycle findings are counted, not judged; the malformed line is a format error")
    #expect(text.stdout == Self.fixtureText.replacingOccurrences(of: "== j.ndjson:", with: "== \(a):"))
    #expect(text.stderr.isEmpty)
    let json = try Binary.run(["stats", "--json", a])
    #expect(json.status == 2)
    let document = Self.fixtureJSON.replacingOccurrences(of: #""file":"j.ndjson""#, with: #""file":"\#(a)""#)
    #expect(json.stdout.hasPrefix(#"{"sessions":["# + document + #"],"overall":{"file":null,"#))
    #expect(json.stdout.hasSuffix("}\n"))
    let missing = try Binary.run(["stats", a, dir.file("none.ndjson")])
    #expect(missing.status == 2)
    #expect(
      missing.stderr == "spatial-replay: error: \(dir.file("none.ndjson")): cannot open: No such file or directory\n")
    #expect(missing.stdout == text.stdout, "the readable journal is still reported")
  }

  /// A screen on display for 350 ms whose didAppear never came (a legacy move): its visit
  /// counts from the willAppear and is flagged, never a silent zero.
  static let missingDidAppear = """
    {"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":"S"}
    {"seq":1,"time":"2026-11-29T10:00:00.000000Z","type":"alloc","controller":"home","class":"Home"}
    {"seq":2,"time":"2026-11-29T10:00:00.000000Z","type":"alloc","controller":"notes","class":"Notes"}
    {"seq":3,"time":"2026-11-29T10:00:00.000000Z","type":"root","controller":"home"}
    {"seq":4,"time":"2026-11-29T10:00:00.000000Z","type":"lifecycle","controller":"home","callback":"didLoad"}
    {"seq":5,"time":"2026-11-29T10:00:00.000000Z","type":"lifecycle","controller":"home","callback":"willAppear"}
    {"seq":6,"time":"2026-11-29T10:00:00.000000Z","type":"lifecycle","controller":"home","callback":"didAppear"}
    {"seq":7,"time":"2026-11-29T10:00:00.000000Z","type":"link","from":"home","direction":"right","to":"notes"}
    {"seq":8,"time":"2026-11-29T10:00:00.000000Z","type":"lifecycle","controller":"notes","callback":"didLoad"}
    {"seq":9,"time":"2026-11-29T10:00:01.000000Z","type":"move","from":"home","to":"notes","direction":"right","trigger":"programmatic","animated":true}
    {"seq":10,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"home","callback":"willDisappear"}
    {"seq":11,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}
    {"seq":12,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"home","callback":"didDisappear"}
    {"seq":13,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}
    {"seq":14,"time":"2026-11-29T10:00:01.350000Z","type":"move","from":"notes","to":"home","direction":"left","trigger":"programmatic","animated":false}
    {"seq":15,"time":"2026-11-29T10:00:01.350000Z","type":"lifecycle","controller":"notes","callback":"willDisappear"}
    {"seq":16,"time":"2026-11-29T10:00:01.350000Z","type":"lifecycle","controller":"home","callback":"willAppear"}

    """

  @Test func aVisitWithoutDidAppearCountsFromWillAppearAndIsFlagged() {
    let s = Self.stats(Self.missingDidAppear, file: "j.ndjson")
    let notes = s.controllers.first { $0.controller == "notes" }
    #expect(notes?.visits == 1)
    #expect(notes?.dwellMicroseconds == 350_000)
    #expect(notes?.incompleteVisits == 1)
    // home's last willAppear has no didAppear either: an incomplete visit, open at the end.
    let home = s.controllers.first { $0.controller == "home" }
    #expect(home?.visits == 2 && home?.incompleteVisits == 1 && home?.openVisits == 1)
    #expect(StatsReport(sessions: [s]).text.contains("notes       Notes       1   350.000     0           1"))

    let reader = JournalReader(bytes: Array(Self.missingDidAppear.utf8), name: "j.ndjson")
    var builder = TableBuilder(table: .visits, file: "j.ndjson")
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    let complete = Table.visits.ownColumns.firstIndex { $0.name == "complete" }
    let dwell = Table.visits.ownColumns.firstIndex { $0.name == "dwell_ms" }
    #expect(rows.count == 3)
    if let complete, let dwell {
      #expect(rows.map { $0.cells[complete] } == [.boolean(true), .boolean(false), .boolean(false)])
      #expect(rows[1].cells[dwell] == .number(350))
    }
  }
}

/// `stats` consumes batches a ``CheckerPass`` checked on another thread, with each lifecycle
/// record's position when the pass keeps the records' facts: the stats must be those of the items
/// one by one, whatever the batches' sizes.
@Suite struct StatsBatchTests {
  static let journals: [(name: String, bytes: [UInt8])] = {
    var list = TraceTests.journals.map { ($0.name, $0.bytes) }
    list.append(("churn", Simulator.journal(Simulation(events: 6_000, seed: 3, controllers: 40, shape: .churn))))
    // Lifecycle records of a controller before its alloc and after its dealloc: no position, then one.
    let steps: [(type: String, controller: String, rest: String)] = [
      ("lifecycle", "a", #""callback":"didAppear""#), ("alloc", "a", #""class":"A""#),
      ("lifecycle", "a", #""callback":"willDisappear""#), ("lifecycle", "a", #""callback":"didAppear""#),
      ("dealloc", "a", ""), ("lifecycle", "a", #""callback":"didAppear""#),
      ("lifecycle", "b", #""callback":"willAppear""#), ("alloc", "b", #""class":"B""#),
      ("lifecycle", "b", #""callback":"didAppear""#),
    ]
    var text = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"s"}"# + "\n"
    for (k, step) in steps.enumerated() {
      let rest = step.rest.isEmpty ? "" : "," + step.rest
      text += #"{"seq":\#(k + 1),"time":"2026-01-01T00:00:00.00\#(k + 1)000Z","type":"\#(step.type)","#
      text += #""controller":"\#(step.controller)"\#(rest)}"# + "\n"
    }
    list.append(("unallocated", Array(text.utf8)))
    list.append(("missing didAppear", Array(StatsTests.missingDidAppear.utf8)))
    return list
  }()

  @Test(arguments: 0..<StatsBatchTests.journals.count)
  func batchesGiveTheStatsOfItemByItem(_ index: Int) {
    let (name, bytes) = Self.journals[index]
    let reader = JournalReader(bytes: bytes, name: name)
    var items: [JournalItem] = []
    while let item = reader.next() { items.append(item) }
    if name == "unallocated" {
      #expect(items.count == 10 && items.allSatisfy { if case .record = $0 { true } else { false } })
    }
    var single = StatsBuilder(file: name)
    for item in items { single.consume(item) }
    let expected = single.finish()
    #expect(expected.controllers.contains { $0.visits > 0 }, "\(name) has visits")
    for facts in [false, true] {
      for size in [1, 7, 300, items.count + 1] {
        var builder = StatsBuilder(file: name)
        var pass = CheckerPass(facts: facts)
        for start in stride(from: 0, to: items.count, by: size) {
          var batch = JournalBatch(Array(items[start..<min(items.count, start + size)]))
          let checked = pass.check(&batch)
          builder.consume(&batch, checked: checked)
        }
        let stats = builder.finish(checked: pass.finish(), state: pass.state)
        #expect(stats == expected, "\(name), facts \(facts), batches of \(size)")
      }
    }
  }
}
