import Journal
import Projection

extension Anomaly {
  /// A sentence saying what was found, e.g. `link from 'a' to itself`: the fact as the text,
  /// JSON, SARIF and the other outputs of `check` show it.
  public var message: String { fact.message }
}

extension Anomaly.Fact {
  /// A sentence saying what was found, e.g. `link from 'a' to itself` (ids quoted with ``quoted(_:)``,
  /// whatever the glyphs).
  public var message: String {
    switch self {
    case .linkToItself(let id):
      return "link from \(quoted(id)) to itself"
    case .modalPresentedByItself(let id):
      return "modal \(quoted(id)) presented by itself"
    case .slotOccupied(let modal, let presenter, let direction, let occupant):
      return
        "modal \(quoted(modal)) presented into \(quoted(presenter))'s \(direction) slot, which holds \(quoted(occupant))"
    case .idReused(let id, let allocatedAt, let alive):
      return "controller \(quoted(id)) is allocated again (it was allocated at seq \(allocatedAt)"
        + (alive ? ")" : " and deallocated)")
    case .unknownController(let id):
      return "controller \(quoted(id)) was never allocated"
    case .useAfterDealloc(let id):
      return "controller \(quoted(id)) was deallocated"
    case .deallocForbidden(let id, let refusal):
      return "dealloc of \(quoted(id)), \(refusal.text)"
    case .focusMismatch(let from, let focus):
      return "move from \(quoted(from)) but the focus is " + (focus.map(quoted) ?? "not set")
    case .notNeighbour(let from, let to, let direction, let neighbour):
      return "move to \(quoted(to)) but \(quoted(from))'s \(direction) neighbour is "
        + (neighbour.map(quoted) ?? "empty")
    }
  }
}

extension Anomaly.DeallocRefusal {
  /// What the controller is, e.g. `the focus` or `the presenter of 'm', which is still alive`: the
  /// navigator's refusal and the anomaly's sentence both say it.
  var text: String {
    switch self {
    case .root: "the root"
    case .focus: "the focus"
    case .inFlight(let seq): "part of the transition in flight (seq \(seq))"
    case .presenter(let modal): "the presenter of \(quoted(modal)), which is still alive"
    }
  }
}
