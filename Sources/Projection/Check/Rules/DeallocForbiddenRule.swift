/// `dealloc-forbidden`: a `dealloc` of the root, the focus, a controller in the
/// transition in flight, or a presenter whose modal is still alive (spec rule 9).
///
/// The fold finds it (``Anomaly/rule``) and applies the dealloc.
enum DeallocForbiddenRule: AnomalyRule {
  static let rule = CheckRule.deallocForbidden
}
