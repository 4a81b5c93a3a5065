import Journal
import Projection

extension NavigatorError: CustomStringConvertible {
  /// The refusal as a sentence for the user, ids quoted with ``quoted(_:)``, e.g.
  /// `unknown controller 'hme' (did you mean 'home'?)`: what `record` prints after the script's
  /// line, and `check --model` after the event the model refuses.
  public var message: String {
    switch self {
    case .unknownController(let id, let suggestion):
      return "unknown controller \(quoted(id))" + (suggestion.map { " (did you mean \(quoted($0))?)" } ?? "")
    case .deallocated(let id):
      return "controller \(quoted(id)) was deallocated"
    case .alreadyExists(let id):
      return "controller \(quoted(id)) already exists"
    case .usedBefore(let id):
      return "controller id \(quoted(id)) was used by a deallocated controller; ids are never reused"
    case .selfLink(let id):
      return "cannot link \(quoted(id)) to itself"
    case .slotOccupied(let modal, let direction, let presenter, let occupant):
      return "cannot present \(quoted(modal)): the \(direction) slot of \(quoted(presenter)) holds \(quoted(occupant))"
    case .deallocForbidden(let id, let refusal):
      return "cannot deallocate \(quoted(id)): it is \(refusal.text)"
    case .emptyID:
      return "empty controller id"
    case .idTooLong(let id):
      return "controller id \(quoted(id)) is longer than \(ControllerID.maximumLength) bytes"
    case .emptyClass(let id):
      return "empty class for \(quoted(id))"
    case .rootIsModal(let id):
      return "a modal cannot be the root: \(quoted(id))"
    case .noRoot(let command):
      return "\(command.rawValue) before any root"
    case .rootUnreachable(let root, let from):
      return "goToRoot: the root \(quoted(root)) is not reachable from \(quoted(from))"
    case .touchesBelowOne(let min):
      return "touches needs a whole number ≥ 1, got \(min)"
    case .invalidThreshold:
      return "threshold needs a number ≥ 0"
    case .negativeWait:
      return "wait needs whole milliseconds ≥ 0"
    case .waitTooLong:
      return "wait is longer than \(Navigator.maximumWait) milliseconds"
    case .waitPastLastTime(let milliseconds):
      return "wait \(milliseconds) takes the clock past the year 9999"
    case .emptyMarkKey:
      return "empty mark key"
    case .reservedMarkKey(let key):
      return "mark key \(quoted(key)) is reserved"
    case .repeatedMarkKey(let key):
      return "mark key \(quoted(key)) given twice"
    case .invalidPanDistance:
      return "pan distance must be a number ≥ 0"
    case .invalidPanVelocity:
      return "pan velocity must be a number ≥ 0"
    case .invalidPanTouches:
      return "pan touches must be a whole number ≥ 1"
    case .lineTooLong(let text, let length, let limit):
      let what =
        switch text {
        case .className(let id): "the class of \(quoted(id))"
        case .mark: "the mark"
        }
      return "\(what) would make a line of \(length) bytes, over the \(limit) that readers read"
    }
  }

  public var description: String { message }
}
