import Journal
import Projection

extension CheckRule {
  /// One line saying what the rule finds: the SARIF rule metadata and the docs say it.
  public var summary: String {
    switch self {
    case .selfLink: "a link or modal naming one controller at both ends"
    case .slotOccupied: "a modal presented into a slot that holds another controller"
    case .idReused: "an alloc of an id already allocated, alive or not"
    case .unknownController: "an event names a controller that was never allocated"
    case .useAfterDealloc: "an event names a deallocated controller"
    case .loadRepeated: "didLoad more than once for one instance"
    case .appearBeforeLoad: "an appearance callback before didLoad"
    case .didRepeated: "didAppear or didDisappear again, right after the same callback"
    case .didWithoutWill: "didAppear when not appearing, didDisappear when not disappearing"
    case .willRepeated: "willAppear while appearing or appeared, willDisappear while disappearing or disappeared"
    case .misattributed: "an appearance callback outside the transition in flight"
    case .incompleteTransition: "a transition whose callbacks have not all arrived by the next move or the end"
    case .order: "a move's first callbacks in another order than A.W-, B.W+, A.D-, B.D+"
    case .focusMismatch: "a move whose from is not the focus"
    case .notNeighbour: "a move whose to is not from's neighbour in that direction"
    case .modalLeak: "a modal kept alive (linked, or unlinked but never deallocated) when its presenter reappears"
    case .deallocForbidden: "dealloc of the root, the focus, a controller in flight or a presenter of a live modal"
    case .visibleCount: "at rest, not exactly one controller appeared (once per period at rest)"
    case .touchesViolated: "a committed pan with fewer touches than required"
    case .modelDivergence: "the recording differs from what the reference model predicts (check --model)"
    }
  }
}

extension Rule {
  /// One line saying what the rule finds (a format rule's is the format's ``FormatRule/summary``).
  public var summary: String {
    switch self {
    case .format(let rule): rule.summary
    case .check(let rule): rule.summary
    }
  }
}

extension RuleInfo {
  /// One line saying what the rule finds.
  public var summary: String { rule.summary }
}
