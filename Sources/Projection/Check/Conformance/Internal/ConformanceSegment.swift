import Journal

/// The recorded events of one input (a command of the model) while the
/// conformance check reads them, and what the model wrote for that input.
///
/// A segment starts at an event that begins an input (`alloc`, `root`, `link`,
/// `unlink`, `touches`, `pan`, `move`, `dealloc`, `mark`) and takes the events
/// that follow while they belong to it: lifecycle callbacks always; an input's
/// own parts (a modal's `modal`, `link` and `move`, a pan's move, the moves of a
/// goToRoot run); and any other event the model expects from this input and has
/// not seen yet (the cleanup after a didAppear). Anything else starts the next one.
struct ConformanceSegment {
  enum Kind {
    /// No input: lifecycle callbacks or a `modal` with nothing before them.
    case orphan
    /// An `alloc` not yet known to be a controller or a modal.
    case alloc
    case modal
    case controller
    case root, link, unlink, touches, pan, move, goToRoot, dealloc, mark
  }

  /// A recorded event of the segment, with the transition it happened in.
  struct Found {
    var entry: ModelDivergence.Entry
    var transition: Transition?
  }

  var kind: Kind
  var found: [Found] = []
  /// The model's records for the input, once it ran.
  var expected: [Record] = []
  var ran = false
  /// Why the model refused the input.
  var refusal: Finding.Refusal?
  /// Events (other than callbacks) the model wrote for the input and the recording has not shown yet.
  ///
  /// Implementation note: a list searched from the start, not a dictionary
  /// counting each event: an input writes one to three such events, and
  /// hashing a whole event (its strings and numbers) costs more than comparing
  /// it with them.
  var unmatched: [Event] = []

  // A modal's parts, from its `alloc`, `modal`, `link` and `move`.
  var modalID: ControllerID?
  var className = ""
  var direction: Direction?
  var animated: Bool?
  /// Whether a pan's or a modal's move has been seen.
  var hasMove = false

  init(kind: Kind) { self.kind = kind }

  /// The arrays of a closed segment, emptied with their capacity kept.
  struct Buffers {
    var found: [Found] = []
    var expected: [Record] = []
    var unmatched: [Event] = []
  }

  /// A segment that takes `buffers`' arrays (leaving empty ones).
  init(kind: Kind, buffers: inout Buffers) {
    self.kind = kind
    swap(&found, &buffers.found)
    swap(&expected, &buffers.expected)
    swap(&unmatched, &buffers.unmatched)
  }

  /// Gives the segment's arrays, emptied, to the next one.
  mutating func recycle(into buffers: inout Buffers) {
    found.removeAll(keepingCapacity: true)
    expected.removeAll(keepingCapacity: true)
    unmatched.removeAll(keepingCapacity: true)
    swap(&found, &buffers.found)
    swap(&expected, &buffers.expected)
    swap(&unmatched, &buffers.unmatched)
  }

  var first: ModelDivergence.Entry { found[0].entry }

  /// Adds a recorded event.
  mutating func append(_ entry: ModelDivergence.Entry, transition: Transition?) {
    found.append(Found(entry: entry, transition: transition))
    absorb(entry.record.event)
  }

  /// Crosses an expected event off once the recording shows it.
  mutating func absorb(_ event: Event) {
    if case .lifecycle = event { return }
    if let k = unmatched.firstIndex(of: event) { unmatched.remove(at: k) }
  }

  /// Whether `event` still belongs to this input.
  /// Whether the model wrote exactly the recorded events, in order: then every event matches and there is nothing to align.
  var expectedIsFound: Bool {
    guard expected.count == found.count else { return false }
    for k in expected.indices where expected[k].event != found[k].entry.record.event { return false }
    return true
  }

  func takes(_ event: Event) -> Bool {
    switch event {
    case .lifecycle: return true
    case .modal(let id, _) where kind == .modal: return id == modalID && found.count == 1
    case .link(_, _, let to) where kind == .modal && direction == nil: return to == modalID
    case .move(let move):
      switch kind {
      case .modal where !hasMove: return move.to == modalID && move.trigger == .programmatic
      case .pan where !hasMove: return move.trigger == .pan || move.trigger == .fling
      case .goToRoot: return move.trigger == .goToRoot
      default: break
      }
    case .modal, .link, .session, .alloc, .root, .unlink, .touches, .pan, .dealloc, .mark, .unknown: break
    }
    return unmatched.contains(event)
  }
}
