import Journal
import Projection

/// Journals for diff tests: recorded by the reference model from a small
/// notes-app scenario, then mutated the way a regression would.
enum DiffFixture {
  /// A notes app: home with notes on its left and settings on its right,
  /// a compose modal below notes, moves by code and by pan.
  static let script = """
    session id=DIFF app=Dicto build="2.4 (120)"
    controller home HomeViewController
    controller notes NotesViewController
    controller settings SettingsViewController
    root home
    link home left notes
    link home right settings
    move left
    modal compose ComposeViewController down
    move up
    move right
    pan right distance=80
    move left animated=false
    """

  /// The records of ``script`` (seq 0 to 48, see the test comments for who is where).
  static func base() throws -> [Record] {
    try records(script)
  }

  /// The records a scenario script produces under the intended profile.
  static func records(_ script: String, name: String = "diff.scenario") throws -> [Record] {
    try ScenarioCompiler.record(Array(script.utf8), script: name, profile: .intended).records
  }

  /// A normalised run of records (lines are `seq + 1`).
  static func run(_ records: [Record], _ options: DiffOptions = DiffOptions()) -> NormalizedRun {
    NormalizedRun(records: records, options: options)
  }

  /// The report of A against B.
  static func report(_ a: [Record], _ b: [Record], _ options: DiffOptions = DiffOptions()) -> DiffReport {
    DiffReport(run(a, options), run(b, options))
  }

  /// The hunks as `kind[side] A from..<to B from..<to` lines (positions in the normalised runs).
  static func hunks(_ report: DiffReport) -> [String] {
    report.hunks.map { h in
      let side = h.side.map { "[\($0.rawValue)]" } ?? ""
      return "\(h.kind.rawValue)\(side) A \(h.hunk.a) B \(h.hunk.b)"
    }
  }

  /// The hunks with seqs instead of positions: `kind[side] A seqs B seqs`.
  static func seqHunks(_ report: DiffReport) -> [String] {
    report.hunks.map { h in
      let side = h.side.map { "[\($0.rawValue)]" } ?? ""
      return "\(h.kind.rawValue)\(side) A \(h.hunk.a.map { report.a.seqs[$0] }) B \(h.hunk.b.map { report.b.seqs[$0] })"
    }
  }
}

extension Array where Element == Record {
  /// The records with `seq` renumbered 0, 1, 2... (after an edit).
  func renumbered() -> [Record] {
    enumerated().map { i, r in Record(seq: i, time: r.time, event: r.event, extra: r.extra) }
  }

  /// Without the record of this seq.
  func removing(seq: Int) -> [Record] {
    filter { $0.seq != seq }.renumbered()
  }

  /// With `event` inserted right after the record of this seq.
  func inserting(_ event: Event, afterSeq seq: Int) -> [Record] {
    var copy = self
    let i = firstIndex { $0.seq == seq }! + 1
    copy.insert(Record(seq: 0, time: self[i - 1].time, event: event), at: i)
    return copy.renumbered()
  }

  /// With the record of `seq` copied right after itself.
  func duplicating(seq: Int) -> [Record] {
    let r = first { $0.seq == seq }!
    return inserting(r.event, afterSeq: seq)
  }

  /// With the event of this seq replaced.
  func replacing(seq: Int, with event: Event) -> [Record] {
    map { $0.seq == seq ? Record(seq: $0.seq, time: $0.time, event: event, extra: $0.extra) : $0 }
  }

  /// With the record of `seq` moved to just after the record of `afterSeq`.
  func moving(seq: Int, afterSeq: Int) -> [Record] {
    var copy = self
    let from = copy.firstIndex { $0.seq == seq }!
    let r = copy.remove(at: from)
    let to = copy.firstIndex { $0.seq == afterSeq }! + 1
    copy.insert(r, at: to)
    return copy.renumbered()
  }

