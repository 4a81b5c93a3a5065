/// `self-link`: a `link` (or a `modal`) naming one controller at both ends.
///
/// The graph never links a controller to itself; the fold finds the event
/// (``Anomaly/rule``) and does not apply it.
enum SelfLinkRule: AnomalyRule {
  static let rule = CheckRule.selfLink
}
