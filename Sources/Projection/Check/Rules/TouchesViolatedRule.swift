import Journal

/// `touches-violated`: a committed pan with fewer touches than the controller
/// needs in that direction.
///
/// The legacy library drew the minimum on the map but never refused a pan (L5).
enum TouchesViolatedRule {
  static let rule = CheckRule.touchesViolated

  /// Looks at a `pan` in the state before it.
  static func inspect(_ pan: Pan, in state: State, _ findings: inout CheckFindings) {
    guard pan.outcome == .committed, let controller = state[controller: pan.controller], controller.isAlive
    else { return }
    let required = controller.minimumTouches[pan.direction]
    guard pan.touches < required, findings.wants(rule) else { return }
    findings.report(
      rule, [pan.controller], .touchesViolated(pan.controller, pan.direction, touches: pan.touches, required: required),
      in: state.transition)
  }
}
