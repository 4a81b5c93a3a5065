import Journal

extension State {
  /// What the lifecycle rules need of an alive controller at a position: its phase
  /// and how many didLoads it had. Nil when it is deallocated.
  ///
  /// Implementation note: reads two fields in place instead of copying the whole
  /// ``ControllerState`` (its id, class and modal list), once per callback.
  @inline(__always)
  func lifecycleFacts(at p: Int32) -> (phase: ControllerState.Phase, loadCount: Int)? {
    let i = Int(p)
    guard store[i].isAlive else { return nil }
    return (store[i].phase, store[i].loadCount)
  }
}

/// The positions of the last two controllers looked up.
///
/// Implementation note: callbacks come in pairs on the two ends of a move, and an
/// id keeps its position in the state for the whole journal (a reused id takes
/// over its old position), so comparing two short strings saves most of the
/// hash lookups of the checker's hot path.
struct RecentPositions {
  private var first: (id: ControllerID, position: Int32)?
  private var second: (id: ControllerID, position: Int32)?

  /// The position of `id` in `state`, or nil if it was never allocated.
  @inline(__always)
  mutating func position(of id: ControllerID, in state: State) -> Int32? {
    if let first, first.id == id { return first.position }
    if let second, second.id == id {
      swap(&self.first, &self.second)
      return second.position
    }
    guard let p = state.position(of: id) else { return nil }
    self.second = self.first
    self.first = (id, p)
    return p
  }
}
