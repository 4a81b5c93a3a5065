import Journal

/// `incomplete-transition`: a transition (a move, or the initial display of the
/// root) whose callbacks have not all arrived when the next move starts or the
/// journal ends; reported there.
///
/// The legacy root displayed nothing (L1) and the legacy animated move never
/// sent didAppear (L3).
enum IncompleteTransitionRule {
  static let rule = CheckRule.incompleteTransition

  /// Before a `move` is folded: the transition it replaces, if still in flight.
  static func nextMoveStarts(_ flight: Transition?, _ findings: inout CheckFindings) {
    guard let flight, findings.wants(rule) else { return }
    findings.report(rule, flight.ends, .incompleteTransition(missing: flight.missing, atEnd: false), in: flight)
  }

  /// At the end of the journal: the last transition, if still in flight.
  static func journalEnds(_ flight: Transition?, _ findings: inout CheckFindings) {
    guard let flight, findings.wants(rule) else { return }
    findings.report(rule, flight.ends, .incompleteTransition(missing: flight.missing, atEnd: true), in: flight)
  }
}
