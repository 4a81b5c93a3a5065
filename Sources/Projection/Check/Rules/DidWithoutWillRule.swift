import Journal

/// `did-without-will`: didAppear when the controller is not appearing, or
/// didDisappear when it is not disappearing, and not `did-repeated`.
///
/// The did stands for its missing will in the transition in flight (the fold
/// counts that will as arrived), so the will is not reported again as missing
/// or out of order.
enum DidWithoutWillRule {
  static let rule = CheckRule.didWithoutWill

  /// Whether the rule applies to a callback on `controller` (its state before the callback).
  @inline(__always)
  static func applies(_ callback: Callback, to controller: ControllerState.Appearance) -> Bool {
    controller.lacksWill(callback)
  }

  static func report(
    _ id: ControllerID, _ callback: Callback, phase: ControllerState.Phase, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    let needed: ControllerState.Phase = callback == .didAppear ? .appearing : .disappearing
    findings.report(rule, [id], .didWithoutWill(id, callback, phase: phase, needed: needed), in: transition)
  }
}
