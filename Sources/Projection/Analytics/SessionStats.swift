import Journal

/// The statistics of one journal (one session), or of several merged
/// (``StatsReport/overall``).
///
/// Counts events by type, moves by direction and trigger, pans by outcome,
/// visits and dwell time per controller, modal presentations and leaks, and
/// findings by rule. Dwell is kept in microseconds, so sums are exact.
public struct SessionStats: Sendable, Hashable {
  /// Visits and dwell time of one controller.
  public struct ControllerStats: Sendable, Hashable {
    public var controller: ControllerID
    /// The class of its alloc (the first one met, for merged stats); nil if never allocated.
    public var className: String?
    /// Visits started (open ones included).
    public var visits: Int
    /// Total dwell, open visits counted up to the last event, in microseconds.
    public var dwellMicroseconds: Int64
    /// Visits still open at the end of a journal.
    public var openVisits: Int
    /// Visits whose didAppear never came, counted from their willAppear (see ``Visit/isComplete``).
    public var incompleteVisits: Int

    public init(
      controller: ControllerID, className: String?, visits: Int, dwellMicroseconds: Int64, openVisits: Int,
      incompleteVisits: Int = 0
    ) {
      self.controller = controller
      self.className = className
      self.visits = visits
      self.dwellMicroseconds = dwellMicroseconds
      self.openVisits = openVisits
      self.incompleteVisits = incompleteVisits
    }

    /// Total dwell in milliseconds.
    public var dwellMilliseconds: Double { Double(dwellMicroseconds) / 1000 }
  }

  /// The journal's path; nil for merged stats.
  public var file: String?
  /// The header's session id, app, build, device and profile (nil when absent, and for merged stats).
  public var session: String?
  public var app: String?
  public var build: String?
  public var device: String?
  public var profile: String?
  /// Journals merged (1 for one journal).
  public var journals = 1
  /// Events decoded.
  public var events = 0
  /// Time of the first and of the last event.
  public var firstTime: Timestamp?
  public var lastTime: Timestamp?
  /// Events by type: the known types in the spec's order (all of them, zeros
  /// included), then unknown types by name.
  public var eventsByType: [String: Int] = [:]
  /// Moves by direction and by trigger; animated moves.
  public var movesByDirection: [Direction: Int] = [:]
  public var movesByTrigger: [MoveTrigger: Int] = [:]
  public var animatedMoves = 0
  /// Pans by outcome.
  public var pansByOutcome: [PanOutcome: Int] = [:]
  /// Controllers in the order first named (merged: first journal first).
  public var controllers: [ControllerStats] = []
  /// `modal` events.
  public var modalsPresented = 0
  /// Modals deallocated by the end of the journal.
  public var modalsDeallocated = 0
  /// Modals that `check` reports as leaked (`modal-leak`: kept alive when their presenter
  /// reappeared), in the order reported. A modal still on screen at the end is not leaked.
  public var leakedModals: [ControllerID] = []
  /// Findings by rule id (integrity and lifecycle rules).
  public var findingsByRule: [String: Int] = [:]
  /// Findings by severity.
  public var errors = 0
  public var warnings = 0
  /// Findings of the journal format of error severity (``FormatRule``): the
  /// journal could not be read correctly.
  public var formatErrors = 0

  public init() {}

  /// Every move.
  public var moves: Int { movesByTrigger.values.reduce(0, +) }
  /// Every pan.
  public var pans: Int { pansByOutcome.values.reduce(0, +) }
  /// Every finding.
  public var findings: Int { errors + warnings }
  /// `modal-leak` findings.
  public var modalLeakFindings: Int { findingsByRule["modal-leak"] ?? 0 }
  /// From the first to the last event, in milliseconds (0 without events).
  public var durationMilliseconds: Double {
    guard let firstTime, let lastTime else { return 0 }
    return Double(lastTime.microseconds - firstTime.microseconds) / 1000
  }

  /// Type names in report order: the known types, then unknown ones by name.
  public var typeNames: [String] {
    Event.knownTypeNames + eventsByType.keys.filter { !Event.knownTypeNames.contains($0) }.sorted()
  }

  /// Rule ids with findings, in the order `check` lists rules (unknown ids last, by name).
  public var ruleIDs: [String] {
    let known = StatsReport.ruleOrder.filter { findingsByRule[$0] != nil }
    return known + findingsByRule.keys.filter { !StatsReport.ruleOrder.contains($0) }.sorted()
  }

  /// These stats with the controllers' rows merged by class (`stats --by class`):
  /// one row per class, named by the class, in the order the classes were first
  /// met; a controller never allocated keeps a row of its own, named by its id.
  public func mergedByClass() -> SessionStats {
    var merged = self
    merged.controllers = []
    var index: [String: Int] = [:]
    for c in controllers {
      let name = c.className ?? c.controller.rawValue
      if let i = index[name] {
        merged.controllers[i].visits += c.visits
        merged.controllers[i].dwellMicroseconds += c.dwellMicroseconds
        merged.controllers[i].openVisits += c.openVisits
      } else {
        index[name] = merged.controllers.count
        merged.controllers.append(
          ControllerStats(
            controller: ControllerID(name), className: c.className, visits: c.visits,
            dwellMicroseconds: c.dwellMicroseconds, openVisits: c.openVisits))
      }
    }
    return merged
  }

  /// Adds another journal's stats to these (the merged stats of ``StatsReport/overall``).
  public mutating func merge(_ other: SessionStats) {
    journals += other.journals
    events += other.events
    if let t = other.firstTime { firstTime = Swift.min(firstTime ?? t, t) }
    if let t = other.lastTime { lastTime = Swift.max(lastTime ?? t, t) }
    eventsByType.merge(other.eventsByType, uniquingKeysWith: +)
    movesByDirection.merge(other.movesByDirection, uniquingKeysWith: +)
    movesByTrigger.merge(other.movesByTrigger, uniquingKeysWith: +)
    animatedMoves += other.animatedMoves
    pansByOutcome.merge(other.pansByOutcome, uniquingKeysWith: +)
    var index: [ControllerID: Int] = [:]
    index.reserveCapacity(controllers.count + other.controllers.count)
    for (i, c) in controllers.enumerated() { index[c.controller] = i }
    for c in other.controllers {
      if let i = index[c.controller] {
        controllers[i].visits += c.visits
        controllers[i].dwellMicroseconds += c.dwellMicroseconds
        controllers[i].openVisits += c.openVisits
        controllers[i].incompleteVisits += c.incompleteVisits
        if controllers[i].className == nil { controllers[i].className = c.className }
      } else {
        index[c.controller] = controllers.count
        controllers.append(c)
      }
    }
    modalsPresented += other.modalsPresented
    modalsDeallocated += other.modalsDeallocated
    leakedModals += other.leakedModals
    findingsByRule.merge(other.findingsByRule, uniquingKeysWith: +)
    formatErrors += other.formatErrors
    errors += other.errors
    warnings += other.warnings
  }
}
