import Journal

extension State {
  /// What the lifecycle rules need of an alive controller: its phase and how many
  /// didLoads it had. Nil for an unknown or deallocated id.
  ///
  /// Implementation note: reads two fields in place instead of copying the whole
  /// ``ControllerState`` (its id, class and modal list), once per callback.
  @inline(__always)
  func lifecycleFacts(of id: ControllerID) -> (phase: ControllerState.Phase, loadCount: Int)? {
    guard let p = position(of: id) else { return nil }
    let i = Int(p)
    guard store[i].isAlive else { return nil }
    return (store[i].phase, store[i].loadCount)
  }
}
