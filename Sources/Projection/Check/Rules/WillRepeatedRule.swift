import Journal

/// `will-repeated`: willAppear while already appearing or appeared, or
/// willDisappear while already disappearing or disappeared (a controller that
/// never appeared counts as disappeared).
///
/// The legacy library sent the appearing controller a second willAppear
/// instead of its didAppear (L3).
enum WillRepeatedRule {
  static let rule = CheckRule.willRepeated

  /// Looks at a callback on `id`, whose phase was `phase` before it.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, phase: ControllerState.Phase, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    let repeated: Bool
    switch callback {
    case .willAppear: repeated = phase == .appearing || phase == .appeared
    case .willDisappear: repeated = phase == .disappearing || phase == .disappeared
    case .didLoad, .didAppear, .didDisappear: return
    }
    guard repeated, findings.wants(rule) else { return }
    findings.report(rule, [id], .willRepeated(id, callback, phase: phase), in: transition)
  }
}
