import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// The analyses of navigation: the screen sequence follows the fold's focus,
/// paths count K-grams, funnels match in order, latencies are nearest-rank.
@Suite struct NavigationAnalyticsTests {
  static func records(_ path: String) throws -> [Record] {
    try JournalReader.readAll(path: path).records
  }

  static var bundled: [String] {
    directoryEntries(Repository.journals).filter { $0.hasSuffix(".ndjson") }.map { Repository.journals + "/" + $0 }
  }

  /// The tracker's steps are exactly the fold's focus changes, on every bundled
  /// journal (legacy ones included) and on both simulated shapes.
  @Test func theScreenSequenceIsTheFoldsFocusEachTimeItChanges() throws {
    var journals = try Self.bundled.map { try Self.records($0) }
    journals.append(JournalReader.readAll(bytes: Simulator.journal(Simulation(events: 20_000, seed: 5))).records)
    journals.append(
      JournalReader.readAll(
        bytes: Simulator.journal(Simulation(events: 20_000, seed: 6, controllers: 80, shape: .churn))
      ).records)
    journals.append(
      JournalReader.readAll(bytes: Simulator.journal(Simulation(events: 20_000, seed: 7, profile: .legacy))).records)
    for records in journals {
      var state = State()
      var tracker = ScreenTracker()
      var expected: [(Int, ControllerID)] = []
      var found: [(Int, ControllerID)] = []
      for record in records {
        let before = state.focus
        reduce(into: &state, record)
        if let focus = state.focus, focus != before { expected.append((record.seq, focus)) }
        if case .step(let step) = tracker.consume(record) {
          found.append((step.seq, step.controller))
          #expect(step.className == state[controller: step.controller]?.className)
          #expect(step.previous == before)
        }
      }
      #expect(found.map(\.0) == expected.map(\.0))
      #expect(found.map(\.1) == expected.map(\.1))
      #expect(!found.isEmpty)
    }
  }

  static func steps(_ screens: [String], start: Int64 = 0, gap: Int64 = 1_000_000) -> [ScreenStep] {
    screens.enumerated().map { i, screen in
      ScreenStep(
        seq: i, time: Timestamp(microseconds: start + Int64(i) * gap), controller: ControllerID(screen + "#1"),
        className: screen, previous: nil, previousClass: nil, trigger: nil)
    }
  }

