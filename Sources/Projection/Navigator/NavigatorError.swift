import Journal

/// Why the navigator refused a command. Nothing was written.
public struct NavigatorError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// A rule of the model's graph the command would break: `unknown-controller` (the id was
    /// never declared), `use-after-dealloc`, `id-reused` (`controller` or `modal` with an id
    /// already used, even after dealloc), `self-link` (`link A d A`), `slot-occupied` (`modal`
    /// into a slot of the focus that holds a controller) or `dealloc-forbidden` (the root, the
    /// focus, a controller in flight or a presenter of an alive modal).
    case rule(CheckRule)
    /// An empty id, an id over 256 bytes, or an empty class.
    case invalidID
    /// `root` naming a modal.
    case rootIsModal
    /// move, pan, modal or goToRoot before any root.
    case noRoot
    /// goToRoot when no path leads from the focus to the root.
    case rootUnreachable
    /// A number or key out of range (touches below 1, a negative distance, a reserved mark key...).
    case invalidValue
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

extension Anomaly.DeallocRefusal {
  /// What the controller is, e.g. `the focus` or `the presenter of 'm', which is still alive`: the
  /// navigator's refusal and `Rendering`'s sentence of the anomaly both say it.
  package var text: String {
    switch self {
    case .root: "the root"
    case .focus: "the focus"
    case .inFlight(let seq): "part of the transition in flight (seq \(seq))"
    case .presenter(let modal): "the presenter of \(quoted(modal)), which is still alive"
    }
  }
}

/// An id in single quotes, made safe for a terminal, as the navigator's messages and `Rendering`'s
/// sentences name it.
package func quoted(_ id: ControllerID) -> String {
  "'" + displayText(id.rawValue) + "'"
}
