import Journal

/// `did-without-will`: didAppear when the controller is not appearing, or
/// didDisappear when it is not disappearing.
enum DidWithoutWillRule {
  static let rule = CheckRule.didWithoutWill

  /// Looks at a callback on `id`, whose phase was `phase` before it.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, phase: ControllerState.Phase, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    let needed: ControllerState.Phase
    switch callback {
    case .didAppear: needed = .appearing
    case .didDisappear: needed = .disappearing
    case .didLoad, .willAppear, .willDisappear: return
    }
    guard phase != needed, findings.wants(rule) else { return }
    findings.report(rule, [id], .didWithoutWill(id, callback, phase: phase, needed: needed), in: transition)
  }
}
