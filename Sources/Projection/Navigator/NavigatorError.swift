import Journal

/// Why the navigator refused a command, with the values the refusal names. Nothing was written.
/// Its sentence is `Rendering`'s (`message`).
///
/// ```swift
/// #expect(throws: NavigatorError.selfLink("home")) { try nav.link("home", .left, "home") }
/// NavigatorError.selfLink("home").kind  // .rule(.selfLink)
/// ```
public enum NavigatorError: Error, Sendable, Hashable {
  /// `unknown-controller`: no controller was ever declared with the id; `suggestion` is the
  /// closest alive id, for a typo.
  case unknownController(ControllerID, suggestion: ControllerID?)
  /// `use-after-dealloc`: the controller was deallocated.
  case deallocated(ControllerID)
  /// `id-reused`: an alive controller has the id.
  case alreadyExists(ControllerID)
  /// `id-reused`: a deallocated controller had the id (ids are never reused).
  case usedBefore(ControllerID)
  /// `self-link`: `link A d A`.
  case selfLink(ControllerID)
  /// `slot-occupied`: `modal` presented from `presenter` into its `direction` slot, which holds `occupant`.
  case slotOccupied(modal: ControllerID, Direction, presenter: ControllerID, occupant: ControllerID)
  /// `dealloc-forbidden`: the controller is one the model still needs.
  case deallocForbidden(ControllerID, Anomaly.DeallocRefusal)
  /// An empty id.
  case emptyID
  /// An id over ``ControllerID/maximumLength`` bytes.
  case idTooLong(ControllerID)
  /// An empty class for the id.
  case emptyClass(ControllerID)
  /// `root` naming a modal.
  case rootIsModal(ControllerID)
  /// `move`, `pan`, `modal` or `goToRoot` before any root.
  case noRoot(ScenarioCommand.Name)
  /// `goToRoot` when no path leads from the focus `from` to the root.
  case rootUnreachable(root: ControllerID, from: ControllerID)
  /// `touches` with a minimum below 1.
  case touchesBelowOne(Int)
  /// `threshold` with a negative or non-finite number of points.
  case invalidThreshold(Double)
  /// `wait` with a negative duration.
  case negativeWait(milliseconds: Int64)
  /// `wait` over ``Navigator/maximumWait``.
  case waitTooLong(milliseconds: Int64)
  /// `wait` that takes the clock past the last time a journal holds (the year 9999).
  case waitPastLastTime(milliseconds: Int64)
  /// `mark` with an empty key.
  case emptyMarkKey
  /// `mark` with a key of the envelope (``Navigator/reservedMarkKeys``).
  case reservedMarkKey(String)
  /// `mark` with a key given twice.
  case repeatedMarkKey(String)
  /// `pan` with a negative or non-finite distance.
  case invalidPanDistance(Double)
  /// `pan` with a negative or non-finite velocity.
  case invalidPanVelocity(Double)
  /// `pan` with fewer than 1 touch.
  case invalidPanTouches(Int)
  /// An event whose line would be `length` bytes, over the `limit` readers read by default.
  case lineTooLong(LongText, length: Int, limit: Int)

  /// The unbounded text that makes a line too long.
  public enum LongText: Sendable, Hashable {
    /// The class of a new controller.
    case className(ControllerID)
    /// A mark (its label and fields).
    case mark
  }

  /// What kind of refusal it is.
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

  /// The kind of the refusal: the rule it would break, or the kind of value it refuses.
  public var kind: Kind {
    switch self {
    case .unknownController: .rule(.unknownController)
    case .deallocated: .rule(.useAfterDealloc)
    case .alreadyExists, .usedBefore: .rule(.idReused)
    case .selfLink: .rule(.selfLink)
    case .slotOccupied: .rule(.slotOccupied)
    case .deallocForbidden: .rule(.deallocForbidden)
    case .emptyID, .idTooLong, .emptyClass: .invalidID
    case .rootIsModal: .rootIsModal
    case .noRoot: .noRoot
    case .rootUnreachable: .rootUnreachable
    case .touchesBelowOne, .invalidThreshold, .negativeWait, .waitTooLong, .waitPastLastTime, .emptyMarkKey,
      .reservedMarkKey, .repeatedMarkKey, .invalidPanDistance, .invalidPanVelocity, .invalidPanTouches, .lineTooLong:
      .invalidValue
    }
  }
}
