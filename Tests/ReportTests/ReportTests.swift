import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import Report
@testable import TestSupport

/// The report's data and page, without a browser: the data block replayed
/// (keyframes and deltas) against the fold at every event, the escaping that
/// keeps journal text out of the markup, the Content-Security-Policy hashes,
/// and the command's statuses.
@Suite struct ReportTests {
  static let journals = [
    "demo.intended", "demo.legacy", "notes.intended", "notes.legacy", "cycle.legacy", "gotoroot.legacy",
  ]

  static func path(_ name: String) -> String { Repository.root + "/Journals/" + name + ".ndjson" }

  /// The page's data block, parsed.
  static func data(_ page: [UInt8]) throws -> [String: Any] {
    let text = String(decoding: page, as: UTF8.self)
    let open = try #require(text.range(of: #"<script type="application/json" id="report-data">"#))
    let close = try #require(text.range(of: "</script>", range: open.upperBound..<text.endIndex))
    let json = String(text[open.upperBound..<close.lowerBound])
    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }

  // MARK: The data block against the fold

  /// Applying the deltas event by event gives the fold's state after every
  /// event (alive controllers, phase, load count, modal, focus, the layout's
  /// placements, detached controllers and links, and the transition), agrees
  /// with every keyframe, and every sentence read back from its template is
  /// the event's.
  @Test(arguments: journals)
  func deltasReplayTheFold(_ name: String) throws {
    let (run, _, _) = try ReportRun.read(path: Self.path(name))
    try Self.replay(run, name)
  }

  /// The same on a simulated real app's session (a new controller per modal).
  @Test func deltasReplayTheFoldOnChurn() throws {
    var records: [Record] = []
    Simulator.records(
      Simulation(events: 3000, seed: 11, controllers: 40, profile: .legacy, shape: .churn)
    ) { records += $0 }
    let run = ReportRun(name: "churn", records: records, lines: records.indices.map { $0 + 1 }, findings: [])
    try Self.replay(run, "churn")
  }

  /// A move whose seq repeats the last one's (the reader keeps it and reports `seq-repeat`)
  /// takes the place of the transition it repeats: the page's summary is the new move's,
  /// not the one made when the first started.
  @Test func aTransitionReplacedByARepeatedSeqHasItsOwnSummary() throws {
    let events: [(Int, Event)] = [
      (0, .session(SessionHeader(session: "S"))),
      (1, .alloc(controller: "a", className: "A")),
      (2, .alloc(controller: "b", className: "B")),
      (3, .root(controller: "a")),
      (4, .link(from: "a", direction: .right, to: "b")),
      (5, .lifecycle(controller: "a", callback: .didLoad)),
      (6, .lifecycle(controller: "a", callback: .willAppear)),
      (7, .lifecycle(controller: "a", callback: .didAppear)),
      (10, .move(Move(from: "a", to: "b", direction: .right, trigger: .pan, animated: true))),
      (11, .lifecycle(controller: "b", callback: .willAppear)),
      (10, .move(Move(from: "b", to: "a", direction: .left, trigger: .programmatic, animated: false))),
      (12, .lifecycle(controller: "a", callback: .willAppear)),
    ]
    let records = events.map { Record(seq: $0.0, time: Timestamp(microseconds: Int64($0.0) * 1000), event: $0.1) }
    let run = ReportRun(name: "repeat", records: records, lines: records.indices.map { $0 + 1 }, findings: [])
    try Self.replay(run, "repeat")
  }

