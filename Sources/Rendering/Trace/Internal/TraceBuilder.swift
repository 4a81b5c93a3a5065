import Journal
import Projection

/// Walks journals, streaming, and tells a ``TraceSink`` what to draw: the
/// visits of ``VisitTracker`` (the `visits` table's, every row: an incomplete
/// one, whose didAppear never came, whole when it ends), the appearance phases of
/// the fold (``ControllerState/Phase``), every lifecycle callback, each move
/// and its arrival, pans, modals, deallocs and every finding of
/// ``JournalCheck``.
///
/// Slices nest on each lane by construction: a phase slice is ended before a
/// visit begins or ends and begun again after it, so a phase never straddles a
/// visit's edge (a willAppear that may begin an incomplete visit is such an
/// edge too); phases follow one another (the fold has one phase at a time),
/// and so do visits.
///
/// It does not fold the journal itself: the checker does (``JournalCheck`` item
/// by item, a ``CheckerPass`` that keeps facts batch by batch), and the
/// builder reads what it needs of the fold from each record's ``RecordFacts``.
///
/// Memory: the checker's (the model's state), one ``TraceLane`` per controller
/// drawn, the class of each controller allocated before it is drawn, and the
/// findings of one batch.
struct TraceBuilder<Sink: TraceSink & Sendable>: Sendable {
  var sink: Sink
  private(set) var selection: TraceSelection
  private var run = -1
  private var check = JournalCheck()
  /// The positions in the checker's state of the ids the item-by-item trace looked up last.
  private var recentIDs = RecentIDs()
  /// The class of each controller allocated (a fresh instance) before it has a lane.
  private var classNames: [ControllerID: String] = [:]
  /// The class names of `classNames` and of the lanes, each kept once.
  private var internedClasses = InternedTexts()
  private var findings: [CheckFinding] = []
  private var visits = VisitTracker()
  private(set) var lanes: [TraceLane] = []
  private var laneIndex = ControllerIndex()
  /// The lane of each position in the checker's state (``RecordFacts/position``), -1 for none yet.
  private var laneAt: [Int32] = []
  /// The lanes of the ids looked up last (a move and its callbacks name the same two).
  private var recentLanes = RecentIDs()
  private var first: Timestamp?
  private var last: Timestamp?
  /// The seq and time of the last records, at `seq % 64`: a finding is drawn at the time of its event
  /// when that is one of them (check holds some findings back for a few events).
  private var recent = [(seq: Int, time: Timestamp)](
    repeating: (-1, Timestamp(microseconds: 0)), count: TraceBuilder.recentCount)
  private static var recentCount: Int { 64 }
  private var rootLane: Int?
  /// The move whose arrival is still to be drawn: its flow id and target lane.
  private var pendingFlow: (id: Int, lane: Int)?
  private var sawHeader = false

  init(sink: Sink, selection: TraceSelection) {
    self.sink = sink
    self.selection = selection
    self.sink.beginDocument()
  }

  /// Starts the next run (journal).
  mutating func beginRun(file: String) {
    run += 1
    check = JournalCheck()
    recentIDs = RecentIDs()
    classNames.removeAll()
    findings.removeAll()
    visits = VisitTracker()
    lanes.removeAll()
    laneIndex = ControllerIndex()
    laneAt.removeAll()
    recentLanes = RecentIDs()
    (first, last, rootLane, pendingFlow, sawHeader) = (nil, nil, nil, nil, false)
    for k in recent.indices { recent[k].seq = -1 }
    sink.beginRun(run, file: file)
  }

  /// Takes the reader's next item (the checker runs here).
  mutating func consume(_ item: JournalItem) {
    if case .record(let record, _, _) = item {
      let before = RecordFacts.before(record, in: check.state, &recentIDs)
      check.consume(item, into: &findings)
      consume(record, RecordFacts.after(record, in: check.state, before: before, &recentIDs))
    } else {
      check.consume(item, into: &findings)
    }
    if !findings.isEmpty { emitFindings() }
  }

  /// Takes a batch of the reader's items that a ``CheckerPass`` checked on another thread: the same
  /// trace as ``consume(_:)`` of each item in turn, wherever the batches begin and end. The pass
  /// keeps each record's facts (``CheckerPass/init(rules:model:facts:)``), which the trace reads
  /// rather than folding again. The items are read in place and left as they were.
  mutating func consume(_ batch: inout JournalBatch, checked: CheckedBatch) {
    precondition(checked.hasFacts || batch.isEmpty, "the batch was checked by a CheckerPass without facts")
    batch.forEachItem { i, item in
      check.consume(&item, at: i, checked: checked, into: &findings)
      item.withRecord { record, _ in consume(record, checked.facts(at: i)) }
      // A finding is drawn after the record at which check passes it on, at that record's time.
      if !findings.isEmpty { emitFindings() }
    }
  }

