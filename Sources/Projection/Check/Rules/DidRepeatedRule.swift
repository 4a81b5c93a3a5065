import Journal

/// `did-repeated`: didAppear (didDisappear) when the controller's last appearance
/// callback was that same didAppear (didDisappear): a callback delivered twice,
/// as a container that forwards its child's callbacks twice does.
enum DidRepeatedRule {
  static let rule = CheckRule.didRepeated

  /// Whether the rule applies to a callback on `controller` (its state before the callback).
  @inline(__always)
  static func applies(_ callback: Callback, to controller: ControllerState.Appearance) -> Bool {
    controller.repeats(callback)
  }

  static func report(
    _ id: ControllerID, _ callback: Callback, in transition: Transition?, _ findings: inout CheckFindings
  ) {
    findings.report(rule, [id], .didRepeated(id, callback), in: transition)
  }
}
