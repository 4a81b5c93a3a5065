import Journal

/// Cuts a slice of a journal that replays on its own (`cat --replayable`): a
/// header, the events that rebuild the state where the slice starts, then the
/// slice, renumbered from seq 0 with the seq each event had in the source kept
/// under ``sourceSeqKey``.
///
/// The rebuilt state holds every controller alive at the start (its class,
/// its view loaded once, its phase), the root and the focus (the focus shown
/// by the initial display), the modals and their presenters, the links and
/// the minimum touches. A slice that starts while a transition is in flight
/// starts at the event that began it (its `move`, or the `root` of the initial
/// display), and one that ends while a transition is in flight ends where
/// that transition does (its last callback and the unlinks and deallocs
/// right after it, which let its modals go; or the next move), so that its
/// callbacks are not cut off from it either.
///
/// ```swift
/// var slice = ReplayableSlice()
/// var out: [Record] = []
/// for record in records {
///   slice.consume(record, keep: (40...90).contains(record.seq) ? .event : .none, into: &out)
/// }
/// ```
public struct ReplayableSlice: Sendable {
  /// The key of a sliced event that holds its seq in the source.
  public static let sourceSeqKey = "sourceSeq"
  /// The label of the `mark` that ends the rebuilt state, with the source's seq where the slice starts.
  public static let markLabel = "replayable.start"

  /// What a source event is to the slice.
  public enum Keep: Sendable, Hashable {
    /// Left out.
    case none
    /// In the slice.
    case event
    /// In the slice if it allocates or deallocates a controller (inside the
    /// slice's range, when other filters leave the rest out): every id it
    /// names then stays one that was allocated.
    case lifecycleOfIDs
    /// After the slice's range: kept only to finish the transition in flight at its end.
    case afterRange
  }

  /// The source's state, through every event read.
  private var state = State()
  /// The events since the transition in flight began, and the state before it.
  private var pending: [Record] = []
  private var stateBeforePending = State()
  private var header: SessionHeader?
  private var started = false
  private var ended = false
  /// Right after a transition's last callback: its unlinks and deallocs still belong to it.
  private var inCleanup = false
  private var nextSeq = 0

  public init() {}

  /// Reads the next event of the source and appends what the slice writes for it to `out`.
  public mutating func consume(_ record: Record, keep: Keep, into out: inout [Record]) {
    if case .session(let h) = record.event, header == nil { header = h }
    let beginsTransition: Bool
    switch record.event {
    case .move: beginsTransition = true
    case .root: beginsTransition = state.focus == nil
    case .session, .alloc, .link, .unlink, .modal, .touches, .pan, .lifecycle, .dealloc, .mark, .unknown:
      beginsTransition = false
    }
    let kept: Bool
    switch keep {
    case .none: kept = false
    case .afterRange:
      let cleanup: Bool
      switch record.event {
      case .unlink, .dealloc: cleanup = inCleanup
      case .session, .alloc, .root, .link, .modal, .touches, .pan, .move, .lifecycle, .mark, .unknown: cleanup = false
      }
      if started && !ended && !beginsTransition && (state.transitionInFlight != nil || cleanup) {
        kept = true
      } else {
        kept = false
        ended = started
      }
    case .event: kept = !ended
    case .lifecycleOfIDs:
      switch record.event {
      case .alloc, .dealloc: kept = true
      case .session, .root, .link, .unlink, .modal, .touches, .pan, .move, .lifecycle, .mark, .unknown: kept = false
      }
    }
    if kept && !started {
      started = true
      let time = (beginsTransition || pending.isEmpty ? record : pending[0]).time
      let base = beginsTransition || pending.isEmpty ? state : stateBeforePending
      emit(.session(header ?? SessionHeader(session: "replayable")), time: time, into: &out)
      for event in base.rebuildingEvents() { emit(event, time: time, into: &out) }
      let startSeq = beginsTransition || pending.isEmpty ? record.seq : pending[0].seq
      emit(
        .mark(label: Self.markLabel, fields: [Field(key: "from", value: RawJSON(unchecked: String(startSeq)))]),
        time: time, into: &out)
      if !beginsTransition {
        for earlier in pending { emit(earlier, into: &out) }
      }
      pending = []
    } else if !started {
      if beginsTransition {
        stateBeforePending = state
        pending = []
      }
    }
    let wasInFlight = state.transitionInFlight != nil
    state.fold(record)
    switch record.event {
    case .unlink, .dealloc: break
    case .session, .alloc, .root, .link, .modal, .touches, .pan, .move, .lifecycle, .mark, .unknown:
      inCleanup = wasInFlight && state.transitionInFlight == nil
    }
    if started {
      if kept { emit(record, into: &out) }
    } else if state.transitionInFlight == nil {
      pending = []
    } else {
      pending.append(record)
    }
  }

