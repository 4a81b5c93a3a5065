import Journal

/// `appear-before-load`: any of the four appearance callbacks before the
/// controller's didLoad.
///
/// The legacy library never loaded the root (L1) nor the `from` end of a link
/// (L2), so their appearance callbacks come unloaded.
enum AppearBeforeLoadRule {
  static let rule = CheckRule.appearBeforeLoad

  /// Looks at a callback on `id`, which had `loadCount` didLoads before it.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, loadCount: Int, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance, loadCount == 0, findings.wants(rule) else { return }
    findings.report(rule, [id], .appearBeforeLoad(id, callback), in: transition)
  }
}