  /// With every controller's id made as the recording guide's sample makes
  /// it: its class, `#` and a counter over the run's allocations
  /// (`HomeViewController#1`, `NotesViewController#2`), so that one more
  /// controller allocated early renumbers every later one.
  func countingInstances() -> [Record] {
    var ids: [ControllerID: ControllerID] = [:]
    for r in self {
      guard case .alloc(let c, let cls) = r.event, ids[c] == nil else { continue }
      ids[c] = ControllerID("\(cls)#\(ids.count + 1)")
    }
    return renamingControllers { ids[$0] ?? $0 }
  }

  /// With a controller of another class allocated right after the header,
  /// before every other one, and with `events` of its own after its `alloc`
  /// (`splash` stands for its id).
  func allocatingEarly(_ className: String, then events: [Event] = []) -> [Record] {
    var records = self
    for event in ([.alloc(controller: "splash", className: className)] + events).reversed() {
      records = records.inserting(event, afterSeq: 0)
    }
    return records
  }

  /// With every controller id renamed (alloc and every mention).
  func renamingControllers(_ rename: (ControllerID) -> ControllerID) -> [Record] {
    map { r in
      let event: Event
      switch r.event {
      case .alloc(let c, let cls): event = .alloc(controller: rename(c), className: cls)
      case .root(let c): event = .root(controller: rename(c))
      case .link(let a, let d, let b): event = .link(from: rename(a), direction: d, to: rename(b))
      case .unlink(let a, let d): event = .unlink(from: rename(a), direction: d)
      case .modal(let m, let p): event = .modal(controller: rename(m), presenter: rename(p))
      case .touches(let c, let d, let n): event = .touches(controller: rename(c), direction: d, min: n)
      case .pan(var p):
        p.controller = rename(p.controller)
        event = .pan(p)
      case .move(var m):
        m.from = rename(m.from)
        m.to = rename(m.to)
        event = .move(m)
      case .lifecycle(let c, let cb): event = .lifecycle(controller: rename(c), callback: cb)
      case .dealloc(let c): event = .dealloc(controller: rename(c))
      case .session, .mark, .unknown: event = r.event
      }
      return Record(seq: r.seq, time: r.time, event: event, extra: r.extra)
    }
  }
}

/// The simulator's seeded generator (SplitMix64), for reproducible random inputs.
typealias DiffRandom = SplitMix64

/// Checks that an alignment is a valid one of `a` and `b`: hunks in order,
/// separated by matches, the matches equal position by position, and
/// everything covered. Returns the problems found (empty when valid).
func alignmentProblems(_ alignment: Alignment, _ a: [Int32], _ b: [Int32]) -> [String] {
  var problems: [String] = []
  var i = 0
  var j = 0
  for segment in alignment.segments {
    switch segment {
    case .match(let ra, let rb):
      if ra.lowerBound != i || rb.lowerBound != j { problems.append("match \(ra) \(rb) does not start at \(i) \(j)") }
      if ra.count != rb.count || ra.isEmpty { problems.append("match \(ra) \(rb) has unequal or no length") }
      if Array(a[ra]) != Array(b[rb]) { problems.append("match \(ra) \(rb) pairs different events") }
      i = ra.upperBound
      j = rb.upperBound
    case .hunk(let h):
      if h.a.lowerBound != i || h.b.lowerBound != j { problems.append("hunk \(h) does not start at \(i) \(j)") }
      if h.a.isEmpty && h.b.isEmpty { problems.append("empty hunk at \(i) \(j)") }
      i = h.a.upperBound
      j = h.b.upperBound
    }
  }
  if i != a.count || j != b.count { problems.append("ends at \(i) \(j), not \(a.count) \(b.count)") }
  for (h1, h2) in zip(alignment.hunks, alignment.hunks.dropFirst())
  where h1.a.upperBound >= h2.a.lowerBound && h1.b.upperBound >= h2.b.lowerBound {
    problems.append("hunks \(h1) and \(h2) touch")
  }
  return problems
}
