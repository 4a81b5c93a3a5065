import Foundation
import Journal
import Testing

@testable import Projection
@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A corpus of app-shaped journals with one real-world bug planted in each.
///
/// A seeded generator writes the scenario of an app (60 to 200 screens on a grid,
/// moves and pans, modals each with a new id presented and dismissed, some of
/// them nested, `goToRoot` back to a root that presents modals again and again);
/// the reference model records it under the intended profile; then exactly one
/// bug is planted by editing the recorded records (seq renumbered, times left
/// non-decreasing). `check` must report each bug once, where it shows, and
/// nothing for the clean recordings ("one defect, one finding").
///
/// Ids come in two styles: plain names (`screen12`, `modal7`) and the recording
/// guide's `ClassName#n`, n counting every instance the app allocates.
///
/// A second test runs the independent oracle, `.ci/check_oracle.py`, over the same
/// journals and compares its findings with the checker's.
@Suite struct PlantedBugCorpusTests {
  @Test(arguments: PlantedCorpus.plantedCases)
  func eachPlantedBugIsFoundOnceWhereItShows(_ plantedCase: PlantedCase) throws {
    let journal = try PlantedCorpus.journal(plantedCase)
    let expected = try #require(journal.expected)
    let errors = Checker.check(journal.records).filter { $0.severity == .error }
    let shown = errors.prefix(8).map(checkSummaryLine)
    #expect(errors.count == 1, "one finding expected, \(errors.count) found: \(shown)")
    let finding = try #require(errors.first, "no finding: expected \(expected)")
    #expect(finding.rule.id == expected.rule, "\(shown)")
    #expect(finding.line == expected.line, "expected at line \(expected.line): \(shown)")
    #expect(finding.controllers.contains(expected.controller), "should name \(expected.controller): \(shown)")
  }

  /// With `SPATIAL_REPLAY_CORPUS_DIR=DIR`, every journal of the corpus and the
  /// scenarios are also written to DIR (`NAME.ndjson`, `STYLE-SEED.scenario`), to be read with `check`.
  @Test func theCorpusCanBeWrittenOut() throws {
    guard let directory = getenv("SPATIAL_REPLAY_CORPUS_DIR").map({ String(cString: $0) }) else { return }
    for plantedCase in PlantedCorpus.plantedCases + PlantedCorpus.cleanCases {
      let bytes = Record.journal(try PlantedCorpus.journal(plantedCase).records)
      let path = "\(directory)/\(plantedCase.name).ndjson"
      #expect(TemporaryFiles.write(bytes, to: path), "cannot write \(path)")
    }
    for style in CorpusIDStyle.allCases {
      for seed in PlantedCorpus.seeds {
        var app = CorpusApp(style: style, seed: seed)
        let path = "\(directory)/\(style)-\(seed).scenario"
        #expect(TemporaryFiles.write(Array(app.script().utf8), to: path), "cannot write \(path)")
      }
    }
  }

  @Test(arguments: PlantedCorpus.cleanCases)
  func cleanRecordingsHaveNoFinding(_ cleanCase: PlantedCase) throws {
    let journal = try PlantedCorpus.journal(cleanCase)
    let found = Checker.check(journal.records)
    #expect(found.isEmpty, "\(found.prefix(5).map(checkSummaryLine))")
  }

  @Test func theCorpusIsAppShaped() throws {
    for style in CorpusIDStyle.allCases {
      for seed in PlantedCorpus.seeds {
        let records = try PlantedCorpus.base(style, seed)
        var allocs = 0
        var modals = 0
        var nested = 0
        var presenters: Set<ControllerID> = []
        for record in records {
          switch record.event {
          case .alloc: allocs += 1
          case .modal(_, let p):
            modals += 1
            presenters.insert(p)
          default: break
          }
        }
        for record in records {
          if case .modal(let m, _) = record.event, presenters.contains(m) { nested += 1 }
        }
        #expect(allocs - modals >= 60 && allocs - modals <= 200, "\(style) \(seed): \(allocs - modals) screens")
        #expect(modals >= 20, "\(style) \(seed): \(modals) modals")
        #expect(nested >= 1, "\(style) \(seed): no nested modal")
      }
    }
  }

