import Journal

/// The lifecycle checker: streams over a journal's records and reports every
/// lifecycle and graph rule of the spec (``CheckRule``) as ``Finding`` values:
/// the fact as data, put into words only by an output that shows it
/// (``Finding/message(_:)``).
///
/// It folds each record with the model's own ``reduce(into:_:)`` and looks at
/// the state before the record, the record and the fold's anomalies. Memory is
/// the model's state (constant per controller) plus a few values per rule;
/// findings come out sorted by line. A `modal-leak` found once a cleanup has
/// passed is reported at the presenter's didAppear, so findings of the cleanup
/// events after it are held back until then (see ``heldSince``).
///
/// ```swift
/// var checker = Checker()
/// var findings: [Finding] = []
/// for (index, record) in records.enumerated() {
///   checker.check(record, line: index + 1, into: &findings)
/// }
/// checker.finish(into: &findings)
/// CheckFinding.rule(findings[0]).formatted(file: "j.ndjson")  // rendered here, not while checking
/// // j.ndjson:14: error: notes: willAppear while already appearing (in move at seq 10: home → notes) [will-repeated]
/// ```
///
/// - Complexity: O(1) amortised per record (the fold's cost), plus the facts of
///   what it reports (a few ids each).
public struct Checker: Sendable {
  /// The rules reported.
  public let rules: RuleSelection
  /// The model's state after the last record checked.
  public private(set) var state = State()

  private var findings: CheckFindings
  /// CheckFindings of the cleanup events after a didAppear, until its modal-leak check ran.
  private var held: [Finding] = []
  private var lastLine = 0
  private var lastSeq: Int?
  private var lastSource: String?

  private var recent = RecentIDs()
  /// The position in ``state`` of the last lifecycle record's controller (-1: not allocated; a
  /// trace made beside the checker reads it rather than look the id up once more).
  package private(set) var lifecyclePosition: Int32 = -1
  /// Between the rules before a record and those after it: the position of the controller whose
  /// didAppear ends the transition in flight (-1 on every other record), and the transition a move
  /// leaves unfinished (nil on every other record), for the modal-leak rule.
  ///
  /// Implementation note: members set on those records only, not locals of every record: an
  /// optional transition in a local would be destroyed at the end of every record (a call to the
  /// runtime's generic destroy). The ending transition is not kept: a didAppear leaves the
  /// transition in the state (adding its arrival), where the rule reads it after the fold; a copy
  /// of it retained and released its ids at nearly every move's end.
  private var endingAt: Int32 = -1
  private var unfinishedMove: Transition?
  private var visibleCount = VisibleCountRule()
  private var modalLeak = ModalLeakRule()
  /// The findings reported once per instance, by position.
  private var flags = InstanceFlags()
  /// `seq` of the last transition an `order` finding was reported in (once per transition).
  private var orderReported = -1

  /// A checker reporting `rules` (all by default).
  public init(rules: RuleSelection = .all) {
    self.rules = rules
    findings = CheckFindings(rules: rules)
  }

  /// The line of the earliest finding that may still be reported before findings
  /// of later lines: a didAppear whose cleanup is passing by. Nil when every
  /// finding up to the last record has been returned.
  public var heldSince: Int? { modalLeak.pending?.line }

  /// The rules on a callback, given the transition of the state before it; whether the callback
  /// is the didAppear of the transition in flight's `to` (for the modal-leak rule).
  ///
  /// Implementation note: the caller passes the state's transition itself, which every rule
  /// reads in place (a copy of it would retain and release its ids and arrivals at every
  /// callback, through the runtime's generic value witnesses).
  @inline(__always)
  private static func inspect(
    _ id: ControllerID, _ callback: Callback, _ facts: ControllerState.Appearance, at position: Int32,
    transition: Transition?, _ flags: inout InstanceFlags, orderReported: inout Int, _ findings: inout CheckFindings
  ) -> Bool {
    // Which ends of the transition in flight the controller is: compared once for the rules that ask.
    let ends = transition?.isComplete == false ? transition?.ends(of: id) : nil
    LoadRepeatedRule.inspect(id, callback, loadCount: facts.loadCount, in: transition, &findings)
    if callback.isAppearance {
      let wasReported = facts.loadCount == 0 && flags.loadReported(position)
      var loadReported = wasReported
      AppearanceCallbackRules.inspect(
        id, callback, facts, loadReported: &loadReported, transition: transition, inFlight: ends, &findings)
      if loadReported != wasReported { flags.setLoadReported(position) }
    }
    OrderRule.inspect(id, callback, last: transition, inFlight: ends, reported: &orderReported, &findings)
    return callback == .didAppear && ends?.isTo == true
  }

