/// `focus-mismatch`: a `move` whose `from` is not the focus.
///
/// The fold finds it (``Anomaly/rule``) and applies the move anyway:
/// the focus becomes its `to`.
enum FocusMismatchRule: AnomalyRule {
  static let rule = CheckRule.focusMismatch
}
