import Journal

/// An event that breaks the model, found by the fold.
///
/// The fold never crashes and never throws on such events: it applies what it
/// sensibly can and returns these. Each kind's `id` is the rule id of the
/// lifecycle checker (spec "Lifecycle rules").
public struct Anomaly: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A `link` (or `modal`) naming one controller at both ends. Not applied.
    case selfLink = "self-link"
    /// The link that presents a modal (the first link naming it after its `modal` event, from its
    /// presenter) into a slot that already held another controller. Applied (it replaces).
    case slotOccupied = "slot-occupied"
    /// An `alloc` of an id already allocated, alive or not.
    case idReused = "id-reused"
    /// An event naming a controller that was never allocated. Not applied.
    case unknownController = "unknown-controller"
    /// An event naming a deallocated controller. Not applied.
    case useAfterDealloc = "use-after-dealloc"
    /// A `dealloc` of the root, the focus, a controller in the transition in flight, or a
    /// presenter whose modal is alive. Applied.
    case deallocForbidden = "dealloc-forbidden"
    /// A `move` whose `from` is not the focus. Applied.
    case focusMismatch = "focus-mismatch"
    /// A `move` whose `to` is not `from`'s neighbour in that direction. Applied.
    case notNeighbour = "not-neighbour"

    /// The stable rule id, e.g. `self-link`.
    public var id: String { rawValue }
    public var description: String { rawValue }
  }

  public var kind: Kind
  /// The controllers involved, in the order the event names them.
  public var controllers: [ControllerID]
  /// A sentence saying what was found, e.g. `link from 'a' to itself`.
  public var message: String

  public init(_ kind: Kind, _ controllers: [ControllerID], _ message: String) {
    self.kind = kind
    self.controllers = controllers
    self.message = message
  }

  /// `message [kind]`.
  public var description: String { "\(message) [\(kind.id)]" }
}
