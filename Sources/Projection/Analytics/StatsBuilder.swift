import Journal

/// Computes the ``SessionStats`` of one journal, streamed item by item.
///
/// It runs the lifecycle checker (which folds the model's state) for the
/// findings, the counters and the modals, and follows visits per controller.
/// Memory: the model's state and one entry per controller.
///
/// ```swift
/// var builder = StatsBuilder(file: "a.ndjson")
/// while let item = reader.next() { builder.consume(item) }
/// let stats = builder.finish()
/// stats.controllers.first?.dwellMilliseconds
/// ```
public struct StatsBuilder {
  private var stats = SessionStats()
  private var findings = FindingStream()
  private var visits = VisitTracker()
  private var diagnostics: [Diagnostic] = []
  private var sawHeader = false

  public init(file: String) {
    stats.file = file
  }

  /// Takes the reader's next item.
  public mutating func consume(_ item: JournalItem) {
    findings.consume(item, into: &diagnostics)
    if !diagnostics.isEmpty { count() }
    guard case .record(let record, _, _) = item else { return }
    stats.events += 1
    if stats.firstTime == nil { stats.firstTime = record.time }
    stats.lastTime = record.time
    _ = visits.consume(record)
    switch record.event {
    case .session(let header) where !sawHeader:
      sawHeader = true
      stats.session = header.session
      stats.app = header.app
      stats.build = header.build
    case .move(let move):
      stats.movesByDirection[move.direction, default: 0] += 1
    default:
      break
    }
  }

  /// Ends the journal and returns its stats.
  public mutating func finish() -> SessionStats {
    findings.finish(into: &diagnostics)
    count()
    let open = Set(visits.finish(lastTime: stats.lastTime).map(\.controller))
    stats.controllers = visits.entries.map { entry in
      SessionStats.ControllerStats(
        controller: entry.controller, className: entry.className, visits: entry.visits,
        dwellMicroseconds: entry.closedDwell, openVisits: open.contains(entry.controller) ? 1 : 0)
    }
    let state = findings.state
    let counters = state.counters
    for type in Event.knownTypeNames { stats.eventsByType[type] = counters.events(ofType: type) }
    stats.eventsByType.merge(counters.unknownTypes, uniquingKeysWith: +)
    for trigger in MoveTrigger.allCases { stats.movesByTrigger[trigger] = counters.moves(triggeredBy: trigger) }
    for direction in Direction.allCases where stats.movesByDirection[direction] == nil {
      stats.movesByDirection[direction] = 0
    }
    stats.animatedMoves = counters.animated
    for outcome in PanOutcome.allCases { stats.pansByOutcome[outcome] = counters.pans(outcome) }
    stats.modalsPresented = counters.events(ofType: "modal")
    for controller in state.controllers where controller.isModal {
      if controller.isAlive {
        stats.leakedModals.append(controller.id)
      } else {
        stats.modalsDeallocated += 1
      }
    }
    return stats
  }

  private mutating func count() {
    for diagnostic in diagnostics {
      stats.findingsByRule[diagnostic.rule, default: 0] += 1
      switch diagnostic.severity {
      case .error: stats.errors += 1
      case .warning: stats.warnings += 1
      }
    }
    diagnostics.removeAll(keepingCapacity: true)
  }
}
