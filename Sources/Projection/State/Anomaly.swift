import Journal

/// An event that breaks the model, found by the fold.
///
/// The fold never crashes and never throws on such events: it applies what it
/// sensibly can and returns these. Each breaks one graph rule of the
/// lifecycle checker (``rule``; spec "Lifecycle rules"). What the fold
/// applies of each: `self-link`, `unknown-controller` and `use-after-dealloc`
/// are not applied; `slot-occupied` (the link replaces), `id-reused`,
/// `dealloc-forbidden`, `focus-mismatch` and `not-neighbour` are.
public struct Anomaly: Sendable, Hashable {
  /// What the fold found, in the terms of the model; ``message`` puts it into words.
  public enum Fact: Sendable, Hashable {
    /// `self-link`: a `link` from the controller to itself.
    case linkToItself(ControllerID)
    /// `self-link`: a `modal` event naming the controller as its own presenter.
    case modalPresentedByItself(ControllerID)
    /// `slot-occupied`: the link that presents `modal` into `presenter`'s `direction` slot, which
    /// held `occupant`.
    case slotOccupied(modal: ControllerID, presenter: ControllerID, Direction, occupant: ControllerID)
    /// `id-reused`: an `alloc` of an id first allocated at seq `allocatedAt`, still `alive` or not.
    case idReused(ControllerID, allocatedAt: Int, alive: Bool)
    /// `unknown-controller`: an id that was never allocated.
    case unknownController(ControllerID)
    /// `use-after-dealloc`: an id whose controller was deallocated.
    case useAfterDealloc(ControllerID)
    /// `dealloc-forbidden`: the `dealloc` of a controller the model still needs, and why.
    case deallocForbidden(ControllerID, DeallocRefusal)
    /// `focus-mismatch`: a `move` from a controller that is not the focus (nil: none is set).
    case focusMismatch(from: ControllerID, focus: ControllerID?)
    /// `not-neighbour`: a `move` to `to`, while `from`'s neighbour in `direction` is `neighbour`
    /// (nil: the slot is empty).
    case notNeighbour(from: ControllerID, to: ControllerID, Direction, neighbour: ControllerID?)
  }

  /// Why the model forbids deallocating a controller (spec rule 9).
  public enum DeallocRefusal: Sendable, Hashable {
    /// It is the root.
    case root
    /// It is the focus.
    case focus
    /// It is an end of the transition in flight, started at seq `seq`.
    case inFlight(seq: Int)
    /// It presents `modal`, which is still alive.
    case presenter(of: ControllerID)
  }

  public var fact: Fact

  public init(_ fact: Fact) {
    self.fact = fact
  }

  /// The rule the fact breaks.
  public var rule: CheckRule {
    switch fact {
    case .linkToItself, .modalPresentedByItself: .selfLink
    case .slotOccupied: .slotOccupied
    case .idReused: .idReused
    case .unknownController: .unknownController
    case .useAfterDealloc: .useAfterDealloc
    case .deallocForbidden: .deallocForbidden
    case .focusMismatch: .focusMismatch
    case .notNeighbour: .notNeighbour
    }
  }

  /// The controllers involved, in the order the event names them (then the occupant, or the focus).
  public var controllers: [ControllerID] {
    switch fact {
    case .linkToItself(let id), .modalPresentedByItself(let id), .idReused(let id, _, _),
      .unknownController(let id), .useAfterDealloc(let id), .deallocForbidden(let id, _):
      [id]
    case .slotOccupied(let modal, let presenter, _, let occupant): [presenter, modal, occupant]
    case .focusMismatch(let from, let focus): [from] + (focus.map { [$0] } ?? [])
    case .notNeighbour(let from, let to, _, _): [from, to]
    }
  }
}