  /// Ends the run; `checked` is the ``CheckerPass``'s last findings when batches were checked apart.
  mutating func endRun(checked: [Finding]? = nil) {
    if let checked {
      check.finish(checked: checked, into: &findings)
    } else {
      check.finish(into: &findings)
    }
    emitFindings()
    let end = last ?? Timestamp(microseconds: 0)
    if let flow = pendingFlow {
      sink.arrival(flow: flow.id, lane: flow.lane, time: end)
      pendingFlow = nil
    }
    for k in lanes.indices { endPhase(k, time: end) }
    for visit in visits.finish(lastTime: last) {
      guard let k = laneIndex[visit.controller].map(Int.init) else { continue }
      endVisit(k, visit, time: visit.endTime)
    }
    sink.endRun(lanes: lanes, root: rootLane, first: first, last: last)
  }

  /// Ends the selection's seqs at `seq` (``TraceWriter/drawNothing(after:)``).
  mutating func drawNothing(after seq: Int) {
    // Never below the selection's first seq (the report's window lies inside it).
    let end = min(max(seq, selection.seqs.lowerBound), selection.seqs.upperBound)
    selection.seqs = selection.seqs.lowerBound...end
  }

  /// Ends the document, after the last run.
  mutating func finish() {
    sink.endDocument()
  }

  private mutating func emitFindings() {
    for finding in findings { emit(finding) }
    findings.removeAll(keepingCapacity: true)
  }

  private mutating func emit(_ diagnostic: CheckFinding) {
    // Read once each: a getter of the finding, in another module, copies the rule's finding.
    let seq = diagnostic.seq
    let controllers = diagnostic.controllers
    var time = last ?? Timestamp(microseconds: 0)
    if let seq, recent[seq & (Self.recentCount - 1)].seq == seq {
      time = recent[seq & (Self.recentCount - 1)].time
    }
    if let seq, !selection.seqs.contains(seq) { return }
    if let since = selection.since, time < since { return }
    if let until = selection.until, time > until { return }
    if !selection.controllers.isEmpty, !controllers.contains(where: selection.controllers.contains) { return }
    let lane = controllers.isEmpty ? nil : lane(of: controllers[0])
    sink.finding(diagnostic, lane: lane, time: time)
  }

  // MARK: Records

  /// A record, with what the checker's fold says of it.
  private mutating func consume(_ record: borrowing Record, _ facts: RecordFacts) {
    let time = record.time
    if first == nil {
      first = time
      sink.start(at: time)
    }
    last = time
    recent[record.seq & (Self.recentCount - 1)] = (record.seq, time)
    switch record.event {
    case .session(let header):
      if !sawHeader {
        sawHeader = true
        sink.header(header)
      }
    case .lifecycle(_, let callback):
      lifecycle(record, callback, facts)
    case .dealloc(let id):
      let k = lane(of: id)
      if facts.wasAlive { endPhase(k, time: time) }
      if let visit = visits.step(record, entry: &lanes[k].visitEntry).ended { endVisit(k, visit, time: time) }
      if draws(k, record) { sink.dealloc(lane: k, seq: record.seq, time: time) }
    case .move(let move):
      if let flow = pendingFlow {
        sink.arrival(flow: flow.id, lane: flow.lane, time: time)
        pendingFlow = nil
      }
      let accepted = facts.moveAccepted
      let from = lane(of: move.from)
      let to = lane(of: move.to)
      guard draws(from, record) else { break }
      if accepted && lanes[to].selected {
        lanes[to].drawn = true
        pendingFlow = (run << 40 | record.seq, to)
      }
      sink.move(from: from, to: to, flow: pendingFlow?.id, move, seq: record.seq, time: time)
    case .pan(let pan):
      let k = lane(of: pan.controller)
      if draws(k, record) { sink.pan(lane: k, pan, seq: record.seq, time: time) }
    case .modal(let modal, let presenter):
      let k = lane(of: modal)
      if draws(k, record) { sink.modal(lane: k, presenter: presenter, seq: record.seq, time: time) }
    case .root(let id):
      if rootLane == nil, facts.rootTaken { rootLane = lane(of: id) }
    case .alloc(let id, let className):
      // A fresh instance names the class (the fold keeps an alive one's).
      if !facts.wasAlive {
        let className = internedClasses.intern(className)
        if let k = laneIndex[id] {
          lanes[Int(k)].className = className
        } else {
          classNames[id] = className
        }
      }
      _ = visits.step(record)
    case .link, .unlink, .touches, .mark, .unknown:
      break
    }
  }

