/// Positions (or lanes) in no particular order, with each one's slot in the list, so that adding
/// and removing one costs O(1): the last member moves into the slot a removed one leaves.
struct SlotList: Sendable {
  /// The members, in no particular order.
  private(set) var members: [Int32] = []
  /// Per position: its slot in ``members``, -1 when it is not one.
  private var slots: [Int32] = []

  /// Makes room for `count` more positions, none of them a member.
  mutating func grow(by count: Int) {
    slots.append(contentsOf: repeatElement(-1, count: count))
  }

  /// Adds `p`, unless it is a member already.
  mutating func insert(_ p: Int32) {
    guard slots[Int(p)] < 0 else { return }
    slots[Int(p)] = Int32(members.count)
    members.append(p)
  }

  /// Removes `p`, if it is a member.
  mutating func remove(_ p: Int32) {
    let slot = Int(slots[Int(p)])
    guard slot >= 0 else { return }
    let last = members.removeLast()
    if last != p {
      members[slot] = last
      slots[Int(last)] = Int32(slot)
    }
    slots[Int(p)] = -1
  }
}
