import Journal

/// `visible-count`: at rest (a transition has happened and none is in flight)
/// the number of appeared controllers is not exactly 1; reported once per
/// period at rest, at the event that made the count wrong.
///
/// Keeps the number of alive appeared controllers up to date from the
/// callbacks and deallocs, so the check costs O(1) per event.
struct VisibleCountRule {
  static let rule = CheckRule.visibleCount

  /// Alive controllers whose phase is `appeared`.
  private(set) var appeared = 0
  /// `seq` of the transition whose period at rest was reported.
  private var reportedPeriod = -1

  /// A callback moved an alive controller from `before` to the callback's phase.
  mutating func callback(_ callback: Callback, from before: ControllerState.Phase) {
    let after: ControllerState.Phase
    switch callback {
    case .didLoad: return
    case .willAppear: after = .appearing
    case .didAppear: after = .appeared
    case .willDisappear: after = .disappearing
    case .didDisappear: after = .disappeared
    }
    if before == .appeared { appeared -= 1 }
    if after == .appeared { appeared += 1 }
  }

  /// An alive controller in phase `phase` was deallocated.
  mutating func deallocated(in phase: ControllerState.Phase) {
    if phase == .appeared { appeared -= 1 }
  }

  /// Whether ``inspect(in:_:)`` may report after a callback or a dealloc, given the state's
  /// transition: the count is off at rest (the transition complete) in a period not yet reported.
  @inline(__always)
  func mayReport(after transition: Transition?) -> Bool {
    appeared != 1 && transition?.isComplete == true && transition?.seq != reportedPeriod
  }

  /// After a callback or a dealloc for which ``mayReport(after:)`` holds: reports the wrong count.
  mutating func inspect(in state: State, _ findings: inout CheckFindings) {
    guard mayReport(after: state.transition), let last = state.transition, findings.wants(Self.rule) else { return }
    reportedPeriod = last.seq
    let shown = Array(state.controllers.lazy.filter { $0.isAlive && $0.phase == .appeared }.prefix(8).map(\.id))
    findings.report(Self.rule, shown, .visibleCount(appeared, shown: shown), in: last)
  }
}