  @Test func pathsAreEveryRunOfKConsecutiveScreens() {
    var counter = PathCounter(steps: 2, key: .class)
    for step in Self.steps(["A", "B", "A", "B", "C"]) { counter.add(step) }
    let counts = Dictionary(uniqueKeysWithValues: counter.paths.map { ($0.path, $0.count) })
    #expect(counts == [["A", "B"]: 2, ["B", "A"]: 1, ["B", "C"]: 1])
    var byController = PathCounter(steps: 3, key: .controller)
    for step in Self.steps(["A", "B"]) { byController.add(step) }
    #expect(byController.paths.isEmpty, "a session shorter than K has no path")

    var totals = PathTotals()
    totals.add(counter.paths, session: "s1")
    totals.add([(["B", "C"], 5)], session: "s2")
    totals.add([(["B", "C"], 1)], session: "s2")
    #expect(
      totals.ranked(top: nil) == [
        .init(path: ["B", "C"], count: 7, sessions: 2), .init(path: ["A", "B"], count: 2, sessions: 1),
        .init(path: ["B", "A"], count: 1, sessions: 1),
      ])
    #expect(totals.ranked(top: 1).count == 1)
  }

  @Test func aFunnelMatchesItsStepsInOrderNotNecessarilyAdjacent() {
    func reached(_ screens: [String], _ funnel: [String], window: Int64? = nil) -> Int {
      var matcher = FunnelMatcher(steps: funnel, key: .class, window: window)
      for step in Self.steps(screens) { matcher.add(step) }
      return matcher.reached().count
    }
    #expect(reached(["A", "X", "B", "Y", "C"], ["A", "B", "C"]) == 3)
    #expect(reached(["B", "C", "A"], ["A", "B", "C"]) == 1)
    #expect(reached(["C", "B"], ["A", "B"]) == 0)
    #expect(reached(["A", "B", "A", "B"], ["A", "B", "A", "B"]) == 4, "a screen may be several steps")
    // Within 2 s of A: the first A reaches only B (C is 4 s later); the second A reaches C.
    #expect(reached(["A", "B", "X", "A", "C"], ["A", "C"], window: 2_000_000) == 2)
    #expect(reached(["A", "X", "X", "C"], ["A", "C"], window: 2_000_000) == 1)

    var totals = FunnelTotals(steps: ["A", "B"])
    totals.add([0, 3_000], session: "s1")
    totals.add([0], session: "s2")
    totals.add([], session: "s3")
    totals.add([10, 1_010], session: "s4")
    let result = totals.result
    #expect(result.map(\.sessions) == [3, 2])
    #expect(result[1].dropOff == 1)
    #expect(result[1].conversion == 2.0 / 3.0)
    #expect(result[1].medianMicroseconds == 1_000, "nearest rank of [1000, 3000] at 50 %")
    #expect(totals.sessions.count == 4)
  }

  @Test func percentilesAreByNearestRankAsDuckDBsQuantileDisc() {
    // Reference values from DuckDB 2.0: quantile_disc over 1..n.
    let cases: [(n: Int64, p50: Int64, p90: Int64, p99: Int64)] = [
      (1, 1, 1, 1), (2, 1, 2, 2), (4, 2, 4, 4), (10, 5, 9, 10), (11, 6, 10, 11),
    ]
    for c in cases {
      let d = Distribution(Array((1...c.n).reversed()))
      #expect(d.percentile(50) == c.p50 && d.percentile(90) == c.p90 && d.percentile(99) == c.p99, "n \(c.n)")
    }
    #expect(Distribution().percentile(50) == nil)
  }

  @Test func latencyTimesAppearancesFirstArrivalsAndVisits() throws {
    let records = try Self.records(Repository.journals + "/notes.intended.ndjson")
    var builder = LatencyBuilder(key: .controller)
    for record in records { builder.consume(record) }
    builder.finish()
    let visits = builder.screens.values.map(\.dwell.count).reduce(0, +)
    var rows: [TableRow] = []
    var table = TableBuilder(table: .visits, file: "n")
    let reader = try JournalReader(path: Repository.journals + "/notes.intended.ndjson")
    while let item = reader.next() { table.consume(item, into: &rows) }
    table.finish(into: &rows)
    #expect(visits == rows.count, "one dwell per row of the visits table")
    // Every screen that was ever the focus has exactly one first arrival.
    #expect(builder.screens.values.allSatisfy { $0.firstArrival.count <= 1 })
    let appearances = builder.screens.values.map(\.appearance.count).reduce(0, +)
    #expect(appearances >= visits - 1 && appearances > 0)
  }
}

/// `stats --by class`: the controllers' rows merged by class, alone or with header fields.
@Suite struct StatsByClassTests {
  @Test func instancesOfAClassAreOneRow() throws {
    var stats = SessionStats()
    stats.controllers = [
      .init(controller: "Compose#1", className: "Compose", visits: 2, dwellMicroseconds: 500, openVisits: 0),
      .init(controller: "Home#1", className: "Home", visits: 1, dwellMicroseconds: 100, openVisits: 1),
      .init(controller: "Compose#2", className: "Compose", visits: 3, dwellMicroseconds: 700, openVisits: 1),
      .init(controller: "ghost", className: nil, visits: 1, dwellMicroseconds: 5, openVisits: 0),
    ]
    let merged = stats.mergedByClass().controllers
    #expect(merged.map(\.controller.rawValue) == ["Compose", "Home", "ghost"])
    #expect(merged.map(\.visits) == [5, 1, 1])
    #expect(merged.map(\.dwellMicroseconds) == [1200, 100, 5])
    #expect(merged.map(\.openVisits) == [1, 1, 0])
  }

  @Test func theCommandMergesByClassPerGroup() throws {
    let churn = Simulator.journal(Simulation(events: 6_000, seed: 3, controllers: 40, shape: .churn))
    let byClass = try Binary.run(["stats", "--by", "build,class", "--json", "-"], stdin: churn)
    #expect(byClass.status == 0, "\(byClass)")
    let plain = try Binary.run(["stats", "--json", "-"], stdin: churn)
    #expect(byClass.stdout.contains("\"controller\":\"ComposeViewController\""))
    #expect(!byClass.stdout.contains("ComposeViewController#"))
    #expect(plain.stdout.contains("ComposeViewController#1"))
    let twice = try Binary.run(["stats", "--by", "class,class", "-"], stdin: churn)
    #expect(twice.status == 64 && twice.stderr.contains("--by names class twice"))
  }
}

