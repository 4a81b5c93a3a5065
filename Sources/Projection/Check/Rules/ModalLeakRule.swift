import Journal

/// `modal-leak`: when a transition into a presenter P ends, a modal of P that is
/// still linked to P, not the focus, and alive (spec rule 5; legacy L4).
///
/// The end of a transition into P is P's didAppear and the unlink/dealloc events
/// right after it (the cleanup): the check runs at the first other event and is
/// reported at the didAppear's line. A transition whose didAppear never comes is
/// checked at the next move, once that move's target is the focus (reported at
/// the move), or at the end of the journal. Each transition is checked once.
struct ModalLeakRule {
  static let rule = CheckRule.modalLeak

  /// A didAppear whose cleanup is still passing by.
  struct Pending {
    var transition: Transition
    var line: Int
    var seq: Int
  }

  /// Set from P's didAppear until the first event that is not an unlink or dealloc.
  private(set) var pending: Pending?
  /// `seq` of the last transition checked.
  private var checkedSeq = -1

  /// Before the didAppear of the `to` of the transition in flight (whose `seq` this is) is folded:
  /// whether it ends a transition not checked yet.
  func endsTransition(flight seq: Int?) -> Bool {
    guard let seq else { return false }
    return seq != checkedSeq
  }

  /// After the didAppear that ends `transition` was folded at `line`.
  mutating func didAppear(ending transition: Transition, line: Int, seq: Int, in state: State) {
    checkedSeq = transition.seq
    // Nothing can leak from a presenter without alive modals: no need to wait.
    // (Its list of modals is looked at in place: copying it as ids to see whether it is empty cost a scan of it.)
    guard let p = state.position(of: transition.to), !state.store[Int(p)].presented.isEmpty else { return }
    pending = Pending(transition: transition, line: line, seq: seq)
  }

  /// Before any event other than an unlink or a dealloc: checks the pending presenter.
  mutating func cleanupPassed(in state: State, _ findings: inout CheckFindings) {
    guard let pending else { return }
    self.pending = nil
    let p = pending.transition.to
    for modal in Self.leaks(of: p, in: state) {
      findings.report(
        Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .didAppear), in: pending.transition,
        line: pending.line, seq: pending.seq)
    }
  }

  /// Before a `move` is folded, given the `seq` of the last transition started: whether it was
  /// never checked (its didAppear never came), so that ``moveStarted(after:in:_:)`` checks it.
  mutating func moveStarts(last seq: Int?) -> Bool {
    guard let seq, seq != checkedSeq else { return false }
    checkedSeq = seq
    return true
  }

  /// After the `move` was folded: checks the transition ``moveStarts(last:)`` returned.
  func moveStarted(after unfinished: Transition, in state: State, _ findings: inout CheckFindings) {
    let p = unfinished.to
    for modal in Self.leaks(of: p, in: state) {
      findings.report(Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .nextMove), in: unfinished)
    }
  }

  /// At the end of the journal (after ``cleanupPassed(in:_:)``): the last transition, if never checked.
  mutating func journalEnds(in state: State, _ findings: inout CheckFindings) {
    guard let last = state.transition, last.seq != checkedSeq else { return }
    checkedSeq = last.seq
    let p = last.to
    for modal in Self.leaks(of: p, in: state) {
      findings.report(Self.rule, [modal, p], .modalLeak(modal: modal, presenter: p, .journalEnd), in: last)
    }
  }

  /// P's alive modals that are linked to P and are not the focus, in presentation order.
  ///
  /// Implementation note: a presenter whose modals leak keeps them all, so the
  /// list of its modals grows as a legacy journal goes on; it is scanned in
  /// place, against the ids in P's four slots, instead of being copied as ids
  /// and each compared with a ``Links`` built for it (measured on a legacy
  /// journal: Benchmarks/README.md#figures-behind-the-notes). Ids, not positions, are compared, as before: an id can
  /// name a dead controller and the new one allocated under it.
  static func leaks(of presenter: ControllerID, in state: State) -> [ControllerID] {
    guard let p = state.position(of: presenter) else { return [] }
    let controller = state.store[Int(p)]
    guard controller.isAlive, !controller.presented.isEmpty, !controller.neighbours.isEmpty else { return [] }
    let n = controller.neighbours
    let linked = [n.left, n.right, n.up, n.down].compactMap { $0 < 0 ? nil : state.id(at: $0) }
    let focus = state.focus
    var leaks: [ControllerID] = []
    for position in controller.presented {
      let modal = state.id(at: position)
      if modal != focus && linked.contains(modal) { leaks.append(modal) }
    }
    return leaks
  }
}
