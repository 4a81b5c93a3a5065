import Journal

/// `misattributed`: an appearance callback on a controller that is not one end
/// of the transition in flight, or when no transition is in flight.
///
/// The legacy library's animated goToRoot started every step at once, so the
/// completions of the earlier steps arrive during the last one (L6).
enum MisattributedRule {
  static let rule = CheckRule.misattributed

  /// Looks at a callback on `id`, given the last transition started before it
  /// and whether it is still in flight.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, last: Transition?, inFlight: Bool, _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance, findings.wants(rule) else { return }
    // Read in place (`?.`): binding the transition copied it, with its ids, at every callback.
    var flying = false
    if inFlight, let involved = last?.involves(id) {
      if involved { return }
      flying = true
    }
    findings.report(rule, [id], .misattributed(id, callback, inFlight: flying), in: last)
  }
}
