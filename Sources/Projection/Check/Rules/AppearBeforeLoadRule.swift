import Journal

/// `appear-before-load`: any of the four appearance callbacks before the
/// controller's didLoad.
///
/// The legacy library never loaded the root (L1) nor the `from` end of a link
/// (L2), so their appearance callbacks come unloaded.
enum AppearBeforeLoadRule {
  static let rule = CheckRule.appearBeforeLoad

  /// Looks at a callback on `controller`, as it was before the callback.
  static func inspect(
    _ callback: Callback, on controller: ControllerState, in transition: Transition?, _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance, !controller.isLoaded, findings.wants(rule) else { return }
    findings.report(rule, [controller.id], "\(idText(controller.id)): \(callback) before didLoad", in: transition)
  }
}
