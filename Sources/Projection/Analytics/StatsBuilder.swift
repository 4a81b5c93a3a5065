import Journal

/// Computes the ``SessionStats`` of one journal, streamed item by item.
///
/// It runs `check`'s ``JournalCheck`` (whose checker folds the model's state)
/// for the findings, the counters and the modals, and follows visits per
/// controller.
/// Memory: the model's state and one entry per controller.
///
/// ```swift
/// var builder = StatsBuilder(file: "a.ndjson")
/// while let item = reader.next() { builder.consume(item) }
/// let stats = builder.finish()
/// stats.controllers.first?.dwellMilliseconds
/// ```
public struct StatsBuilder: PassConsumer {
  private var stats = SessionStats()
  private var check = JournalCheck()
  private var visits = VisitTracker()
  /// The findings the check passed on: only its summary counts, and the modals of its
  /// `modal-leak` findings, so they are dropped as they come.
  private var findings: [CheckFinding] = []
  /// The modals `check` reported as leaked, in the order reported: the stats' leaked modals.
  private var leaked: [ControllerID] = []
  private var sawHeader = false
  /// Moves by direction, indexed by ``Direction/index``.
  private var directions = [0, 0, 0, 0]
  /// Per position in the checker's state, the controller's entry among the visits' (-1 before it is
  /// known): for batches whose ``RecordFacts`` give each lifecycle record's position.
  ///
  /// Implementation note: the checker looks every lifecycle record's id up; with its position, the
  /// visits do not hash the id again.
  private var entryAt: [Int32] = []

  public init(file: String) {
    stats.file = file
  }

  /// The visits follow each lifecycle record's controller by its position in the fold.
  public static var readsFacts: Bool { true }

  /// Takes the reader's next item.
  public mutating func consume(_ item: JournalItem) {
    switch item {
    case .record(let record, let line, _):
      consume(record, line: line)
    case .diagnostic(let diagnostic):
      check.consume(diagnostic, into: &findings)
      noteLeaks()
    }
  }

  /// Takes a batch of the reader's items that a ``CheckerPass`` (of every rule, no model) has
  /// checked on another thread: the same stats as ``consume(_:)`` for each item in turn. With the
  /// records' facts (a pass made with `facts: true`), the visits follow each lifecycle record's
  /// controller by its position in the fold.
  public mutating func consume(_ batch: inout JournalBatch, checked: CheckedBatch) {
    let positions = checked.hasFacts
    batch.forEachItem { i, item in
      // The record borrowed in place once, for the check and the stats.
      let wasRecord: Void? = item.withRecord { record, line in
        check.consume(record, line: line, at: i, checked: checked, into: &findings)
        noteLeaks()
        note(record, position: positions ? Int(checked.facts(at: i).position) : -1)
      }
      if wasRecord == nil, case .diagnostic(let diagnostic) = item {
        check.consume(diagnostic, into: &findings)
        noteLeaks()
      }
    }
  }

  /// Keeps the modal of each `modal-leak` finding the check just passed on, and drops the findings.
  @inline(__always)
  private mutating func noteLeaks() {
    guard !findings.isEmpty else { return }
    for case .rule(let finding) in findings where finding.rule == .modalLeak {
      if let modal = finding.controllers.first { leaked.append(modal) }
    }
    findings.removeAll(keepingCapacity: true)
  }

  /// What a record adds besides the check; `position` is a lifecycle record's controller's (-1 if unknown).
  @inline(__always)
  private mutating func note(_ record: Record, position p: Int) {
    if p >= 0, case .lifecycle = record.event {
      if p >= entryAt.count { entryAt.append(contentsOf: repeatElement(-1, count: p + 1 - entryAt.count)) }
      noteEnvelope(record)
      _ = visits.step(record, entry: &entryAt[p])
    } else {
      note(record)
    }
  }

  private mutating func consume(_ record: Record, line: Int) {
    check.consume(record, line: line, into: &findings)
    noteLeaks()
    note(record)
  }

  /// What a record adds besides the check.
  private mutating func note(_ record: Record) {
    noteEnvelope(record)
    note(record.event, of: record)
  }

  /// What an event adds, `borrowing` so that nothing copies it (switched on as the record's
  /// property, the whole event was copied and destroyed at every record).
  @inline(__always)
  private mutating func note(_ event: borrowing Event, of record: Record) {
    switch event {
    case .lifecycle, .alloc, .dealloc:
      _ = visits.consume(record)
    case .session(let header) where !sawHeader:
      sawHeader = true
      stats.session = header.session
      stats.app = header.app
      stats.build = header.build
      stats.device = header.device
      stats.profile = header.profile
    case .move(let move):
      directions[move.direction.index] += 1
    case .session, .root, .link, .unlink, .modal, .touches, .pan, .mark, .unknown:
      break
    }
  }

  /// What every record adds: the count and the times.
  @inline(__always)
  private mutating func noteEnvelope(_ record: Record) {
    stats.events += 1
    if stats.firstTime == nil { stats.firstTime = record.time }
    stats.lastTime = record.time
  }

  /// Ends the journal and returns its stats.
  public mutating func finish() -> SessionStats {
    check.finish(into: &findings)
    noteLeaks()
    return finish(state: check.state)
  }

  /// Ends a journal whose batches a ``CheckerPass`` checked, given what its
  /// ``CheckerPass/finish()`` returned and its ``CheckerPass/state`` then.
  package mutating func finish(checked: [Finding], state: State) -> SessionStats {
    check.finish(checked: checked, into: &findings)
    noteLeaks()
    return finish(state: state)
  }

  private mutating func finish(state: State) -> SessionStats {
    findings.removeAll()
    let summary = check.summary
    stats.findingsByRule = Dictionary(uniqueKeysWithValues: summary.byRule.map { ($0.key.id, $0.value) })
    stats.errors = summary.errors
    stats.warnings = summary.warnings
    stats.formatErrors = summary.formatErrors
    let open = Set(visits.finish(lastTime: stats.lastTime).map(\.controller))
    stats.controllers = visits.entries.map { entry in
      SessionStats.ControllerStats(
        controller: entry.controller, className: entry.className, visits: entry.visits,
        dwellMicroseconds: entry.closedDwell, openVisits: open.contains(entry.controller) ? 1 : 0,
        incompleteVisits: entry.incompleteVisits)
    }
    let counters = state.counters
    for type in Event.knownTypeNames { stats.eventsByType[type] = counters.events(ofType: type) }
    stats.eventsByType.merge(counters.unknownTypes, uniquingKeysWith: +)
    for trigger in MoveTrigger.allCases { stats.movesByTrigger[trigger] = counters.moves(triggeredBy: trigger) }
    for direction in Direction.allCases { stats.movesByDirection[direction] = directions[direction.index] }
    stats.animatedMoves = counters.animated
    for outcome in PanOutcome.allCases { stats.pansByOutcome[outcome] = counters.pans(outcome) }
    stats.modalsPresented = counters.events(ofType: "modal")
    for controller in state.controllers where controller.isModal && !controller.isAlive {
      stats.modalsDeallocated += 1
    }
    stats.leakedModals = leaked
    return stats
  }
}