  static func replay(_ run: ReportRun, _ name: String) throws {
    let data = try Self.data(ReportPage(run: run).bytes())
    let page = try #require((data["runs"] as? [[String: Any]])?.first)
    let str = try #require(page["str"] as? [String])
    let ids = try #require(page["ids"] as? [Int]).map { str[$0] }
    let keys = try #require(page["keys"] as? [[String: Any]])
    let deltas = try #require(page["d"] as? [Any])
    let layouts = try #require(page["layouts"] as? [[String: Any]])
    let transitions = try #require(page["transitions"] as? [[Any]])
    let texts = try #require(page["text"] as? [Int])
    let laneA = try #require(page["a"] as? [Int])
    let laneB = try #require(page["b"] as? [Int])
    let types = try #require(page["k"] as? [Int])
    let shown = try #require(page["shown"] as? [Int])
    let timeline = Timeline(records: run.records)
    #expect(deltas.count == timeline.records.count)
    #expect(layouts.first?["full"] as? Int == 1, "the first layout is whole")

    // Layouts materialised in order: placements, detached, edges.
    var placed: [Int: [Int]] = [:]
    var detached: [Int: Int] = [:]
    var edges: [[Int]: Int] = [:]
    var root = -1
    var materialised: [([Int: [Int]], Set<Int>, [[Int]: Int], Int)] = []
    for entry in layouts {
      if entry["full"] != nil {
        placed = [:]
        detached = [:]
        edges = [:]
      }
      if let r = entry["root"] as? Int { root = r }
      for p in entry["p"] as? [[Int]] ?? [] { placed[p[0]] = p.count == 1 ? nil : Array(p.dropFirst()) }
      for d in entry["d"] as? [[Int]] ?? [] { detached[d[0]] = d.count == 1 ? nil : d[1] }
      for e in entry["e"] as? [[Int]] ?? [] { edges[[e[0], e[1]]] = e[2] == 0 ? nil : e[2] }
      materialised.append((placed, Set(detached.keys), edges, root))
    }

    var rows: [Int: [Int]] = [:]
    var focus = -1
    var layout = -1
    var status: [Int]? = nil
    var keyIndex = 0
    func load(_ key: [String: Any]) {
      rows = [:]
      for row in key["r"] as? [[Int]] ?? [] { rows[row[0]] = Array(row.dropFirst()) }
      focus = key["f"] as? Int ?? -1
      layout = key["l"] as? Int ?? -1
      status = key["t"] as? [Int]
    }
    for i in 0..<deltas.count {
      if let delta = deltas[i] as? [String: Any], i > 0 {
        for row in delta["r"] as? [[Int]] ?? [] {
          if row.count == 1 { rows[row[0]] = nil } else { rows[row[0]] = Array(row.dropFirst()) }
        }
        if let f = delta["f"] as? Int { focus = f }
        if let l = delta["l"] as? Int { layout = l }
        if delta.keys.contains("t") { status = delta["t"] as? [Int] }
      }
      if keyIndex < keys.count, keys[keyIndex]["i"] as? Int == i {
        let before = (rows, focus, layout, status)
        load(keys[keyIndex])
        if i > 0 {
          #expect(
            before.0 == rows && before.1 == focus && before.2 == layout && before.3 == status, "keyframe \(keyIndex)")
        }
        keyIndex += 1
      }
      let state = timeline.state(at: i)
      let alive = state.controllers.filter(\.isAlive)
      #expect(Set(rows.keys.map { ids[$0] }) == Set(alive.map(\.id.rawValue)), "\(name) event \(i): alive")
      for controller in alive {
        guard let lane = ids.firstIndex(of: controller.id.rawValue), let row = rows[lane] else { continue }
        #expect(ControllerState.Phase.allCases[row[0]] == controller.phase, "\(name) event \(i): \(controller.id)")
        #expect(row[1] == controller.loadCount && (row[2] == 1) == controller.isModal)
      }
      #expect((focus >= 0 ? ids[focus] : nil) == state.focus?.rawValue, "\(name) event \(i): focus")
      let expected = MapLayout(state: state)
      let (p, d, e, r) = materialised[layout]
      let placements = Dictionary(
        uniqueKeysWithValues: expected.placements.map {
          ($0.id.rawValue, [$0.position.x, $0.position.y, $0.isModal ? 1 : 0])
        })
      #expect(
        Dictionary(uniqueKeysWithValues: p.map { (ids[$0.key], $0.value) }) == placements,
        "\(name) event \(i): placements")
      #expect(Set(d.map { ids[$0] }) == Set(expected.detached.map(\.rawValue)), "\(name) event \(i): detached")
      #expect((r >= 0 ? ids[r] : nil) == expected.root?.rawValue, "\(name) event \(i): root")
      #expect(
        Dictionary(uniqueKeysWithValues: e.map { ([ids[$0.key[0]], ids[$0.key[1]]].sorted(), $0.value) })
          == Self.links(state), "\(name) event \(i): links")
      if let status, let transition = state.transition {
        let entry = transitions[status[0]]
        #expect(str[entry[0] as! Int] == transition.summary(.unicode), "\(name) event \(i): transition")
        #expect(status[1] == transition.arrivals.count && (status[3] == 1) == !transition.isComplete)
      } else {
        #expect(status == nil && state.transition == nil, "\(name) event \(i): no transition")
      }
      // The sentence, read back as the page reads it.
      let label = { (l: Int) in l < 0 ? "" : shown[l] >= 0 ? str[shown[l]] : ids[l] }
      let t = texts[i]
      let text =
        t < 0
        ? str[-1 - t]
        : ReportStrings.fill(
          str[t], label(laneA[i]), types[i] == Event.Kind.lifecycle.index ? nil : laneB[i] < 0 ? nil : label(laneB[i]))
      #expect(text == run.records[i].event.sentence, "\(name) event \(i): sentence")
    }
    #expect(keyIndex == keys.count)
  }

  /// Every link between two alive controllers, ids sorted, with its line count (2: either side needs two fingers).
  static func links(_ state: State) -> [[String]: Int] {
    var out: [[String]: Int] = [:]
    for controller in state.controllers where controller.isAlive {
      for direction in Direction.slotOrder {
        guard let q = state.neighbour(of: controller.id, direction), let other = state[controller: q], other.isAlive
        else { continue }
        let double = MapLayout.needsTwoFingers(controller.minimumTouches, direction, other.minimumTouches)
        let key = [controller.id.rawValue, other.id.rawValue].sorted()
        out[key] = max(out[key] ?? 0, double ? 2 : 1)
      }
    }
    return out
  }

  /// The findings in the block are `check`'s, in its order.
  @Test(arguments: journals)
  func findingsAreChecks(_ name: String) throws {
    let (run, _, _) = try ReportRun.read(path: Self.path(name))
    let page = try #require((try Self.data(ReportPage(run: run).bytes())["runs"] as? [[String: Any]])?.first)
    let findings = try #require(page["findings"] as? [[Any]])
    let str = try #require(page["str"] as? [String])
    let messages = Checker.check(try JournalReader.readAll(path: Self.path(name)).0).map {
      displayText($0.message, limit: .max)
    }
    #expect(findings.map { str[$0[5] as! Int] } == messages)
    let rules = try #require(page["rules"] as? [String])
    let (records, _) = try JournalReader.readAll(path: Self.path(name))
    let expected = Checker.check(records)
    #expect(findings.map { rules[$0[3] as! Int] } == expected.map(\.rule.id))
    #expect(findings.map { $0[0] as? Int } == expected.map(\.line))
  }

  // MARK: Escaping and the policy

  @Test func htmlSafeStringsCannotEndTheScript() {
    var out: [UInt8] = []
    JSONWriter.appendHTMLSafeString("</script><!--&\u{2028}\u{2029}é\"\\\n\u{1B}", to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == #""\u003c/script\u003e\u003c!--\u0026\u2028\u2029é\"\\\n\u001b""#)
    var journal: [UInt8] = []
    JSONWriter.appendString("</script>&\u{2028}", to: &journal)
    #expect(
      String(decoding: journal, as: UTF8.self) == "\"</script>&\u{2028}\"", "the journal's own escaping is unchanged")
  }

  /// The policy names the hashes of the page's own script and style, and nothing else runs.
  @Test func contentSecurityPolicyHashesThePage() throws {
    let (run, _, _) = try ReportRun.read(path: Self.path("notes.legacy"))
    let page = String(decoding: ReportPage(run: run).bytes(), as: UTF8.self)
    let policy = ReportPage.contentSecurityPolicy
    #expect(policy.hasPrefix("default-src 'none'; "))
    #expect(!policy.contains("connect-src") && !policy.contains("unsafe"))
    #expect(page.contains("content=\"\(policy)\""))
    let script = try #require(page.range(of: "<script>")).upperBound
    let end = try #require(page.range(of: "</script>", range: script..<page.endIndex)).lowerBound
    #expect(policy.contains("'sha256-\(SHA256.base64(Array(page[script..<end].utf8)))'"))
    let style = try #require(page.range(of: "<style>")).upperBound
    let styleEnd = try #require(page.range(of: "</style>", range: style..<page.endIndex)).lowerBound
    #expect(policy.contains("'sha256-\(SHA256.base64(Array(page[style..<styleEnd].utf8)))'"))
    #expect(page.components(separatedBy: "<script").count == 3, "the data block and the script")
    let addresses = page.replacingOccurrences(of: "\"http://www.w3.org/2000/svg\"", with: "")
    #expect(!addresses.contains("http:") && !addresses.contains("https:"), "no address but the SVG namespace")
  }

  /// Ids made of markup stay inside the data block.
  @Test func hostileIDsStayData() throws {
    let ids: [ControllerID] = ["</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>", "a\u{2028}b"]
    var events: [Event] = [.session(SessionHeader(session: "</script>", profile: "intended"))]
    for id in ids { events.append(.alloc(controller: id, className: "<b>")) }
    events.append(.root(controller: ids[0]))
    events.append(.link(from: ids[0], direction: .left, to: ids[1]))
    let records = events.enumerated().map { Record(seq: $0, time: Timestamp(microseconds: Int64($0)), event: $1) }
    let run = ReportRun(name: "<x>", records: records, lines: records.map { $0.seq + 1 }, findings: [])
    let page = ReportPage(run: run).bytes()
    let text = String(decoding: page, as: UTF8.self)
    #expect(text.components(separatedBy: "<script").count == 3)
    #expect(!text.contains("<img") && !text.contains("<b>") && !text.contains("\u{2028}"))
    let data = try Self.data(page)
    let first = try #require((data["runs"] as? [[String: Any]])?.first)
    let str = try #require(first["str"] as? [String])
    let lanes = try #require(first["ids"] as? [Int]).map { str[$0] }
    #expect(lanes == ids.map(\.rawValue), "the ids read back exactly")
  }

  // MARK: Windows

  @Test func windowShowsItsEventsAndFindings() throws {
    let (records, diagnostics) = try JournalReader.readAll(path: Self.path("notes.legacy"))
    #expect(diagnostics.isEmpty)
    let lines = records.map { $0.seq + 1 }
    let findings = Checker.check(records).map(CheckFinding.rule)
    let run = ReportRun(name: "n", records: records, lines: lines, findings: findings, seqs: 40...80)
    #expect(run.window == 40..<81 && run.windowNote == nil)
    let page = try #require((try Self.data(ReportPage(run: run).bytes())["runs"] as? [[String: Any]])?.first)
    #expect((page["findings"] as? [[Any]])?.count == findings.filter { (41...81).contains($0.line) }.count)
    let cut = ReportRun(name: "n", records: records, lines: lines, findings: findings, maxEvents: 100)
    #expect(cut.window == 0..<100)
    #expect(cut.windowNote?.contains("100 events seq 0–99 of the 144 selected") == true)
    // Reading the file keeps only the records up to the window's end, and gives the same page.
    for (seqs, maxEvents) in [(40...80, 250_000), (nil, 100), (30...200, 50)] as [(ClosedRange<Int>?, Int)] {
      let read = try ReportRun.read(path: Self.path("notes.legacy"), name: "n", seqs: seqs, maxEvents: maxEvents).run
      let whole = ReportRun(
        name: "n", records: records, lines: lines, findings: findings, seqs: seqs, maxEvents: maxEvents)
      #expect(read.window == whole.window && read.windowNote == whole.windowNote && read.totalEvents == 144)
      #expect(read.records.count == whole.window.upperBound, "nothing kept past the window")
      #expect(
        ReportPage(run: read).bytes() == ReportPage(run: whole).bytes(), "\(String(describing: seqs)) \(maxEvents)")
    }
  }

  /// `--type`/`--controller`: the selected events are `log`'s, the lanes the controllers'.
  @Test func filterSelectsEventsAndLanes() throws {
    let filter = EventSelection(types: ["move"], controllers: ["compose"])
    let (run, _, _) = try ReportRun.read(path: Self.path("notes.legacy"), filter: filter)
    let page = try #require((try Self.data(ReportPage(run: run).bytes())["runs"] as? [[String: Any]])?.first)
    let steps = try #require(page["sel"] as? [Int])
    var index = 0
    let selected = steps.map { step in
      index += step
      return index
    }
    let expected = run.records.indices.filter { i in
      guard case .move(let move) = run.records[i].event else { return false }
      return move.from == "compose" || move.to == "compose"
    }
    #expect(selected == expected && !expected.isEmpty)
    let str = try #require(page["str"] as? [String])
    let ids = try #require(page["ids"] as? [Int]).map { str[$0] }
    #expect((page["laneSel"] as? [Int])?.map { ids[$0] } == ["compose"])
    #expect(page["filter"] as? String == "type move; controller compose")
    let all = try #require(
      (try Self.data(ReportPage(run: try ReportRun.read(path: Self.path("notes.legacy")).run).bytes())["runs"]
        as? [[String: Any]])?.first)
    #expect(all["sel"] is NSNull && all["laneSel"] is NSNull)
  }

  // MARK: The command

  @Test func commandWritesThePage() throws {
    let directory = try TemporaryDirectory()
    let out = directory.file("r.html")
    let written = try Binary.run(["report", Self.path("notes.legacy"), "-o", out])
    #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
    let page = try directory.text(out)
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    let piped = try Binary.run(["report", Self.path("notes.legacy")])
    #expect(piped.status == 0 && piped.stdout == page, "the same page on standard output")
    let two = try Binary.run([
      "report", Self.path("bisect/build-07"), Self.path("bisect/build-08"), "-o", directory.file("two.html"),
    ])
    #expect(two.status == 0, "\(two)")
  }

  /// `report A B --match`: the runs lined up as `diff` lines them up, and the page says how.
  @Test func twoRunsAreMatchedAsDiffMatchesThem() throws {
    let directory = try TemporaryDirectory()
    let base = try DiffFixture.base()
    func write(_ records: [Record], _ name: String) throws -> String {
      try directory.write(name, records.map { $0.ndjson + "\n" }.joined())
    }
    let a = try write(base.countingInstances(), "a.ndjson")
    let b = try write(base.allocatingEarly("PrefetchViewController").countingInstances(), "b.ndjson")
    func comparison(_ options: [String]) throws -> [String: Any] {
      let out = directory.file("two.html")
      let result = try Binary.run(["report"] + options + [a, b, "-o", out])
      #expect(result.status == 0, "\(result)")
      return try #require(try Self.data(try directory.read(out))["cmp"] as? [String: Any])
    }
    let byDefault = try comparison([])
    #expect(byDefault["match"] as? String == "class")
    #expect(
      byDefault["matchText"] as? String
        == "class and order of allocation (auto: the ids of both runs are instance counters or addresses)")
    #expect(byDefault["div"] is NSNull, "renumbered ids only: identical")
    let byClass = try comparison(["--match", "class"])
    #expect(byClass["matchText"] as? String == "class and order of allocation")
    #expect(byClass["div"] is NSNull)
    let byID = try comparison(["--match", "id"])
    #expect(byID["match"] as? String == "id")
    #expect((byID["hunks"] as? [Any])?.isEmpty == false)
  }

  @Test(arguments: [
    (["report", "--match", "class", "x"], 64, "--match lines up two runs A B; one journal has nothing to match"),
    (["report", "--match", "name", "a", "b"], 64, "--match takes one of auto, id, class, got 'name'"),
    (["report"], 64, "report needs one FILE, or two runs A and B ('-' for standard input), got 0"),
    (["report", "a", "b", "c"], 64, "report needs one FILE, or two runs A and B ('-' for standard input), got 3"),
    (["report", "--from", "9", "--to", "3", "x"], 64, "--from 9 is after --to 3"),
    (["report", "--from", "1", "a", "b"], 64, "--from and --to apply to one journal; two runs are shown whole"),
    (["report", "--max-events", "0", "x"], 64, "--max-events takes a whole number ≥ 1, got '0'"),
    (["report", "/nonexistent/j.ndjson"], 2, "/nonexistent/j.ndjson"),
    (["report", "--from", "500", path("notes.legacy")], 2, "notes.legacy.ndjson has no event with seq in 500…"),
    (
      ["report", "--controller", "compse", path("notes.intended")], 64,
      "--controller: no event names 'compse' (did you mean compose?)"
    ),
    (
      ["report", "--controller", "nobody", path("notes.intended"), path("notes.legacy")], 64,
      "--controller: no event names 'nobody'"
    ),
  ])
  func commandRefuses(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == status, "\(result)")
    #expect(result.stderr.contains(message), "\(result)")
    #expect(result.stdout.isEmpty)
  }
}
