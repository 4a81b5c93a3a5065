import Journal

/// Folds one journal record into the state: the model's only transition function.
///
/// Pure: no clock, no I/O, no randomness; the same state and record always give
/// the same result. Implied reverse links and replaced links are replayed as the
/// spec's graph rules say. Unknown event types only count. An event that breaks
/// the model never crashes and never throws: the fold applies what it sensibly
/// can (see ``Anomaly`` for what is applied) and returns the anomalies, for
/// the lifecycle checker, which looks at the state before the record, the
/// record and these anomalies.
///
/// ```swift
/// var state = State()
/// reduce(into: &state, Record(seq: 0, time: .modelEpoch, event: .session(SessionHeader(session: "S1"))))
/// reduce(into: &state, Record(seq: 1, time: .modelEpoch, event: .alloc(controller: "home", className: "Home")))
/// reduce(into: &state, Record(seq: 2, time: .modelEpoch, event: .root(controller: "home")))
/// state.focus  // "home"
/// let anomalies = reduce(into: &state, Record(seq: 3, time: .modelEpoch, event: .root(controller: "hme")))
/// anomalies.first?.rule  // .unknownController
/// ```
///
/// - Parameters:
///   - state: the state after the previous record; moved on in place.
///   - record: the next record of the journal.
/// - Returns: the anomalies the record shows (empty for a healthy journal).
/// - Complexity: O(1) amortised per record, except a `dealloc` of a modal
///   (linear in its presenter's alive modals).
@discardableResult
public func reduce(into state: inout State, _ record: Record) -> [Anomaly] {
  state.fold(record)
}

extension State {
  /// Folds `records` in order and returns the state after the last one.
  ///
  /// ```swift
  /// let state = State(folding: records)
  /// ```
  public init(folding records: some Sequence<Record>) {
    self.init()
    for record in records { fold(record) }
  }

  /// Folds a record; `position`, when not -1, is the position of a lifecycle, unlink or dealloc
  /// record's (first) controller in ``store`` (``position(of:)``), which a caller that interned the
  /// id already knows. A lifecycle record's is taken as it is; the others' are tried first.
  ///
  /// Implementation note: an id keeps its position for good (a reused id too), so the hint
  /// spares the index's lookup; the trace folds beside the checker and looks each id up once.
  /// The other records' ids are tried first at the position they most likely have (see
  /// ``alivePosition(of:expecting:)``).
  @discardableResult
  mutating func fold(_ record: Record, position hint: Int32 = -1) -> [Anomaly] {
    lastSeq = record.seq
    lastTime = record.time
    var anomalies: [Anomaly] = []
    fold(record.event, seq: record.seq, position: hint, &anomalies)
    counters.anomalies += anomalies.count
    return anomalies
  }

