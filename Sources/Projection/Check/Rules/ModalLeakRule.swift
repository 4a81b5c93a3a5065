import Journal

/// `modal-leak`: when a transition into a presenter P ends, a modal of P that is
/// alive, not the focus, and either still linked to P or unlinked from P right
/// after P's didAppear but never deallocated (dismissed, but kept alive by a
/// retain cycle); reported once per modal (spec rule 5; legacy L4).
///
/// The end of a transition into P is P's didAppear and the unlink/dealloc events
/// and P's own callbacks right after it (the cleanup): the check runs at the first
/// other event and is reported at the didAppear's line. A transition whose
/// didAppear never comes is checked at the next move, once that move's target is
/// the focus (reported at the move), or at the end of the journal. Each
/// transition is checked once, and a modal reported once is never again, nor
/// does it make a `slot-occupied` or a `dealloc-forbidden` afterwards
/// (``InstanceFlags/leakReported``).
struct ModalLeakRule {
  static let rule = CheckRule.modalLeak

  /// A didAppear whose cleanup is still passing by.
  struct Pending {
    var transition: Transition
    var line: Int
    var seq: Int
    /// The didAppear's call site.
    var source: String?
    /// Positions of P's modals unlinked from P during the cleanup, in the order unlinked.
    var unlinked: [Int32] = []
  }

  /// Set from P's didAppear until the first event that is not an unlink, a dealloc or a
  /// callback of P.
  private(set) var pending: Pending?
  /// `seq` of the last transition checked.
  private var checkedSeq = -1

  /// Whether a record continues the cleanup of the pending didAppear: an unlink, a dealloc,
  /// or a callback of the presenter itself (a didAppear forwarded twice, say).
  func continuesCleanup(_ event: borrowing Event) -> Bool {
    switch event {
    case .unlink, .dealloc: return true
    case .lifecycle(let id, _): return pending.map { $0.transition.to == id } ?? false
    case .session, .alloc, .root, .link, .modal, .touches, .pan, .move, .mark, .unknown: return false
    }
  }

  /// Before the didAppear of the `to` of the transition in flight (whose `seq` this is) is folded:
  /// whether it ends a transition not checked yet.
  func endsTransition(flight seq: Int?) -> Bool {
    guard let seq else { return false }
    return seq != checkedSeq
  }

  /// After the didAppear that ends the transition in flight was folded at `line`: `p` is the
  /// position of the transition's `to`, whose didAppear it is; the transition is `state`'s (a
  /// didAppear's fold only notes its arrival).
  mutating func didAppear(of p: Int32, line: Int, seq: Int, source: String?, in state: State) {
    guard let flight = state.transition?.seq else { return }
    checkedSeq = flight
    // Nothing can leak from a presenter without alive modals: no need to wait.
    // (Its list of modals is looked at in place: copying it as ids to see whether it is empty cost a scan of it.)
    guard !state.store[Int(p)].presented.isEmpty, let transition = state.transition else { return }
    pending = Pending(transition: transition, line: line, seq: seq, source: source)
  }

  /// Before an `unlink` of the cleanup is folded: notes a modal of P that it unlinks from P.
  mutating func unlink(_ from: ControllerID, _ direction: Direction, in state: State) {
    guard let presenter = pending?.transition.to,
      let p = state.alivePosition(of: presenter, expecting: state.focusIndex),
      let x = state.alivePosition(of: from, expecting: -1), let y = state.store[Int(x)].neighbours[direction]
    else { return }
    let presented = state.store[Int(p)].presented
    let modal: Int32
    if x == p && presented.contains(y) {
      modal = y
    } else if y == p && presented.contains(x) {
      modal = x
    } else {
      return
    }
    if pending?.unlinked.contains(modal) == false { pending?.unlinked.append(modal) }
  }

  /// Before any event that does not continue the cleanup (``continuesCleanup(_:)``): checks the
  /// pending presenter.
  mutating func cleanupPassed(in state: State, _ flags: inout InstanceFlags, _ findings: inout CheckFindings) {
    guard let pending else { return }
    self.pending = nil
    let p = pending.transition.to
    for (modal, dismissed) in Self.leaks(of: p, unlinked: pending.unlinked, in: state, flags) {
      flags.setLeakReported(state.position(of: modal))
      findings.report(
        Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .didAppear, dismissed: dismissed),
        in: pending.transition, line: pending.line, seq: pending.seq, source: pending.source)
    }
  }

  /// Before a `move` is folded, given the `seq` of the last transition started: whether it was
  /// never checked (its didAppear never came), so that ``moveStarted(after:in:_:_:)`` checks it.
  mutating func moveStarts(last seq: Int?) -> Bool {
    guard let seq, seq != checkedSeq else { return false }
    checkedSeq = seq
    return true
  }

  /// After the `move` was folded: checks the transition ``moveStarts(last:)`` returned.
  func moveStarted(
    after unfinished: Transition, in state: State, _ flags: inout InstanceFlags, _ findings: inout CheckFindings
  ) {
    let p = unfinished.to
    for (modal, _) in Self.leaks(of: p, unlinked: [], in: state, flags) {
      flags.setLeakReported(state.position(of: modal))
      findings.report(
        Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .nextMove, dismissed: false), in: unfinished)
    }
  }

  /// At the end of the journal (after ``cleanupPassed(in:_:_:)``): the last transition, if never checked.
  mutating func journalEnds(in state: State, _ flags: inout InstanceFlags, _ findings: inout CheckFindings) {
    guard let last = state.transition, last.seq != checkedSeq else { return }
    checkedSeq = last.seq
    let p = last.to
    for (modal, _) in Self.leaks(of: p, unlinked: [], in: state, flags) {
      flags.setLeakReported(state.position(of: modal))
      findings.report(
        Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .journalEnd, dismissed: false), in: last)
    }
  }

  /// P's alive modals, not the focus and not reported before, that are linked to P or among
  /// `unlinked` (then `dismissed`), in presentation order.
  ///
  /// Implementation note: a presenter whose modals leak keeps them all, so the list of its
  /// modals grows as a legacy journal goes on; it is scanned in place, against P's four slots.
  static func leaks(
    of presenter: ControllerID, unlinked: [Int32], in state: State, _ flags: InstanceFlags
  ) -> [(modal: ControllerID, dismissed: Bool)] {
    guard let p = state.position(of: presenter) else { return [] }
    let controller = state.store[Int(p)]
    guard controller.isAlive, !controller.presented.isEmpty else { return [] }
    let n = controller.neighbours
    let focus = state.focusIndex
    var leaks: [(modal: ControllerID, dismissed: Bool)] = []
    for position in controller.presented where position != focus && !flags.leakReported(position) {
      let linked = position == n.left || position == n.right || position == n.up || position == n.down
      if linked {
        leaks.append((state.id(at: position), false))
      } else if unlinked.contains(position) {
        leaks.append((state.id(at: position), true))
      }
    }
    return leaks
  }
}