  /// Checks one record.
  ///
  /// - Parameters:
  ///   - record: the next record of the journal, in file order.
  ///   - line: its 1-based line in the journal.
  ///   - found: where the findings that are final go, sorted by line.
  public mutating func check(_ record: Record, line: Int, into found: inout [Finding]) {
    findings.line = line
    findings.seq = record.seq
    findings.source = record.source
    lastLine = line
    lastSeq = record.seq
    lastSource = findings.source
    if modalLeak.pending != nil && !modalLeak.continuesCleanup(record.event) {
      modalLeak.cleanupPassed(in: state, &flags, &findings)
      found.append(contentsOf: findings.found)
      found.append(contentsOf: held)
      findings.found.removeAll(keepingCapacity: true)
      held.removeAll(keepingCapacity: true)
    }
    let holding = modalLeak.pending != nil

    // Rules on the state before the record.
    var callbackPhase: ControllerState.Phase?
    // A lifecycle or dealloc record's position, looked up here once: the fold takes it rather than look the id up again.
    var position: Int32 = -1
    switch record.event {
    case .lifecycle(let id, let callback):
      position = self.position(of: id)
      lifecyclePosition = position
      if position >= 0, let facts = state.lifecycleFacts(at: position) {
        callbackPhase = facts.phase
        // The transition is copied for the modal-leak rule only when the callback ends it (rare):
        // an optional transition kept on every callback was destroyed on every callback.
        if Self.inspect(
          id, callback, facts, at: position, transition: state.transition, &flags, orderReported: &orderReported,
          &findings),
          modalLeak.endsTransition(flight: state.transition?.seq)
        {
          endingAt = position
        }
      }
    case .move:
      // The transition is read in place and copied only when the modal-leak rule must look at it
      // after the move (its didAppear never came): a copy at every move retained and released its ids.
      if state.transition?.isComplete == false { IncompleteTransitionRule.nextMoveStarts(state.transition, &findings) }
      if modalLeak.moveStarts(last: state.transition?.seq) { unfinishedMove = state.transition }
    case .pan(let pan):
      if let required = TouchesViolatedRule.violated(by: pan, in: state) {
        TouchesViolatedRule.report(pan, required: required, in: state.transition, &findings)
      }
    case .dealloc(let id):
      position = self.position(of: id)
      if position >= 0 { callbackPhase = state.lifecycleFacts(at: position)?.phase }
    case .unlink(let from, let direction):
      if modalLeak.pending != nil { modalLeak.unlink(from, direction, in: state) }
    case .session, .alloc, .root, .link, .modal, .touches, .mark, .unknown:
      break
    }

    let anomalies = state.fold(record, position: position)
    for anomaly in anomalies { report(anomaly) }

    // Rules on the state after the record.
    switch record.event {
    case .lifecycle(_, let callback):
      if let before = callbackPhase {
        visibleCount.callback(callback, from: before)
        if visibleCount.mayReport(after: state.transition) { visibleCount.inspect(in: state, &findings) }
      }
      if endingAt >= 0 {
        modalLeak.didAppear(of: endingAt, line: line, seq: record.seq, source: findings.source, in: state)
        endingAt = -1
      }
    case .dealloc:
      if let before = callbackPhase {
        visibleCount.deallocated(in: before)
        if visibleCount.mayReport(after: state.transition) { visibleCount.inspect(in: state, &findings) }
      }
    case .move:
      if let unfinished = unfinishedMove {
        unfinishedMove = nil
        modalLeak.moveStarted(after: unfinished, in: state, &flags, &findings)
      }
    case .session, .alloc, .root, .link, .unlink, .modal, .touches, .pan, .mark, .unknown:
      break
    }

    guard !findings.found.isEmpty else { return }
    if holding {
      held.append(contentsOf: findings.found)
    } else {
      found.append(contentsOf: findings.found)
    }
    findings.found.removeAll(keepingCapacity: true)
  }

