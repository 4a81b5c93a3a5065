import Journal

/// `touches-violated`: a committed pan with fewer touches than the controller
/// needs in that direction.
///
/// The legacy library drew the minimum on the map but never refused a pan (L5).
enum TouchesViolatedRule {
  static let rule = CheckRule.touchesViolated

  /// Looks at a `pan` in the state before it.
  static func inspect(_ pan: Pan, in state: State, _ findings: inout CheckFindings) {
    // The fields read in place at the controller's position (the focus, mostly): `state[controller:]`
    // hashed the id and copied the whole controller, its strings and lists retained, at every pan.
    guard pan.outcome == .committed, let p = state.alivePosition(of: pan.controller, expecting: state.focusIndex) else {
      return
    }
    let required = state.store[Int(p)].minimumTouches[pan.direction]
    guard pan.touches < required, findings.wants(rule) else { return }
    findings.report(
      rule, [pan.controller], .touchesViolated(pan.controller, pan.direction, touches: pan.touches, required: required),
      in: state.transition)
  }
}
