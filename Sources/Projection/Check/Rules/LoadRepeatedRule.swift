import Journal

/// `load-repeated`: didLoad more than once for one instance.
///
/// didLoad fires exactly once per instance (spec rule 1); the legacy library
/// sent it on every link that assigned the controller (L2).
enum LoadRepeatedRule {
  static let rule = CheckRule.loadRepeated

  /// Looks at a callback on `id`, which had `loadCount` didLoads before it.
  static func inspect(
    _ id: ControllerID, _ callback: Callback, loadCount: Int, in transition: Transition?,
    _ findings: inout CheckFindings
  ) {
    guard callback == .didLoad, loadCount > 0, findings.wants(rule) else { return }
    findings.report(
      rule, [id], "\(findings.glyphs.id(id)): didLoad for the \(ordinalText(loadCount + 1)) time", in: transition)
  }
}

/// `2nd`, `3rd`, `11th`, `21st`.
func ordinalText(_ n: Int) -> String {
  let suffix: String
  switch (n % 10, n % 100) {
  case (_, 11...13): suffix = "th"
  case (1, _): suffix = "st"
  case (2, _): suffix = "nd"
  case (3, _): suffix = "rd"
  default: suffix = "th"
  }
  return "\(n)\(suffix)"
}
