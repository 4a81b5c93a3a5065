import Journal

/// The state by allocation position: what the presentation targets (`Report`,
/// `Stepper`) read instead of the state's storage.
///
/// A controller's position is its index in ``State/controllers`` (allocation
/// order) as an `Int32`; it never changes. A renderer that keeps something per
/// controller (a lane, a placement) keeps it in an array indexed by position
/// and looks each id up once per event, not once per use. Read-only: a state
/// changes only through ``reduce(into:_:)``.
///
/// Implementation note: the accessors that read the storage are `@inlinable`,
/// so that a caller in another module reads the one field it needs in place;
/// called, `controller(at:)` would copy the whole ``ControllerState``
/// (retaining its strings and lists) for every `isAlive` of the report's map
/// walk.
extension State {
  /// `id`'s position; nil if it was never allocated.
  @inline(__always)
  package func position(of id: ControllerID) -> Int32? { index[id] }

  /// The position of `id` if it is alive, tried first at `expected` (a position, or -1), then in the index.
  ///
  /// Implementation note: an id has one position and a position one id for a whole journal, so
  /// the controller at `expected` having the id is the index's answer without the index: no hash
  /// of the id, no probe of a table that grows with every controller ever allocated. The fold
  /// expects a move's ends, a pan's controller, a modal and its presenter where they mostly are.
  @inline(__always)
  func alivePosition(of id: ControllerID, expecting expected: Int32) -> Int32? {
    if expected >= 0, store[Int(expected)].id == id { return store[Int(expected)].isAlive ? expected : nil }
    guard let p = index[id], store[Int(p)].isAlive else { return nil }
    return p
  }

  /// The controller at `position` (`0..<controllerCount`), alive or deallocated.
  @inlinable
  package func controller(at position: Int32) -> ControllerState { store[Int(position)] }

  /// The position of the controller in the `direction` slot of the one at `position`, nil for none.
  @inlinable
  package func neighbour(at position: Int32, _ direction: Direction) -> Int32? {
    store[Int(position)].neighbours[direction]
  }

  /// The root's position (``root``), nil for none.
  @inlinable
  package var rootPosition: Int32? { rootIndex < 0 ? nil : rootIndex }

  /// The focus's position (``focus``), nil for none.
  @inlinable
  package var focusPosition: Int32? { focusIndex < 0 ? nil : focusIndex }

  @inline(__always)
  func id(at position: Int32) -> ControllerID { store[Int(position)].id }
}