  /// Folds a record's event (``fold(_:position:)``).
  ///
  /// Implementation note: `borrowing`, so the language lets nothing copy the event. Switched on as a
  /// stored property of the record, the whole event would be copied (every id it holds retained)
  /// before the switch and destroyed after it, at every record.
  @inline(__always)
  private mutating func fold(_ event: borrowing Event, seq: Int, position hint: Int32, _ anomalies: inout [Anomaly]) {
    counters.count(event.kind)
    switch event {
    case .session(let header):
      if self.header == nil { self.header = header }
    case .alloc(let id, let className):
      foldAlloc(id, className, seq: seq, &anomalies)
    case .root(let id):
      guard let p = resolve(id, expecting: Int32(store.count) - 1, &anomalies) else { break }
      rootIndex = p
      if focusIndex < 0 {
        focusIndex = p
        transition = Transition(
          kind: .initialDisplay, seq: seq, from: nil, to: id, direction: nil, trigger: nil, animated: false)
      }
    case .link(let from, let direction, let to):
      foldLink(from, direction, to, &anomalies)
    case .unlink(let from, let direction):
      guard let a = resolve(from, expecting: hint >= 0 ? hint : focusIndex, &anomalies) else { break }
      clear(a, direction)
    case .modal(let controller, let presenter):
      foldModal(controller, presenter, &anomalies)
    case .touches(let id, let direction, let min):
      guard let a = resolve(id, expecting: Int32(store.count) - 1, &anomalies) else { break }
      store[Int(a)].minimumTouches[direction] = min
      if let b = store[Int(a)].neighbours[direction] {
        store[Int(b)].minimumTouches[direction.opposite] = min
      }
    case .pan(let pan):
      counters.byOutcome[pan.outcome.index] += 1
      _ = resolve(pan.controller, expecting: focusIndex, &anomalies)
    case .move(let move):
      foldMove(move, seq: seq, &anomalies)
    case .lifecycle(let id, let callback):
      counters.byCallback[callback.index] += 1
      guard let p = hint >= 0 && store[Int(hint)].isAlive ? hint : resolve(id, &anomalies) else { break }
      // A did-callback without its will stands for that will too (one defect, one finding).
      let lacksWill = store[Int(p)].appearance.lacksWill(callback)
      switch callback {
      case .didLoad: store[Int(p)].loadCount += 1
      case .willAppear: store[Int(p)].phase = .appearing
      case .didAppear: store[Int(p)].phase = .appeared
      case .willDisappear: store[Int(p)].phase = .disappearing
      case .didDisappear: store[Int(p)].phase = .disappeared
      }
      if callback != .didLoad { store[Int(p)].hasAppeared = true }
      // Mutated in place (a copy would copy its arrivals on every callback); its ends compared once.
      if transition?.isComplete == false, let ends = transition?.ends(of: id), ends.involved {
        transition?.arrive(Arrival(id, callback), ends: ends, standsForWill: lacksWill)
      }
    case .dealloc(let id):
      foldDealloc(id, seq: seq, expecting: hint, &anomalies)
    case .mark:
      break
    case .unknown(let type, _):
      counters.unknownTypes[type, default: 0] += 1
    }
  }

  /// The position of an alive controller, tried first at `expected` (the focus, the last
  /// controller allocated, the neighbour a move goes to; -1 for none), or nil with an anomaly.
  @inline(__always)
  private func resolve(_ id: ControllerID, expecting expected: Int32 = -1, _ anomalies: inout [Anomaly]) -> Int32? {
    if let p = alivePosition(of: id, expecting: expected) { return p }
    anomalies.append(missing(id))
    return nil
  }

  @inline(never)
  private func missing(_ id: ControllerID) -> Anomaly {
    Anomaly(index[id] == nil ? .unknownController(id) : .useAfterDealloc(id))
  }

  /// Clears `a`'s slot and its reverse link.
  private mutating func clear(_ a: Int32, _ direction: Direction) {
    guard let b = store[Int(a)].neighbours[direction] else { return }
    store[Int(a)].neighbours[direction] = nil
    if store[Int(b)].neighbours[direction.opposite] == a {
      store[Int(b)].neighbours[direction.opposite] = nil
    }
  }

  private mutating func foldAlloc(_ id: ControllerID, _ className: String, seq: Int, _ anomalies: inout [Anomaly]) {
    let className = classNames.intern(className)
    if let p = index.insert(id, ifAbsentAt: Int32(store.count)) {
      let alive = store[Int(p)].isAlive
      anomalies.append(Anomaly(.idReused(id, allocatedAt: store[Int(p)].allocatedAt, alive: alive)))
      // A reused id of a dead instance names a fresh instance from here on; an alive one is kept.
      if !alive { store[Int(p)] = ControllerState(id: id, className: className, allocatedAt: seq) }
      return
    }
    store.append(ControllerState(id: id, className: className, allocatedAt: seq))
  }