  /// A lifecycle record (`callback` its callback).
  ///
  /// Implementation note: the id is read from the record only for a lane or a visits' entry not
  /// made yet; bound for every callback, it would be copied (retained and released: a string the
  /// decoding and checking threads retain and release too).
  private mutating func lifecycle(_ record: Record, _ callback: Callback, _ facts: RecordFacts) {
    let time = record.time
    let k = lane(at: facts.position, of: record)
    // The id is looked up once, by its lane: the visits take its position.
    let step = visitStep(k, callback, record)
    var phase = lanes[k].phase
    if callback.isAppearance, let after = facts.phase { phase = after }
    // A willAppear that an incomplete visit would count from is its edge: drawn whole when it ends, its slice
    // begins there.
    let mayBegin =
      callback == .willAppear && lanes[k].visitEntry >= 0
      && visits.awaitsDidAppear(at: Int(lanes[k].visitEntry), since: record.seq)
    let visitChanges = step.started != nil || step.ended != nil || mayBegin
    if phase != lanes[k].phase || visitChanges { endPhase(k, time: time) }
    if let visit = step.ended { endVisit(k, visit, time: time) }
    if let number = step.started {
      lanes[k].visitOpen = true
      if draws(k, record) {
        lanes[k].visitDrawn = true
        sink.visitBegan(lane: k, number: number, seq: record.seq, time: time)
      }
    }
    if phase != .disappeared && !lanes[k].phaseDrawn {
      lanes[k].phase = phase
      if draws(k, record) {
        lanes[k].phaseDrawn = true
        sink.phaseBegan(lane: k, phase, seq: record.seq, time: time)
      }
    }
    lanes[k].phase = phase
    if draws(k, record) { sink.callback(lane: k, callback, seq: record.seq, time: time) }
    if let flow = pendingFlow, flow.lane == k, callback == .didAppear {
      sink.arrival(flow: flow.id, lane: k, time: time)
      pendingFlow = nil
    }
  }

  /// The visits' step of a lifecycle record on lane `k`.
  @inline(__always)
  private mutating func visitStep(_ k: Int, _ callback: Callback, _ record: Record) -> (started: Int?, ended: Visit?) {
    var entry = lanes[k].visitEntry
    if entry < 0 {
      entry = visitEntry(callback, of: record)
      lanes[k].visitEntry = entry
    }
    guard entry >= 0 else { return (nil, nil) }
    return visits.step(callback, at: Int(entry), seq: record.seq, time: record.time)
  }

  /// The visits' entry of a lifecycle record's controller, the first time (-1: none yet).
  @inline(never)
  private mutating func visitEntry(_ callback: Callback, of record: Record) -> Int32 {
    visits.entry(of: Self.lifecycleID(record), for: callback)
  }

  /// A lifecycle record's controller (read only when a lane or an entry is made for it).
  private static func lifecycleID(_ record: Record) -> ControllerID {
    guard case .lifecycle(let id, _) = record.event else { preconditionFailure("not a lifecycle record") }
    return id
  }

  /// Ends the lane's phase slice, if one is drawn.
  private mutating func endPhase(_ k: Int, time: Timestamp) {
    if lanes[k].phaseDrawn {
      sink.phaseEnded(lane: k, lanes[k].phase, time: time)
      lanes[k].phaseDrawn = false
    }
    lanes[k].phase = .disappeared
  }

  private mutating func endVisit(_ k: Int, _ visit: Visit, time: Timestamp) {
    if lanes[k].phaseDrawn {
      sink.phaseEnded(lane: k, lanes[k].phase, time: time)
      lanes[k].phaseDrawn = false
    }
    if visit.isComplete {
      if lanes[k].visitDrawn { sink.visitEnded(lane: k, visit, time: time) }
    } else if lanes[k].selected, selection.selects(seq: visit.startSeq, time: visit.startTime) {
      // Drawn by its willAppear, as a complete one by its didAppear; known to be incomplete only now.
      lanes[k].drawn = true
      sink.incompleteVisit(lane: k, visit, time: time)
    }
    lanes[k].visitOpen = false
    lanes[k].visitDrawn = false
  }

  /// Whether the item of `record` on lane `k` is drawn (and marks the lane drawn).
  @inline(__always)
  private mutating func draws(_ k: Int, _ record: Record) -> Bool {
    guard lanes[k].selected, selection.selects(seq: record.seq, time: record.time) else { return false }
    lanes[k].drawn = true
    return true
  }

  /// The lane of a lifecycle record's controller, at `position` in the checker's state (-1: none, as
  /// for an id never allocated), made when it is first named.
  @inline(__always)
  private mutating func lane(at position: Int32, of record: Record) -> Int {
    let p = Int(position)
    if p >= 0, p < laneAt.count, laneAt[p] >= 0 { return Int(laneAt[p]) }
    return newLane(at: position, of: record)
  }

  /// ``lane(at:of:)`` the first time: the id is read from the record.
  @inline(never)
  private mutating func newLane(at position: Int32, of record: Record) -> Int {
    let id = Self.lifecycleID(record)
    guard position >= 0 else { return lane(of: id) }
    let p = Int(position)
    let k = lane(of: id)
    if p >= laneAt.count { laneAt.append(contentsOf: repeatElement(-1, count: p + 1 - laneAt.count)) }
    laneAt[p] = Int32(k)
    return k
  }

  /// The lane of a controller, made when it is first named.
  @inline(__always)
  private mutating func lane(of id: ControllerID) -> Int {
    if let k = recentLanes.find(id) { return Int(k) }
    if let k = laneIndex[id] {
      recentLanes.insert(id, k)
      return Int(k)
    }
    laneIndex.insert(id, at: Int32(lanes.count))
    var lane = TraceLane(id: id, selected: selection.selects(id))
    lane.className = classNames.removeValue(forKey: id)
    lanes.append(lane)
    return lanes.count - 1
  }
}