  /// `.ci/check_oracle.py` and the checker report the same lifecycle and graph
  /// findings, as multisets of (rule, seq), on every journal of the corpus, and
  /// the oracle finds exactly the planted bug in each planted journal.
  @Test(.enabled(if: corpusPythonFound, "needs python3 on PATH to run .ci/check_oracle.py"))
  func theOracleAgreesWithTheChecker() throws {
    let directory = try TemporaryDirectory()
    var journals: [(path: String, journal: PlantedJournal)] = []
    for plantedCase in PlantedCorpus.plantedCases + PlantedCorpus.cleanCases {
      let journal = try PlantedCorpus.journal(plantedCase)
      let path = try directory.write("\(plantedCase.name).ndjson", Record.journal(journal.records))
      journals.append((path, journal))
    }
    let oracle = Repository.root + "/.ci/check_oracle.py"
    let output = directory.file("oracle.out")
    let command =
      "python3 \(shellQuoted(oracle)) \(journals.map { shellQuoted($0.path) }.joined(separator: " "))"
      + " > \(shellQuoted(output))"
    try #require(system(command) == 0, "\(command) failed")
    var byFile: [String: [String]] = [:]
    for line in try directory.text(output).split(separator: "\n") {
      let fields = try #require(OracleFinding(String(line)), "not an oracle finding: \(line)")
      byFile[fields.file, default: []].append("\(fields.rule)@\(fields.seq)")
    }
    for (path, journal) in journals {
      let oracleFindings = (byFile[path] ?? []).sorted()
      let checkerFindings = Checker.check(journal.records)
        .filter { lifecycleAndGraphRules.contains($0.rule.id) && ($0.severity == .error || $0.severity == .warning) }
        .map { "\($0.rule)@\($0.seq ?? -1)" }
        .sorted()
      let name = path.split(separator: "/").last.map(String.init) ?? path
      #expect(checkerFindings == oracleFindings, "\(name): checker \(checkerFindings), oracle \(oracleFindings)")
      if let expected = journal.expected {
        #expect(oracleFindings == ["\(expected.rule)@\(expected.line - 1)"], "\(name): the oracle on the corpus")
      }
    }
  }
}

/// The rules of the model's lifecycle and graph (not the journal integrity rules).
private let lifecycleAndGraphRules: Set<String> = [
  "self-link", "slot-occupied", "id-reused", "unknown-controller", "use-after-dealloc", "load-repeated",
  "appear-before-load", "did-repeated", "did-without-will", "will-repeated", "misattributed",
  "incomplete-transition", "order", "focus-mismatch", "not-neighbour", "modal-leak", "dealloc-forbidden",
  "visible-count", "touches-violated",
]

private let corpusPythonFound = system("command -v python3 >/dev/null 2>&1") == 0

private func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// One line of the oracle's output for several journals: `{"file":…,"rule":…,"seq":…,"line":…}`.
private struct OracleFinding {
  var file: String
  var rule: String
  var seq: Int

  /// Reads the three fields the oracle writes (its paths and rule ids need no JSON escapes here).
  init?(_ line: String) {
    func field(_ key: String) -> Substring? {
      guard let start = line.range(of: "\"\(key)\":") else { return nil }
      var rest = line[start.upperBound...]
      if rest.first == "\"" {
        rest = rest.dropFirst()
        return rest.firstIndex(of: "\"").map { rest[..<$0] }
      }
      return rest.prefix { $0.isNumber }
    }
    guard let file = field("file"), let rule = field("rule"), let seq = field("seq").flatMap({ Int($0) }) else {
      return nil
    }
    self.file = String(file)
    self.rule = String(rule)
    self.seq = seq
  }
}

// MARK: - The corpus

/// The bugs planted, each as an app would have it.
enum PlantedBug: String, CaseIterable, Sendable {
  /// A retain cycle: a dismissed modal is unlinked but never deallocated.
  case retainCycle = "retain-cycle"
  /// A modal never dismissed: neither unlinked nor deallocated when its presenter reappears.
  case neverDismissed = "never-dismissed"
  /// A didAppear delivered twice in a row.
  case didAppearTwice = "didAppear-twice"
  /// A willDisappear that never comes.
  case lostWillDisappear = "lost-willDisappear"
  /// A didLoad delivered twice in a row.
  case didLoadTwice = "didLoad-twice"
  /// A didLoad never sent for a controller that later appears.
  case lostDidLoad = "lost-didLoad"

