import Journal

/// `did-without-will`: didAppear when the controller is not appearing, or
/// didDisappear when it is not disappearing.
enum DidWithoutWillRule {
  static let rule = CheckRule.didWithoutWill

  /// Looks at a callback on `controller`, as it was before the callback.
  static func inspect(
    _ callback: Callback, on controller: ControllerState, in transition: Transition?, _ findings: inout CheckFindings
  ) {
    let needed: ControllerState.Phase
    switch callback {
    case .didAppear: needed = .appearing
    case .didDisappear: needed = .disappearing
    case .didLoad, .willAppear, .willDisappear: return
    }
    guard controller.phase != needed, findings.wants(rule) else { return }
    findings.report(
      rule, [controller.id], "\(idText(controller.id)): \(callback) while \(controller.phase), not \(needed)",
      in: transition)
  }
}