  private mutating func foldLink(
    _ from: ControllerID, _ direction: Direction, _ to: ControllerID, _ anomalies: inout [Anomaly]
  ) {
    // A modal's link from its presenter (the focus) to it (just allocated); a chain built in order.
    let a = resolve(from, expecting: focusIndex, &anomalies)
    let b = from == to ? a : resolve(to, expecting: Int32(store.count) - 1, &anomalies)
    guard let a, let b else { return }
    guard a != b else {
      anomalies.append(Anomaly(.linkToItself(from)))
      return
    }
    let current = store[Int(a)].neighbours[direction]
    if current == b { return }
    if let current, store[Int(b)].presentationPending, store[Int(b)].presenter == from {
      let occupant = store[Int(current)].id
      anomalies.append(Anomaly(.slotOccupied(modal: to, presenter: from, direction, occupant: occupant)))
    }
    store[Int(a)].presentationPending = false
    store[Int(b)].presentationPending = false
    if current != nil { clear(a, direction) }
    if store[Int(b)].neighbours[direction.opposite] != nil { clear(b, direction.opposite) }
    store[Int(a)].neighbours[direction] = b
    store[Int(b)].neighbours[direction.opposite] = a
  }

  private mutating func foldModal(_ modal: ControllerID, _ presenter: ControllerID, _ anomalies: inout [Anomaly]) {
    let m = resolve(modal, expecting: Int32(store.count) - 1, &anomalies)
    let p = modal == presenter ? m : resolve(presenter, expecting: focusIndex, &anomalies)
    guard let m, let p else { return }
    guard m != p else {
      anomalies.append(Anomaly(.modalPresentedByItself(modal)))
      return
    }
    if store[Int(m)].isModal, let old = store[Int(m)].presenter, old != presenter, let o = index[old] {
      store[Int(o)].presented.removeAll { $0 == m }
    }
    store[Int(m)].isModal = true
    store[Int(m)].presenter = presenter
    store[Int(m)].presentationPending = true
    if !store[Int(p)].presented.contains(m) { store[Int(p)].presented.append(m) }
  }

  private mutating func foldMove(_ move: Move, seq: Int, _ anomalies: inout [Anomaly]) {
    counters.byTrigger[move.trigger.index] += 1
    if move.animated { counters.animatedMoves += 1 }
    // From the focus to its neighbour in the move's direction, in a journal that follows the map.
    let a = resolve(move.from, expecting: focusIndex, &anomalies)
    let b =
      move.from == move.to
      ? a : resolve(move.to, expecting: a.flatMap { store[Int($0)].neighbours[move.direction] } ?? -1, &anomalies)
    guard let a, let b else { return }
    if focusIndex != a {
      anomalies.append(Anomaly(.focusMismatch(from: move.from, focus: focus)))
    }
    if store[Int(a)].neighbours[move.direction] != b {
      let actual = store[Int(a)].neighbours[move.direction].map { id(at: $0) }
      anomalies.append(Anomaly(.notNeighbour(from: move.from, to: move.to, move.direction, neighbour: actual)))
    }
    if transition?.isComplete == false { counters.interruptedTransitions += 1 }
    focusIndex = b
    transition = Transition(
      kind: .move, seq: seq, from: move.from, to: move.to, direction: move.direction, trigger: move.trigger,
      animated: move.animated)
  }

  private mutating func foldDealloc(_ id: ControllerID, seq: Int, expecting hint: Int32, _ anomalies: inout [Anomaly]) {
    guard let x = resolve(id, expecting: hint, &anomalies) else { return }
    if let refusal = deallocRefusal(x) {
      anomalies.append(Anomaly(.deallocForbidden(id, refusal)))
    }
    for direction in Direction.slotOrder { clear(x, direction) }
    if store[Int(x)].isModal, let presenter = store[Int(x)].presenter, let p = index[presenter] {
      store[Int(p)].presented.removeAll { $0 == x }
    }
    store[Int(x)].isAlive = false
    store[Int(x)].deallocatedAt = seq
  }

  /// Why deallocating the controller at `x` breaks the model, if it does (spec rule 9).
  func deallocRefusal(_ x: Int32) -> Anomaly.DeallocRefusal? {
    if x == rootIndex { return .root }
    if x == focusIndex { return .focus }
    if let t = transitionInFlight, t.involves(store[Int(x)].id) { return .inFlight(seq: t.seq) }
    if let m = store[Int(x)].presented.first { return .presenter(of: store[Int(m)].id) }
    return nil
  }
}
