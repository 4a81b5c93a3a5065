import Journal

/// Follows the visits of every controller of one journal: a visit starts at a
/// didAppear (unless one is already open) and ends at the next willDisappear,
/// or at the controller's dealloc. A willAppear whose didAppear never comes
/// before that end starts an incomplete visit, counted from the willAppear.
///
/// Memory: one entry per controller (its class, visit count, dwell so far and
/// open visit), in the order controllers were first named.
package struct VisitTracker {
  struct Entry {
    var controller: ControllerID
    var className: String?
    /// Visits started so far.
    var visits = 0
    /// Dwell of the visits that ended, in microseconds.
    var closedDwell: Int64 = 0
    var openSeq: Int?
    var openTime = Timestamp(microseconds: 0)
    /// A willAppear not yet followed by a didAppear, while no visit is open.
    var willSeq: Int?
    var willTime = Timestamp(microseconds: 0)
    /// Visits counted from a willAppear, didAppear missing.
    var incompleteVisits = 0

    init(controller: ControllerID, className: String?) {
      self.controller = controller
      self.className = className
    }
  }

  private(set) var entries: [Entry] = []

  package init() {}
  /// Implementation note: the fold's index (one hash of the id's bytes), not a
  /// `Dictionary`, which hashed every id of a lifecycle event with SipHash.
  private var positions = ControllerIndex()
  /// The ids looked up last and their entries: a move's two controllers are named again by its
  /// four callbacks, and comparing an id with four kept ones costs less than hashing it.
  private var recent = RecentIDs()
  /// The entries' class names, each kept once (every entry is kept for the whole session).
  private var classNames = InternedTexts()

  /// Moves on by one record; returns the visit it ended, if any.
  mutating func consume(_ record: Record) -> Visit? {
    step(record).ended
  }

  /// Moves on by one record; returns whether it started a visit (its number) and the visit it ended
  /// (an incomplete one too: it is known to be one only when it ends).
  package mutating func step(_ record: Record) -> (started: Int?, ended: Visit?) {
    var entry: Int32 = -1
    return step(record, entry: &entry)
  }

  /// ``step(_:)`` for a caller that keeps the position of the record's controller among the
  /// entries: -1 before it is known, set once it is (an entry never moves).
  @inline(__always)
  package mutating func step(_ record: Record, entry: inout Int32) -> (started: Int?, ended: Visit?) {
    switch record.event {
    case .alloc(let controller, let className):
      let p = position(of: controller, &entry)
      entries[p].className = classNames.intern(className)
      return (nil, nil)
    case .lifecycle(let controller, let callback):
      if entry < 0 { entry = self.entry(of: controller, for: callback) }
      guard entry >= 0 else { return (nil, nil) }
      return step(callback, at: Int(entry), seq: record.seq, time: record.time)
    case .dealloc(let controller):
      if entry < 0, let p = lookUp(controller) { entry = p }
      guard entry >= 0 else { return (nil, nil) }
      return end(Int(entry), seq: record.seq, time: record.time)
    case .session, .root, .link, .unlink, .modal, .touches, .pan, .move, .mark, .unknown:
      return (nil, nil)
    }
  }

  /// ``step(_:entry:)`` of a lifecycle record whose controller's entry is known (`entry` at least 0):
  /// the id is not read.
  ///
  /// Implementation note: a trace steps every callback; bound from the record, its id was copied
  /// (retained and released: a string the decoding and checking threads retain and release too).
  @inline(__always)
  package mutating func step(_ callback: Callback, at entry: Int, seq: Int, time: Timestamp) -> (
    started: Int?, ended: Visit?
  ) {
    let p = entry
    switch callback {
    case .willAppear:
      guard entries[p].openSeq == nil, entries[p].willSeq == nil else { return (nil, nil) }
      entries[p].willSeq = seq
      entries[p].willTime = time
      return (nil, nil)
    case .didAppear:
      guard entries[p].openSeq == nil else { return (nil, nil) }
      entries[p].willSeq = nil
      entries[p].visits += 1
      entries[p].openSeq = seq
      entries[p].openTime = time
      return (entries[p].visits, nil)
    case .willDisappear:
      return end(p, seq: seq, time: time)
    case .didLoad, .didDisappear:
      return (nil, nil)
    }
  }

  /// Whether the willAppear at `seq` of the controller at `entry` may begin a visit: it is the one
  /// an incomplete visit would count from, should its didAppear never come.
  package func awaitsDidAppear(at entry: Int, since seq: Int) -> Bool {
    entries[entry].willSeq == seq
  }

  /// A willDisappear or a dealloc of the controller at entry `p`: its open visit ends.
  @inline(__always)
  private mutating func end(_ p: Int, seq: Int, time: Timestamp) -> (started: Int?, ended: Visit?) {
    if entries[p].openSeq != nil { return (nil, close(p, seq: seq, time: time)) }
    guard entries[p].willSeq != nil else { return (nil, nil) }
    return (nil, closeIncomplete(p, endSeq: seq, endTime: time))
  }

  /// The visits still open at the end of the journal, lasting up to `lastTime`,
  /// in the order the controllers were first named. Their dwell is added to the entries.
  package mutating func finish(lastTime: Timestamp?) -> [Visit] {
    var open: [Visit] = []
    for p in entries.indices {
      if entries[p].willSeq != nil {
        open.append(
          closeIncomplete(p, endSeq: nil, endTime: max(lastTime ?? entries[p].willTime, entries[p].willTime)))
        continue
      }
      guard let seq = entries[p].openSeq else { continue }
      let visit = makeVisit(
        p, startSeq: seq, endSeq: nil, endTime: max(lastTime ?? entries[p].openTime, entries[p].openTime))
      entries[p].closedDwell += visit.dwellMicroseconds
      open.append(visit)
    }
    return open
  }

  private mutating func close(_ p: Int, seq: Int, time: Timestamp) -> Visit {
    let visit = makeVisit(p, startSeq: entries[p].openSeq!, endSeq: seq, endTime: time)
    entries[p].closedDwell += visit.dwellMicroseconds
    entries[p].openSeq = nil
    return visit
  }

  /// The visit from a willAppear whose didAppear never came, to `endTime`.
  private mutating func closeIncomplete(_ p: Int, endSeq: Int?, endTime: Timestamp) -> Visit {
    entries[p].visits += 1
    entries[p].incompleteVisits += 1
    let visit = Visit(
      controller: entries[p].controller, className: entries[p].className, number: entries[p].visits,
      startSeq: entries[p].willSeq!, startTime: entries[p].willTime, endSeq: endSeq, endTime: endTime,
      isComplete: false)
    entries[p].closedDwell += visit.dwellMicroseconds
    entries[p].willSeq = nil
    return visit
  }

  /// Implementation note: the entry's fields read in place; a copy of the entry retained and
  /// released its id and class besides the visit's own.
  private func makeVisit(_ p: Int, startSeq: Int, endSeq: Int?, endTime: Timestamp) -> Visit {
    Visit(
      controller: entries[p].controller, className: entries[p].className, number: entries[p].visits,
      startSeq: startSeq, startTime: entries[p].openTime, endSeq: endSeq, endTime: endTime)
  }

  /// The entry a lifecycle record of `controller` with `callback` steps (see ``step(_:at:seq:time:)``):
  /// made for a willAppear or a didAppear, looked up for a willDisappear; -1 for none.
  package mutating func entry(of controller: ControllerID, for callback: Callback) -> Int32 {
    var entry: Int32 = -1
    switch callback {
    case .willAppear, .didAppear: _ = position(of: controller, &entry)
    case .willDisappear: entry = lookUp(controller) ?? -1
    case .didLoad, .didDisappear: break
    }
    return entry
  }

  private mutating func position(of controller: ControllerID, _ entry: inout Int32) -> Int {
    if entry >= 0 { return Int(entry) }
    if let p = lookUp(controller) {
      entry = p
      return Int(p)
    }
    entry = Int32(entries.count)
    positions.insert(controller, at: entry)
    recent.insert(controller, entry)
    entries.append(Entry(controller: controller, className: nil))
    return entries.count - 1
  }

  /// The entry of `controller`, nil when it has none yet.
  @inline(__always)
  private mutating func lookUp(_ controller: ControllerID) -> Int32? {
    if let p = recent.find(controller) { return p }
    guard let p = positions[controller] else { return nil }
    recent.insert(controller, p)
    return p
  }
}
