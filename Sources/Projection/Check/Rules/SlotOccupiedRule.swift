/// `slot-occupied`: a modal linked into a slot of its presenter that already held
/// another controller (a modal is only ever presented into a free slot).
///
/// The fold finds it (``Anomaly/rule``) when the `link` of a fresh
/// modal (no links yet) from its presenter replaces an occupant.
enum SlotOccupiedRule: AnomalyRule {
  static let rule = CheckRule.slotOccupied
}
