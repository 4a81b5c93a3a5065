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
      let p = try nav.focus(for: .modal)
      try nav.checkNew(id, className: className)
      if let occupant = nav.state.store[Int(p)].neighbours[direction] {
        throw .slotOccupied(
          modal: id, direction, presenter: nav.state.id(at: p), occupant: nav.state.id(at: occupant))
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
  ///
  /// The walk keeps its own stack rather than recursing: a chain of modals each presented by
  /// the one before is as deep as the journal makes it, and the thread's stack is not.
  mutating func removeModal(_ m: Int32, presenter p: Int32, slot: Direction?) {
    var stack = [Removal(modal: m, presenter: p, slot: slot)]
    while let top = stack.indices.last {
      let m = stack[top].modal
      let id = state.id(at: m)
      // Its modals in its slots, in slot order, each looked at once the one before is gone.
      if stack[top].nextSlot < Direction.slotOrder.count {
        let direction = Direction.slotOrder[stack[top].nextSlot]
        stack[top].nextSlot += 1
        guard let n = state.store[Int(m)].neighbours[direction] else { continue }
        let nested = state.store[Int(n)]
        guard nested.isAlive, nested.isModal, nested.presenter == id, n != state.focusIndex else { continue }
        stack.append(Removal(modal: n, presenter: m, slot: direction))
        continue
      }
      // Then those no longer linked to it, in the order it presented them (as they were then).
      if stack[top].unlinked == nil { stack[top].unlinked = state.store[Int(m)].presented }
      if let unlinked = stack[top].unlinked, stack[top].nextUnlinked < unlinked.count {
        let n = unlinked[stack[top].nextUnlinked]
        stack[top].nextUnlinked += 1
        let nested = state.store[Int(n)]
        let linked = Direction.slotOrder.contains { state.store[Int(m)].neighbours[$0] == n }
        guard nested.isAlive, !linked, n != state.focusIndex else { continue }
        stack.append(Removal(modal: n, presenter: m, slot: nil))
        continue
      }
      let done = stack.removeLast()
      if let slot = done.slot {
        emit(.unlink(from: state.id(at: done.presenter), direction: slot), position: done.presenter)
      }
      for direction in Direction.slotOrder where state.store[Int(m)].neighbours[direction] != nil {
        emit(.unlink(from: id, direction: direction), position: m)
      }
      emit(.dealloc(controller: id), position: m)
    }
  }
}

/// One modal being removed by ``Navigator/removeModal(_:presenter:slot:)``, and how far the
/// removal of its own modals has gone.
private struct Removal {
  var modal: Int32
  var presenter: Int32
  /// The presenter's slot that holds it (nil: no longer linked to its presenter).
  var slot: Direction?
  /// The next of its slots to look at for a modal of its own.
  var nextSlot = 0
  /// Its presented modals as they were once its slots were done, and the next to look at.
  var unlinked: [Int32]?
  var nextUnlinked = 0
}
