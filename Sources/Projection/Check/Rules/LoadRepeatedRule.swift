import Journal

/// `load-repeated`: didLoad more than once for one instance.
///
/// didLoad fires exactly once per instance (spec rule 1); the legacy library
/// sent it on every link that assigned the controller (L2).
enum LoadRepeatedRule {
  static let rule = CheckRule.loadRepeated

  /// Looks at a callback on `id`, which had `loadCount` didLoads before it.
  @inline(__always)
  static func inspect(
    _ id: ControllerID, _ callback: Callback, loadCount: Int, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    guard callback == .didLoad, loadCount > 0, findings.wants(rule) else { return }
    findings.report(rule, [id], .loadRepeated(id, count: loadCount + 1), in: transition)
  }
}
