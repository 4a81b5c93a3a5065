/// `use-after-dealloc`: an event names a deallocated controller (any event but an
/// `alloc`, which is `id-reused`).
///
/// The fold does not apply such an event (``Anomaly/rule``).
enum UseAfterDeallocRule: AnomalyRule {
  static let rule = CheckRule.useAfterDealloc
}
