import Journal

/// Why the navigator refused a command. Nothing was written.
public struct NavigatorError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The id was never declared.
    case unknownController = "unknown-controller"
    /// The id names a deallocated controller.
    case useAfterDealloc = "use-after-dealloc"
    /// `controller` or `modal` with an id already used, even after dealloc.
    case idReused = "id-reused"
    /// An empty id, an id over 256 bytes, or an empty class.
    case invalidID = "invalid-id"
    /// `link A d A`.
    case selfLink = "self-link"
    /// `modal` into a slot of the focus that holds a controller.
    case slotOccupied = "slot-occupied"
    /// `root` naming a modal.
    case rootIsModal = "root-is-modal"
    /// move, pan, modal or goToRoot before any root.
    case noRoot = "no-root"
    /// `dealloc` of the root, the focus, a controller in flight or a presenter of an alive modal.
    case deallocForbidden = "dealloc-forbidden"
    /// goToRoot when no path leads from the focus to the root.
    case rootUnreachable = "root-unreachable"
    /// A number or key out of range (touches below 1, a negative distance, a reserved mark key...).
    case invalidValue = "invalid-value"
  }

  public var kind: Kind
  /// A sentence for the user, e.g. `unknown controller 'hme' (did you mean 'home'?)`.
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