  /// Appends the header alone when no event was kept, so that even an empty slice is a journal.
  public mutating func finish(into out: inout [Record]) {
    guard !started else { return }
    started = true
    emit(
      .session(header ?? SessionHeader(session: "replayable")), time: state.lastTime ?? Timestamp(microseconds: 0),
      into: &out)
  }

  private mutating func emit(_ record: Record, into out: inout [Record]) {
    if case .session = record.event { return }  // one header, the first
    var extra = record.extra.filter { $0.key != Self.sourceSeqKey }
    extra.append(Field(key: Self.sourceSeqKey, value: RawJSON(unchecked: String(record.seq))))
    out.append(Record(seq: nextSeq, time: record.time, event: record.event, extra: extra))
    nextSeq += 1
  }

  private mutating func emit(_ event: Event, time: Timestamp, into out: inout [Record]) {
    out.append(Record(seq: nextSeq, time: time, event: event))
    nextSeq += 1
  }
}

extension State {
  /// Events that, folded from an empty state, give this state's controllers
  /// (alive ones: class, one load, phase, modal and presenter), root, focus,
  /// links and minimum touches; the focus appears through the initial display.
  public func rebuildingEvents() -> [Event] {
    var events: [Event] = []
    let alive = store.indices.filter { store[$0].isAlive }
    for p in alive { events.append(.alloc(controller: store[p].id, className: store[p].className)) }
    for p in alive {
      for direction in Direction.slotOrder where store[p].minimumTouches[direction] != 1 {
        events.append(.touches(controller: store[p].id, direction: direction, min: store[p].minimumTouches[direction]))
      }
    }
    func phaseCallbacks(_ c: ControllerState) -> [Callback] {
      switch c.phase {
      case .disappeared: []
      case .appearing: [.willAppear]
      case .appeared: [.willAppear, .didAppear]
      case .disappearing: [.willAppear, .didAppear, .willDisappear]
      }
    }
    if focusIndex >= 0 {
      let f = store[Int(focusIndex)]
      events.append(.root(controller: f.id))
      if f.isLoaded { events.append(.lifecycle(controller: f.id, callback: .didLoad)) }
      for callback in phaseCallbacks(f) { events.append(.lifecycle(controller: f.id, callback: callback)) }
    }
    if rootIndex >= 0 && rootIndex != focusIndex { events.append(.root(controller: store[Int(rootIndex)].id)) }
    for p in alive where Int32(p) != focusIndex && store[p].isLoaded {
      events.append(.lifecycle(controller: store[p].id, callback: .didLoad))
    }
    for p in alive where store[p].isModal {
      guard let presenter = store[p].presenter, isAlive(presenter) else { continue }
      events.append(.modal(controller: store[p].id, presenter: presenter))
    }
    var linked = Set<[Int32]>()
    for p in alive {
      for direction in Direction.slotOrder {
        guard let n = store[p].neighbours[direction], !linked.contains([n, Int32(p)]) else { continue }
        linked.insert([Int32(p), n])
        events.append(.link(from: store[p].id, direction: direction, to: store[Int(n)].id))
      }
    }
    for p in alive where Int32(p) != focusIndex {
      for callback in phaseCallbacks(store[p]) {
        events.append(.lifecycle(controller: store[p].id, callback: callback))
      }
    }
    return events
  }
}
