import Journal

/// `misattributed`: an appearance callback on a controller that is not one end
/// of the transition in flight, or when no transition is in flight.
///
/// The legacy library's animated goToRoot started every step at once, so the
/// completions of the earlier steps arrive during the last one (L6).
enum MisattributedRule {
  static let rule = CheckRule.misattributed

  /// Looks at a callback on `id`, given the last transition started before it
  /// and, if it is still in flight, which of its ends `id` is.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, last: Transition?, inFlight ends: Transition.Ends?,
    _ findings: inout CheckFindings
  ) {
    guard callback.isAppearance, findings.wants(rule) else { return }
    var flying = false
    if let ends {
      if ends.involved { return }
      flying = true
    }
    findings.report(rule, [id], .misattributed(id, callback, inFlight: flying), in: last)
  }
}
