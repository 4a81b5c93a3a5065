import Journal

extension Navigator {
  /// `modal ID CLASS DIRECTION [animated=true|false]`: presents a new modal from the focus
  /// into its free `direction` slot (rule 4): `alloc`, `modal`, `link`, didLoad, then a
  /// programmatic move to it.
  ///
  /// ```swift
  /// try nav.modal("compose", className: "ComposeViewController", .down)
  /// try nav.move(.up)  // back on the presenter: compose is unlinked and deallocated
  /// ```
  ///
  /// - Throws: no root yet, an invalid or reused id, an empty class, an occupied slot
  ///   (also one that holds a leaked legacy modal).
  public mutating func modal(
    _ id: ControllerID, className: String, _ direction: Direction, animated: Bool = true
  ) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let p = try nav.focus(for: "modal")
      try nav.checkNew(id, className: className)
      if let occupant = nav.state.store[Int(p)].neighbours[direction] {
        throw NavigatorError(
          .slotOccupied,
          "cannot present \(quoted(id)): the \(direction) slot of \(quoted(nav.state.id(at: p))) holds "
            + quoted(nav.state.id(at: occupant)))
      }
      nav.emit(.alloc(controller: id, className: className))
      nav.emit(.modal(controller: id, presenter: nav.state.id(at: p)))
      guard let m = nav.state.position(of: id) else { preconditionFailure("alloc did not allocate \(id)") }
      nav.writeLink(p, direction, m)
      nav.writeMove(p, direction, m, trigger: .programmatic, animated: animated)
    }
  }

  /// Rule 5: right after `p` received didAppear, removes every modal it presented that is
  /// still linked to it and is not the focus, visiting `p`'s slots left, right, up, down.
  mutating func removeModals(presentedBy p: Int32) {
    let presenter = state.id(at: p)
    for direction in Direction.slotOrder {
      guard let m = state.store[Int(p)].neighbours[direction] else { continue }
      let modal = state.store[Int(m)]
      guard modal.isAlive, modal.isModal, modal.presenter == presenter, m != state.focusIndex else { continue }
      removeModal(m, presenter: p, slot: direction)
    }
  }

  /// Removes one modal: first, depth first, the alive modals it presented (those in its slots
  /// in slot order, then those no longer linked to it in presentation order); then
  /// `unlink presenter slot` (when it is still linked), `unlink M s` for its other links
  /// in slot order, and `dealloc M`.
  mutating func removeModal(_ m: Int32, presenter p: Int32, slot: Direction?) {
    let id = state.id(at: m)
    for direction in Direction.slotOrder {
      guard let n = state.store[Int(m)].neighbours[direction] else { continue }
      let nested = state.store[Int(n)]
      guard nested.isAlive, nested.isModal, nested.presenter == id, n != state.focusIndex else { continue }
      removeModal(n, presenter: m, slot: direction)
    }
    for n in state.store[Int(m)].presented {
      let nested = state.store[Int(n)]
      let linked = Direction.slotOrder.contains { state.store[Int(m)].neighbours[$0] == n }
      guard nested.isAlive, !linked, n != state.focusIndex else { continue }
      removeModal(n, presenter: m, slot: nil)
    }
    if let slot { emit(.unlink(from: state.id(at: p), direction: slot), position: p) }
    for direction in Direction.slotOrder where state.store[Int(m)].neighbours[direction] != nil {
      emit(.unlink(from: id, direction: direction), position: m)
    }
    emit(.dealloc(controller: id), position: m)
  }
}