  /// The one finding the bug must give.
  var rule: String {
    switch self {
    case .retainCycle, .neverDismissed: "modal-leak"
    case .didAppearTwice: "did-repeated"
    case .lostWillDisappear: "did-without-will"
    case .didLoadTwice: "load-repeated"
    case .lostDidLoad: "appear-before-load"
    }
  }
}

/// How the generated app names its controllers.
enum CorpusIDStyle: String, CaseIterable, Sendable {
  /// `screen12`, `modal7`.
  case plain
  /// `ProductViewController#115`: the class, then a count of every instance allocated.
  case numbered
}

/// One journal of the corpus: a bug (nil: the clean recording), an id style and a seed.
struct PlantedCase: Sendable, CustomTestStringConvertible {
  var bug: PlantedBug?
  var style: CorpusIDStyle
  var seed: UInt64

  var name: String { "\(bug?.rawValue ?? "clean")-\(style)-\(seed)" }
  var testDescription: String { name }
}

/// A journal of the corpus and the one finding it must give.
struct PlantedJournal {
  var records: [Record]
  var expected: (rule: String, line: Int, controller: ControllerID)?
}

enum PlantedCorpus {
  static let seeds: [UInt64] = [1, 2, 3]

  static let plantedCases: [PlantedCase] = PlantedBug.allCases.flatMap { bug in
    CorpusIDStyle.allCases.flatMap { style in seeds.map { PlantedCase(bug: bug, style: style, seed: $0) } }
  }

  static let cleanCases: [PlantedCase] = CorpusIDStyle.allCases.flatMap { style in
    seeds.map { PlantedCase(bug: nil, style: style, seed: $0) }
  }

  /// The clean recordings, each made once.
  private static let recordings: [String: Result<[Record], any Error>] = {
    var all: [String: Result<[Record], any Error>] = [:]
    for style in CorpusIDStyle.allCases {
      for seed in seeds {
        var app = CorpusApp(style: style, seed: seed)
        let script = app.script()
        do {
          let navigator = try ScenarioCompiler.record(
            Array(script.utf8), script: "corpus-\(style)-\(seed).scenario", profile: .intended)
          all["\(style)-\(seed)"] = .success(navigator.records)
        } catch {
          all["\(style)-\(seed)"] = .failure(error)
        }
      }
    }
    return all
  }()

  /// The clean recording of one style and seed.
  static func base(_ style: CorpusIDStyle, _ seed: UInt64) throws -> [Record] {
    try #require(recordings["\(style)-\(seed)"]).get()
  }

  /// The journal of a case, its bug planted.
  static func journal(_ plantedCase: PlantedCase) throws -> PlantedJournal {
    let records = try base(plantedCase.style, plantedCase.seed)
    guard let bug = plantedCase.bug else { return PlantedJournal(records: records) }
    var random = SplitMix64(seed: plantedCase.seed &* 7919 &+ UInt64(PlantedBug.allCases.firstIndex(of: bug)!))
    return try Planter(records: records).plant(bug, random: &random, seed: plantedCase.seed)
  }
}

/// Edits a clean recording: finds where a bug can be planted and plants it.
private struct Planter {
  let records: [Record]
  /// Every modal in the order presented: its presenter and the index of its `modal` event.
  let modals: [(modal: ControllerID, presenter: ControllerID, index: Int)]
  /// The controllers that presented a modal.
  let presenters: Set<ControllerID>
  /// The presenter's slot each modal was presented into (its first `link`).
  let slots: [ControllerID: Direction]
  /// The index of each controller's dealloc.
  let deallocs: [ControllerID: Int]

  init(records: [Record]) {
    self.records = records
    var modals: [(ControllerID, ControllerID, Int)] = []
    var slots: [ControllerID: Direction] = [:]
    var deallocs: [ControllerID: Int] = [:]
    for (i, record) in records.enumerated() {
      switch record.event {
      case .modal(let m, let p): modals.append((m, p, i))
      case .link(_, let d, let to) where slots[to] == nil: slots[to] = d
      case .dealloc(let c): deallocs[c] = i
      default: break
      }
    }
    self.modals = modals
    presenters = Set(modals.map(\.1))
    self.slots = slots
    self.deallocs = deallocs
  }

