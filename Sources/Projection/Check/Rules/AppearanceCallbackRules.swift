import Journal

/// The five rules of an appearance callback on an alive controller, of which at
/// most one is reported for one callback (one defect, one finding): the first
/// that applies of `appear-before-load`, `will-repeated`, `did-repeated`,
/// `did-without-will` and `misattributed`.
///
/// A rule left out of the selection does not let a later one report instead: the
/// selection filters findings, it does not change which rule a callback breaks.
enum AppearanceCallbackRules {
  /// Looks at an appearance callback on `id`, whose state before it is `controller`.
  ///
  /// - Parameters:
  ///   - loadReported: whether `appear-before-load` was reported for this instance already;
  ///     set when it is reported now.
  ///   - transition: the last transition started before the callback.
  ///   - ends: which ends of it `id` is, when it is in flight.
  @inline(__always)
  static func inspect(
    _ id: ControllerID, _ callback: Callback, _ controller: ControllerState.Appearance, loadReported: inout Bool,
    transition: Transition?, inFlight ends: Transition.Ends?, _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance else { return }
    let phase = controller.phase
    if AppearBeforeLoadRule.applies(callback, loadCount: controller.loadCount, alreadyReported: loadReported) {
      loadReported = true
      guard findings.wants(AppearBeforeLoadRule.rule) else { return }
      AppearBeforeLoadRule.report(id, callback, in: transition, &findings)
    } else if WillRepeatedRule.applies(callback, phase: phase) {
      guard findings.wants(WillRepeatedRule.rule) else { return }
      WillRepeatedRule.report(id, callback, phase: phase, in: transition, &findings)
    } else if DidRepeatedRule.applies(callback, to: controller) {
      guard findings.wants(DidRepeatedRule.rule) else { return }
      DidRepeatedRule.report(id, callback, in: transition, &findings)
    } else if DidWithoutWillRule.applies(callback, to: controller) {
      guard findings.wants(DidWithoutWillRule.rule) else { return }
      DidWithoutWillRule.report(id, callback, phase: phase, in: transition, &findings)
    } else if MisattributedRule.applies(callback, inFlight: ends) {
      guard findings.wants(MisattributedRule.rule) else { return }
      MisattributedRule.report(id, callback, last: transition, inFlight: ends, &findings)
    }
  }
}
