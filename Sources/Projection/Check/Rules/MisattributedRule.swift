import Journal

/// `misattributed`: an appearance callback on a controller that is not one end
/// of the transition in flight, or when no transition is in flight.
///
/// The legacy library's animated goToRoot started every step at once, so the
/// completions of the earlier steps arrive during the last one (L6).
enum MisattributedRule {
  static let rule = CheckRule.misattributed

  /// Whether the rule applies to an appearance callback, given which ends of the transition in
  /// flight its controller is (nil: none is in flight).
  @inline(__always)
  static func applies(_ callback: Callback, inFlight ends: Transition.Ends?) -> Bool {
    callback.isAppearance && ends?.involved != true
  }

  static func report(
    _ id: ControllerID, _ callback: Callback, last: Transition?, inFlight ends: Transition.Ends?,
    _ findings: inout CheckFindings
  ) {
    findings.report(rule, [id], .misattributed(id, callback, inFlight: ends != nil), in: last)
  }
}
