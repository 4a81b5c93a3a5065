import Journal

/// `appear-before-load`: an appearance callback before the controller's didLoad,
/// reported once per instance (its first such callback).
///
/// The legacy library never loaded the root (L1) nor the `from` end of a link
/// (L2), so their appearance callbacks come unloaded.
enum AppearBeforeLoadRule {
  static let rule = CheckRule.appearBeforeLoad

  /// Whether the rule applies to a callback on a controller with `loadCount` didLoads, for which
  /// the rule `alreadyReported` or not.
  @inline(__always)
  static func applies(_ callback: Callback, loadCount: Int, alreadyReported: Bool) -> Bool {
    callback.isAppearance && loadCount == 0 && !alreadyReported
  }

  static func report(
    _ id: ControllerID, _ callback: Callback, in transition: Transition?, _ findings: inout CheckFindings
  ) {
    findings.report(rule, [id], .appearBeforeLoad(id, callback), in: transition)
  }
}
