import Journal
import Projection

/// One controller drawn in a trace: a thread of the Chrome trace, the owner of
/// visit spans in OTLP.
struct TraceLane: Sendable {
  var id: ControllerID
  /// Its class: the one of its last fresh alloc so far (nil if it was never allocated).
  var className: String?
  /// Whether the selection draws it.
  var selected: Bool
  /// Whether anything was drawn on it.
  var drawn = false
  /// The phase of its open phase slice (`.disappeared`: none).
  var phase = ControllerState.Phase.disappeared
  /// A phase slice was begun and not yet ended.
  var phaseDrawn = false
  /// A visit that began with a didAppear is open (``VisitTracker``'s), and whether its slice was begun.
  var visitOpen = false
  var visitDrawn = false
  /// Its position among the ``VisitTracker``'s entries, once it has one (-1 before).
  var visitEntry: Int32 = -1

  init(id: ControllerID, selected: Bool) {
    self.id = id
    self.selected = selected
  }
}

/// What a ``TraceBuilder`` finds in a journal, in the journal's order, for an
/// encoder of one trace format. Times are the journal's; lanes are positions
/// in the order controllers were first drawn.
protocol TraceSink {
  /// The document's output so far.
  var json: JSONBuffer { get set }
  mutating func beginDocument()
  /// A run (a journal) begins: `run` 0 for the first, 1 for the second.
  mutating func beginRun(_ run: Int, file: String)
  /// The run's first record: times are measured from it.
  mutating func start(at time: Timestamp)
  mutating func header(_ header: SessionHeader)
  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp)
  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp)
  /// A visit whose didAppear never came (``Visit/isComplete`` false), from its willAppear to `time`: known to be
  /// one only when it ends, it is drawn whole then (no ``visitBegan(lane:number:seq:time:)`` before it). The
  /// lane's phase slices within it are ended by then.
  mutating func incompleteVisit(lane: Int, _ visit: Visit, time: Timestamp)
  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp)
  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp)
  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp)
  /// A move drawn from `from` to `to`; `flow` is set when the model accepted it and its arrival will be drawn.
  mutating func move(from: Int, to: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp)
  mutating func arrival(flow: Int, lane: Int, time: Timestamp)
  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp)
  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp)
  mutating func dealloc(lane: Int, seq: Int, time: Timestamp)
  /// A finding, on the lane of its first controller when there is one.
  mutating func finding(_ diagnostic: CheckFinding, lane: Int?, time: Timestamp)
  /// The run ends: every lane, the root's (the first root shown), the run's first and last times.
  mutating func endRun(lanes: [TraceLane], root: Int?, first: Timestamp?, last: Timestamp?)
  mutating func endDocument()
}
