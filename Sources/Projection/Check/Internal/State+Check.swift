import Journal

extension State {
  /// What the lifecycle rules need of an alive controller at a position (``ControllerState/Appearance``).
  /// Nil when it is deallocated.
  ///
  /// Implementation note: reads three fields in place instead of copying the whole
  /// ``ControllerState`` (its id, class and modal list), once per callback.
  @inline(__always)
  func lifecycleFacts(at p: Int32) -> ControllerState.Appearance? {
    let i = Int(p)
    guard store[i].isAlive else { return nil }
    return store[i].appearance
  }
}