  /// Whether record `i` is `callback` of `controller` (any controller when nil).
  func isCallback(_ i: Int, _ callback: Callback, of controller: ControllerID? = nil) -> Bool {
    guard case .lifecycle(let c, let cb) = records[i].event, cb == callback else { return false }
    return controller.map { $0 == c } ?? true
  }

  func controller(of i: Int) -> ControllerID? {
    if case .lifecycle(let c, _) = records[i].event { return c }
    return nil
  }

  /// A modal's cleanup: the index of its presenter's didAppear that starts it, and
  /// the indices of the modal's own events (the unlinks right before its dealloc, the dealloc).
  func cleanup(of m: ControllerID, presenter p: ControllerID) -> (didAppear: Int, removed: [Int])? {
    guard let dealloc = deallocs[m] else { return nil }
    var removed = [dealloc]
    var i = dealloc - 1
    while i > 0, case .unlink(let from, _) = records[i].event, from == m || from == p {
      removed.append(i)
      i -= 1
    }
    // Back over the other modals removed in the same cleanup, to the presenter's didAppear.
    while i > 0, !isCallback(i, .didAppear, of: p) {
      switch records[i].event {
      case .unlink, .dealloc, .lifecycle(p, _): i -= 1
      default: return nil
      }
    }
    return i > 0 && removed.count >= 2 ? (i, removed.sorted()) : nil
  }

  /// The records without `removed` and with `duplicated` written twice, seq renumbered.
  func edited(removing removed: Set<Int> = [], duplicating duplicated: Int? = nil) -> [Record] {
    var out: [Record] = []
    out.reserveCapacity(records.count + 1)
    for (i, record) in records.enumerated() where !removed.contains(i) {
      out.append(record)
      if i == duplicated { out.append(record) }
    }
    for i in out.indices { out[i].seq = i }
    return out
  }

  func plant(_ bug: PlantedBug, random: inout SplitMix64, seed: UInt64) throws -> PlantedJournal {
    switch bug {
    case .retainCycle:
      // A modal without modals of its own, its dealloc dropped. Odd seeds: a nested modal
      // (its presenter, a modal, is deallocated later while the leaked modal lives);
      // even seeds: a screen's modal.
      let modalIDs = Set(modals.map(\.modal))
      let candidates = modals.filter {
        !presenters.contains($0.modal) && modalIDs.contains($0.presenter) == (seed % 2 == 1)
      }.compactMap { m in
        cleanup(of: m.modal, presenter: m.presenter).map { (m.modal, $0) }
      }
      let leaked = random.pick(candidates)
      let (m, found) = try #require(leaked, "no modal to leak")
      return PlantedJournal(
        records: edited(removing: [found.removed.last!]), expected: (bug.rule, found.didAppear + 1, m))
    case .neverDismissed:
      // A screen's modal, the screen later presenting into the same slot again and
      // reappearing several times: the modal's unlinks and dealloc dropped.
      let modalIDs = Set(modals.map(\.modal))
      let candidates = modals.filter { !presenters.contains($0.modal) && !modalIDs.contains($0.presenter) }
        .compactMap { m -> (ControllerID, (didAppear: Int, removed: [Int]))? in
          guard let window = cleanup(of: m.modal, presenter: m.presenter), let slot = slots[m.modal],
            modals.contains(where: {
              $0.presenter == m.presenter && $0.index > window.didAppear && slots[$0.modal] == slot
            }),
            records.indices[(window.didAppear + 1)...].filter({ isCallback($0, .didAppear, of: m.presenter) }).count
              >= 3
          else { return nil }
          return (m.modal, window)
        }
      let kept = random.pick(candidates)
      let (m, found) = try #require(kept, "no modal to keep")
      return PlantedJournal(
        records: edited(removing: Set(found.removed)), expected: (bug.rule, found.didAppear + 1, m))
    case .didAppearTwice:
      // Odd seeds: a presenter's didAppear right before its modal cleanup; even seeds: another didAppear.
      let all = records.indices.filter { isCallback($0, .didAppear) }
      let beforeCleanup = all.filter { i in
        if i + 1 < records.count, case .unlink = records[i + 1].event { true } else { false }
      }
      let others = all.filter { !beforeCleanup.contains($0) }
      let picked = random.pick(seed % 2 == 1 ? beforeCleanup : others)
      let i = try #require(picked)
      return PlantedJournal(records: edited(duplicating: i), expected: (bug.rule, i + 2, controller(of: i)!))
    case .lostWillDisappear:
      let picked = random.pick(records.indices.filter { isCallback($0, .willDisappear) })
      let i = try #require(picked)
      let c = controller(of: i)!
      let didDisappear = try #require(records.indices[(i + 1)...].first { isCallback($0, .didDisappear, of: c) })
      return PlantedJournal(records: edited(removing: [i]), expected: (bug.rule, didDisappear, c))
    case .didLoadTwice:
      let picked = random.pick(records.indices.filter { isCallback($0, .didLoad) })
      let i = try #require(picked)
      return PlantedJournal(records: edited(duplicating: i), expected: (bug.rule, i + 2, controller(of: i)!))
    case .lostDidLoad:
      // A didLoad whose controller later gets an appearance callback, the first one found from the end.
      var nextAppearance: [ControllerID: Int] = [:]
      var candidates: [(Int, Int)] = []
      for i in records.indices.reversed() {
        guard case .lifecycle(let c, let cb) = records[i].event else { continue }
        if cb.isAppearance {
          nextAppearance[c] = i
        } else if let first = nextAppearance[c] {
          candidates.append((i, first))
        }
      }
      let picked = random.pick(candidates.reversed())
      let (i, first) = try #require(picked)
      return PlantedJournal(records: edited(removing: [i]), expected: (bug.rule, first, controller(of: i)!))
    }
  }
}

