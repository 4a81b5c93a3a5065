import Journal

/// `will-repeated`: willAppear while already appearing or appeared, or
/// willDisappear while already disappearing or disappeared (a controller that
/// never appeared counts as disappeared).
///
/// The legacy library sent the appearing controller a second willAppear
/// instead of its didAppear (L3).
enum WillRepeatedRule {
  static let rule = CheckRule.willRepeated

  /// Looks at a callback on `controller`, as it was before the callback.
  static func inspect(
    _ callback: Callback, on controller: ControllerState, in transition: Transition?, _ findings: inout CheckFindings
  ) {
    let repeated: Bool
    switch callback {
    case .willAppear: repeated = controller.phase == .appearing || controller.phase == .appeared
    case .willDisappear: repeated = controller.phase == .disappearing || controller.phase == .disappeared
    case .didLoad, .didAppear, .didDisappear: return
    }
    guard repeated, findings.wants(rule) else { return }
    findings.report(
      rule, [controller.id], "\(idText(controller.id)): \(callback) while already \(controller.phase)", in: transition)
  }
}