/// A funnel's steps are names the journals must hold: a misspelt screen is a
/// usage error with a suggestion, not a funnel of zeros on a dashboard.
@Suite struct FunnelStepNameTests {
  static let journals = Repository.journals

  @Test func aMisspeltStepIsAUsageErrorWithASuggestion() throws {
    let result = try Binary.run(["funnel", "--steps", "NotesListViewControler,NoteEditorViewController", Self.journals])
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    #expect(
      result.stderr.hasPrefix(
        "spatial-replay: error: unknown screen 'NotesListViewControler' in --steps (did you mean NotesListViewController?)\n"
      ), "\(result)")
    let start = try Binary.run(["funnel", "--steps", "Note", Self.journals])
    #expect(start.status == 64, "\(start)")
    #expect(
      start.stderr.contains(
        "(did you mean NoteEditorViewController, NotesListViewController, NotesViewController?)"), "\(start)")
    let nothing = try Binary.run(["funnel", "--json", "--steps", "HomeViewController,Zzzzzz", Self.journals])
    #expect(nothing.status == 64 && nothing.stderr.contains("unknown screen 'Zzzzzz' in --steps\n"), "\(nothing)")
  }

  @Test func aStepOfTheOtherKindSaysWhichBy() throws {
    let id = try Binary.run(["funnel", "--steps", "notes", Self.journals])
    #expect(id.status == 64, "\(id)")
    #expect(
      id.stderr.contains("'notes' is a controller id, and screens are classes (use --by controller"), "\(id)")
    let byID = try Binary.run(["funnel", "--by", "controller", "--steps", "NotesViewController", Self.journals])
    #expect(byID.status == 64, "\(byID)")
    #expect(byID.stderr.contains("'NotesViewController' is a class, and with --by controller screens are ids"))
    let typo = try Binary.run(["funnel", "--by", "controller", "--steps", "home,notse", Self.journals])
    #expect(typo.stderr.contains("unknown screen 'notse' in --steps (did you mean notes?)"), "\(typo)")
  }

  @Test func knownStepsStillCountAndFormatErrorsWin() throws {
    let good = try Binary.run(["funnel", "--steps", "NotesListViewController,NoteEditorViewController", Self.journals])
    #expect(good.status == 0 && good.stderr.isEmpty, "\(good)")
    let byID = try Binary.run(["funnel", "--by", "controller", "--steps", "home,notes", Self.journals])
    #expect(byID.status == 0, "\(byID)")
    // A journal with a format error: its status (2) wins, and the unknown step is a warning.
    let header = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S"}"#
    let broken = try Binary.run(["funnel", "--steps", "Home", "-"], stdin: header + "\nnot json\n")
    #expect(broken.status == 2, "\(broken)")
    #expect(broken.stderr.contains("spatial-replay: warning: unknown screen 'Home' in --steps"), "\(broken)")
  }
}

/// The analyses of navigation on careless input: a storm of broken lines is
/// reported with its lines, the first few only, then a count; blank lines are
/// warnings, shown once.
@Suite struct NavigationAnalyticsHostileTests {
  @Test(arguments: ["paths", "funnel", "latency"])
  func aStormOfBrokenLinesIsBoundedOnStderr(_ command: String) throws {
    // The header, and for the funnel the screen of its step (a step no journal holds is a usage error).
    var header = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S"}"#
    if command == "funnel" {
      header += "\n" + #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"a","class":"A"}"#
    }
    let broken = header + "\n" + String(repeating: "<p>not a journal</p>\n", count: 3_000)
    let extra = command == "funnel" ? ["--steps", "A"] : []
    let result = try Binary.run([command] + extra + ["-"], stdin: broken)
    #expect(result.status == 2, "\(result.stderr.prefix(300))")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count <= 25, "\(lines.count) lines")
    let first = command == "funnel" ? "<stdin>:3:" : "<stdin>:2:"
    #expect(lines.first?.hasPrefix(first) == true, "the first names its line: \(lines.first ?? "")")
    #expect(lines.last?.contains("2,980 more errors not shown") == true, "\(lines.last ?? "")")
    let blank = try Binary.run([command] + extra + ["-"], stdin: header + "\n" + String(repeating: "\n", count: 3_000))
    #expect(blank.status == 0, "\(blank.stderr.prefix(300))")
    #expect(blank.stderr.split(separator: "\n").count <= 3, "\(blank.stderr.prefix(300))")
  }
}