extension SplitMix64 {
  /// One of `items`, or nil when there are none.
  mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[below(items.count)] }
}

/// The scenario of an app: screens on a grid, the root in a corner presenting
/// modals, excursions over the map with moves, pans and modals, and goToRoot.
///
/// The generator keeps the little state it needs (the focus, the screens'
/// links) to write only commands the model accepts: modals go into free slots,
/// are dismissed by moving or panning back to their presenter, and a goToRoot
/// comes only when no modal is open, so that the screens' graph never changes.
struct CorpusApp {
  let style: CorpusIDStyle
  var random: SplitMix64
  let width: Int
  let height: Int
  var ids: [String] = []
  /// Each screen's linked neighbours by direction.
  var links: [[Direction: Int]] = []
  var lines: [String] = []
  var instances = 0
  var modalCount = 0

  static let screenClasses = [
    "Home", "Feed", "Profile", "Settings", "Product", "Category", "Cart", "Checkout", "Search", "Orders",
    "Wishlist", "Reviews", "Inbox", "Thread", "Notifications", "Account", "Billing", "Help", "Gallery", "Map",
  ]
  static let modalClasses = ["Compose", "Alert", "ShareSheet", "Picker", "ConfirmDelete", "Login", "Payment"]

  init(style: CorpusIDStyle, seed: UInt64) {
    self.style = style
    // The two styles get different apps from one seed.
    random = SplitMix64(seed: seed &* 2 &+ (style == .plain ? 0 : 1))
    width = 6 + random.below(9)
    height = 10 + random.below(5)
  }

  /// A script token: quoted when it holds a `#` (which would start a comment).
  func token(_ text: String) -> String { text.contains("#") ? "\"\(text)\"" : text }

  /// A new controller's id and class.
  mutating func newController(screen: Int?) -> (id: String, className: String) {
    instances += 1
    let className: String
    let plain: String
    if let screen {
      className = CorpusApp.screenClasses[screen % CorpusApp.screenClasses.count] + "ViewController"
      plain = "screen\(screen)"
    } else {
      modalCount += 1
      className = CorpusApp.modalClasses[random.below(CorpusApp.modalClasses.count)] + "ViewController"
      plain = "modal\(modalCount)"
    }
    return (style == .plain ? plain : "\(className)#\(instances)", className)
  }

  func cell(_ x: Int, _ y: Int) -> Int? { (0..<width).contains(x) && (0..<height).contains(y) ? y * width + x : nil }

  func neighbour(_ c: Int, _ d: Direction) -> Int? { cell(c % width + d.offset.dx, c / width + d.offset.dy) }

