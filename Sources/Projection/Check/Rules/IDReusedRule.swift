/// `id-reused`: an `alloc` of an id already allocated, alive or deallocated.
///
/// Ids name one instance for the whole session; reported instead of
/// `use-after-dealloc` for an `alloc` (``Anomaly/rule``).
enum IDReusedRule: AnomalyRule {
  static let rule = CheckRule.idReused
}
