/// `not-neighbour`: a `move` whose `to` is not the neighbour of `from` in the
/// move's direction.
///
/// The fold finds it (``Anomaly/rule``) and applies the move anyway.
enum NotNeighbourRule: AnomalyRule {
  static let rule = CheckRule.notNeighbour
}
