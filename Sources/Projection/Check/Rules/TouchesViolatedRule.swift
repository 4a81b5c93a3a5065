import Journal

/// `touches-violated`: a committed pan with fewer touches than the controller
/// needs in that direction.
///
/// The legacy library drew the minimum on the map but never refused a pan (L5).
enum TouchesViolatedRule {
  static let rule = CheckRule.touchesViolated

  /// The touches a committed `pan` needed, when it had fewer, in the state before it (else nil).
  ///
  /// The fields are read in place at the controller's position (the focus, mostly): `state[controller:]`
  /// would hash the id and copy the whole controller, its strings and lists retained, at every pan.
  @inline(__always)
  static func violated(by pan: Pan, in state: State) -> Int? {
    guard pan.outcome == .committed, let p = state.alivePosition(of: pan.controller, expecting: state.focusIndex) else {
      return nil
    }
    let required = state.store[Int(p)].minimumTouches[pan.direction]
    return pan.touches < required ? required : nil
  }

  /// Reports a pan that ``violated(by:in:)`` found, in the transition of the state before it.
  static func report(_ pan: Pan, required: Int, in transition: Transition?, _ findings: inout CheckFindings) {
    guard findings.wants(rule) else { return }
    findings.report(
      rule, [pan.controller], .touchesViolated(pan.controller, pan.direction, touches: pan.touches, required: required),
      in: transition)
  }
}
