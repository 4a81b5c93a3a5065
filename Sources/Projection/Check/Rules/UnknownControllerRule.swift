/// `unknown-controller`: an event names a controller that was never allocated.
///
/// The fold does not apply such an event (``Anomaly/rule``), so
/// no other rule looks at it.
enum UnknownControllerRule: AnomalyRule {
  static let rule = CheckRule.unknownController
}
