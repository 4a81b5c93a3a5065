import Journal

/// The state by allocation position: what the presentation targets (`Report`,
/// `Stepper`) read instead of the state's storage.
///
/// A controller's position is its index in ``State/controllers`` (allocation
/// order) as an `Int32`; it never changes. A renderer that keeps something per
/// controller (a lane, a placement) keeps it in an array indexed by position
/// and looks each id up once per event, not once per use. Read-only: a state
/// changes only through ``reduce(into:_:)``.
extension State {
  /// `id`'s position; nil if it was never allocated.
  @inline(__always)
  package func position(of id: ControllerID) -> Int32? { index[id] }

  /// The controller at `position` (`0..<controllerCount`), alive or deallocated.
  @inline(__always)
  package func controller(at position: Int32) -> ControllerState { store[Int(position)] }

  /// The position of the controller in the `direction` slot of the one at `position`, nil for none.
  @inline(__always)
  package func neighbour(at position: Int32, _ direction: Direction) -> Int32? {
    store[Int(position)].neighbours[direction]
  }

  /// The root's position (``root``), nil for none.
  package var rootPosition: Int32? { rootIndex < 0 ? nil : rootIndex }

  /// The focus's position (``focus``), nil for none.
  package var focusPosition: Int32? { focusIndex < 0 ? nil : focusIndex }

  @inline(__always)
  func id(at position: Int32) -> ControllerID { store[Int(position)].id }
}