  /// Ends the journal: reports what only its end shows (an unfinished transition,
  /// a modal still linked to a presenter whose didAppear never came) and returns
  /// every finding still held, at the last record's line.
  public mutating func finish(into found: inout [Finding]) {
    findings.line = lastLine
    findings.seq = lastSeq
    findings.source = lastSource
    modalLeak.cleanupPassed(in: state, &flags, &findings)
    found.append(contentsOf: findings.found)
    found.append(contentsOf: held)
    findings.found.removeAll(keepingCapacity: true)
    held.removeAll()
    IncompleteTransitionRule.journalEnds(state.transitionInFlight, &findings)
    modalLeak.journalEnds(in: state, &flags, &findings)
    found.append(contentsOf: findings.found)
    findings.found.removeAll()
  }

  /// Checks whole records in memory, numbering lines from 1 (one record per line).
  ///
  /// ```swift
  /// let findings = Checker.check(navigator.records)
  /// ```
  public static func check(_ records: some Sequence<Record>, rules: RuleSelection = .all) -> [Finding] {
    var checker = Checker(rules: rules)
    var found: [Finding] = []
    for (index, record) in records.enumerated() { checker.check(record, line: index + 1, into: &found) }
    checker.finish(into: &found)
    return found
  }

  /// The position of `id` in the state (kept in ``recent`` once looked up), or -1 if it was never allocated.
  ///
  /// Implementation note: the state is read here as the checker's own member. Passed as an argument
  /// to a method of another member (``RecentIDs/position(of:in:)``), or beside `&findings`, it was
  /// copied (336 bytes) at every call, so the rules that need it are called only when they may report.
  @inline(__always)
  private mutating func position(of id: ControllerID) -> Int32 {
    if let p = recent.find(id) { return p }
    guard let p = state.position(of: id) else { return -1 }
    recent.insert(id, p)
    return p
  }

  /// The rule an anomaly of the fold belongs to, unless a modal reported as leaked makes it
  /// (one defect, one finding).
  private mutating func report(_ anomaly: Anomaly) {
    let transition = state.transition
    switch anomaly.fact {
    case .slotOccupied(_, _, _, let occupant):
      if let o = state.position(of: occupant), flags.leakReported(o) { return }
    case .deallocForbidden(let id, .presenter):
      // After the fold, the dealloc'd presenter still lists its alive modals.
      if let x = state.position(of: id), state.store[Int(x)].presented.allSatisfy({ flags.leakReported($0) }) { return }
    case .idReused(let id, _, alive: false):
      if let p = state.position(of: id) { flags.reset(p) }
    case .linkToItself, .modalPresentedByItself, .idReused, .unknownController, .useAfterDealloc, .deallocForbidden,
      .focusMismatch, .notNeighbour:
      break
    }
    switch anomaly.rule {
    case .selfLink: SelfLinkRule.report(anomaly, in: transition, &findings)
    case .slotOccupied: SlotOccupiedRule.report(anomaly, in: transition, &findings)
    case .idReused: IDReusedRule.report(anomaly, in: transition, &findings)
    case .unknownController: UnknownControllerRule.report(anomaly, in: transition, &findings)
    case .useAfterDealloc: UseAfterDeallocRule.report(anomaly, in: transition, &findings)
    case .deallocForbidden: DeallocForbiddenRule.report(anomaly, in: transition, &findings)
    case .focusMismatch: FocusMismatchRule.report(anomaly, in: transition, &findings)
    case .notNeighbour: NotNeighbourRule.report(anomaly, in: transition, &findings)
    default: break  // the fold breaks graph rules only
    }
  }
}