  mutating func script() -> String {
    lines.append("session app=CorpusApp build=\"1.0 (1)\"")
    let count = width * height
    for c in 0..<count {
      let (id, className) = newController(screen: c)
      ids.append(id)
      lines.append("controller \(token(id)) \(className)")
    }
    lines.append("root \(token(ids[0]))")
    // A random spanning tree over the grid, then some of the other grid edges (cycles).
    links = Array(repeating: [:], count: count)
    var inTree = [Bool](repeating: false, count: count)
    inTree[0] = true
    var frontier: [(Int, Direction)] = Direction.allCases.compactMap { d in neighbour(0, d).map { _ in (0, d) } }
    var edges: [(Int, Direction)] = []
    while !frontier.isEmpty {
      let (c, d) = frontier.remove(at: random.below(frontier.count))
      let n = neighbour(c, d)!
      if inTree[n] { continue }
      inTree[n] = true
      edges.append((c, d))
      for e in Direction.allCases where neighbour(n, e).map({ !inTree[$0] }) ?? false { frontier.append((n, e)) }
    }
    for (a, d) in edges { connect(a, d) }
    for c in 0..<count {
      for d in [Direction.right, .down] where links[c][d] == nil && neighbour(c, d) != nil && random.chance(20) {
        edges.append((c, d))
        connect(c, d)
      }
    }
    for (a, d) in edges { lines.append("link \(token(ids[a])) \(d) \(token(ids[neighbour(a, d)!]))") }
    var focus = 0
    let excursions = 12 + random.below(6)
    for excursion in 0..<excursions {
      if random.chance(20) { lines.append("mark \"excursion \(excursion)\"") }
      for _ in 0..<(1 + random.below(3)) where random.chance(70) { presentModal(from: ids[0], free: freeSlots(0)) }
      for _ in 0..<(3 + random.below(8)) {
        let linked = Direction.allCases.filter { links[focus][$0] != nil }
        let roll = random.below(100)
        if roll < 55, let d = random.pick(linked) {
          if random.chance(50) {
            lines.append("move \(d)" + (random.chance(20) ? " animated=false" : ""))
          } else if random.chance(80) {
            lines.append("pan \(d) distance=\(60 + random.below(200)) velocity=\(random.below(600))")
          } else {
            lines.append("pan \(d) distance=\(random.below(40)) velocity=\(700 + random.below(900))")
          }
          focus = links[focus][d]!
        } else if roll < 65, let d = random.pick(linked) {
          lines.append(random.chance(50) ? "pan \(d) distance=\(random.below(50))" : "pan \(d) distance=90 cancel")
        } else if roll < 72, let d = random.pick(freeSlots(focus)) {
          lines.append("pan \(d) distance=\(60 + random.below(100))")
        } else if roll < 90, !freeSlots(focus).isEmpty {
          presentModal(from: ids[focus], free: freeSlots(focus))
        } else {
          lines.append("wait \(100 + random.below(3000))")
        }
      }
      lines.append("goToRoot" + (random.chance(25) ? " animated=false" : ""))
      focus = 0
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Links screen `a` to its grid neighbour in direction `d`, both ways.
  mutating func connect(_ a: Int, _ d: Direction) {
    let b = neighbour(a, d)!
    links[a][d] = b
    links[b][d.opposite] = a
  }

  func freeSlots(_ c: Int) -> [Direction] { Direction.allCases.filter { links[c][$0] == nil } }

  /// A new modal from the focus `presenter` into one of its `free` slots, then
  /// (sometimes) one or two nested modals from it, then its dismissal.
  mutating func presentModal(from presenter: String, free: [Direction], depth: Int = 0) {
    guard let d = random.pick(free) else { return }
    let (id, className) = newController(screen: nil)
    lines.append("modal \(token(id)) \(className) \(d)" + (random.chance(15) ? " animated=false" : ""))
    if random.chance(40) { lines.append("wait \(200 + random.below(4000))") }
    if depth == 0 && random.chance(30) {
      let own = Direction.allCases.filter { $0 != d.opposite }
      for _ in 0..<(1 + random.below(2)) { presentModal(from: id, free: own, depth: 1) }
    }
    if random.chance(20) { lines.append("pan \(d.opposite) distance=\(random.below(45))") }
    if random.chance(50) {
      lines.append("move \(d.opposite)" + (random.chance(20) ? " animated=false" : ""))
    } else {
      lines.append("pan \(d.opposite) distance=\(80 + random.below(150)) velocity=\(random.below(500))")
    }
  }
}
