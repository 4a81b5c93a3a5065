/// A rule whose findings the fold itself makes: each ``Anomaly`` of the rule's
/// rule (``Checker`` picks the rule by ``Anomaly/rule``) becomes a finding of
/// ``rule``, with the anomaly's controllers and fact
/// (``Finding/Fact/anomaly(_:)``), which the outputs put into words (``Anomaly/Fact/message``).
protocol AnomalyRule {
  static var rule: CheckRule { get }
}

extension AnomalyRule {
  /// Reports the anomaly as a finding at the current record.
  static func report(_ anomaly: Anomaly, in transition: Transition?, _ findings: inout CheckFindings) {
    findings.report(rule, anomaly.controllers, .anomaly(anomaly.fact), in: transition)
  }
}
