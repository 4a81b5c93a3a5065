import Journal

/// `will-repeated`: willAppear while already appearing or appeared, or
/// willDisappear while already disappearing or disappeared (a controller that
/// never appeared counts as disappeared).
///
/// The legacy library sent the appearing controller a second willAppear
/// instead of its didAppear (L3).
enum WillRepeatedRule {
  static let rule = CheckRule.willRepeated

  /// Whether the rule applies to a callback on a controller in `phase`.
  @inline(__always)
  static func applies(_ callback: Callback, phase: ControllerState.Phase) -> Bool {
    switch callback {
    case .willAppear: phase == .appearing || phase == .appeared
    case .willDisappear: phase == .disappearing || phase == .disappeared
    case .didLoad, .didAppear, .didDisappear: false
    }
  }

  static func report(
    _ id: ControllerID, _ callback: Callback, phase: ControllerState.Phase, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    findings.report(rule, [id], .willRepeated(id, callback, phase: phase), in: transition)
  }
}
