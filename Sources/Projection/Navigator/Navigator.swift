import Journal

/// The headless reference model of a spatial map: it turns commands (`root`,
/// `link`, `move`, `pan`, `modal`, `goToRoot`...) into the journal events a
/// real map would write, under one ``Profile``.
///
/// Each command decides its events from the current ``state``, appends them
/// (`seq` in order, `time` from the logical clock of spec rule 10) and moves the
/// state on by folding each one with ``reduce(into:_:)``: the navigator and the
/// projection share one model. A refused command throws ``NavigatorError`` and
/// writes nothing, and leaves the clock alone.
///
/// ```swift
/// var nav = Navigator(profile: .intended, header: SessionHeader(session: "S1"))
/// try nav.controller("home", className: "HomeViewController")
/// try nav.controller("notes", className: "NotesViewController")
/// try nav.root("home")                  // root, didLoad, willAppear, didAppear
/// try nav.link("home", .left, "notes")  // link, notes didLoad
/// try nav.pan(.left, distance: 120)     // pan committed, move, W-, W+, D-, D+ (250 ms later)
/// nav.state.focus                       // "notes"
/// let journal = nav.journal             // NDJSON bytes, one line per record
/// ```
public struct Navigator: Sendable {
  /// The behaviour reproduced.
  public let profile: Profile
  /// The model's state after the last record written.
  public private(set) var state = State()
  /// The logical clock: the time of the last event written, or later after `wait`.
  public private(set) var clock: Timestamp
  /// The records written and not yet taken by ``takeRecords()``: every record
  /// written so far, the header first, unless a caller drains them.
  public private(set) var records: [Record] = []
  /// Records already handed out by ``takeRecords()``.
  private var taken = 0
  /// Every record written so far, taken or not: the `seq` of the next one.
  public var recordCount: Int { taken + records.count }
  /// When true, ``states`` keeps the state after each record (tests).
  public let keepsStates: Bool
  /// The state after each record (index = `seq`), when ``keepsStates`` is true.
  public private(set) var states: [State] = []

  /// The marks of the last walk to the root (scratch of ``pathToRoot()``).
  var walkMarks = WalkMarks()
  /// Snapping thresholds set by `threshold` (not journaled), in points.
  var thresholds: [ControllerID: Double] = [:]
  /// Whether the command being run has written an event (its first one advances the clock by 1 ms).
  var commandWrote = false
  /// Whether an unknown id's error suggests the closest alive one (a typo in a script). The
  /// model of `check --model` does not: a journal's ids are not typed by hand, and the edit
  /// distance to every alive controller at each refusal would be most of the work of
  /// `check --model` on a journal with many refusals.
  var suggestsIDs = true

  /// The snapping threshold when none was set, in points.
  public static let defaultThreshold = 50.0
  /// A pan faster than this commits as a fling, in points per second (strictly greater).
  public static let flingVelocity = 650.0
  /// Time between the `will` and the `did` callbacks of an animated move, in milliseconds.
  public static let animationMilliseconds: Int64 = 250

  /// Starts a session: writes the header at `seq` 0 with the start time.
  ///
  /// - Parameters:
  ///   - profile: intended or legacy behaviour.
  ///   - header: the session header as journaled (the caller sets `profile` and `scenario`).
  ///   - start: the clock's start, the header's time (default `2026-01-01T00:00:00Z`).
  ///   - keepsStates: keep the state after every record in ``states``.
  public init(profile: Profile, header: SessionHeader, start: Timestamp = .modelEpoch, keepsStates: Bool = false) {
    self.profile = profile
    self.clock = start
    self.keepsStates = keepsStates
    append(.session(header))
  }

  /// The journal written so far (since the last ``takeRecords()``): one NDJSON
  /// line per record, each ended by `\n`.
  public var journal: [UInt8] { Record.journal(records) }

  /// The snapping threshold of a controller, in points.
  public func threshold(of id: ControllerID) -> Double {
    thresholds[id] ?? Self.defaultThreshold
  }

  // MARK: Writing

  /// Hands out the records written since the last call (all of them the first
  /// time) and forgets them: a long run (``Simulator``, `check --model`) keeps
  /// constant memory this way. ``recordCount`` and `seq` go on counting.
  ///
  /// ```swift
  /// try nav.move(.left)
  /// let batch = nav.takeRecords()   // the header, ..., the move's events
  /// nav.records.isEmpty             // true
  /// ```
  public mutating func takeRecords() -> [Record] {
    taken += records.count
    // The next records go to a buffer as large as this one (growing one from
    // empty again copied every record a dozen times).
    var batch: [Record] = []
    batch.reserveCapacity(records.capacity)
    swap(&batch, &records)
    return batch
  }

  /// Hands out the records written since the last take, leaving `spare` in their place to take
  /// the next ones: emptied here (its records destroyed on this thread), its capacity kept. A
  /// caller whose batches come back once written hands each one in again, and no buffer is
  /// allocated per batch.
  ///
  /// ```swift
  /// var batch = nav.takeRecords(leaving: [])
  /// // … batch written …
  /// let next = nav.takeRecords(leaving: batch)
  /// ```
  public mutating func takeRecords(leaving spare: consuming [Record]) -> [Record] {
    taken += records.count
    spare.removeAll(keepingCapacity: true)
    if spare.capacity < records.capacity { spare.reserveCapacity(records.capacity) }
    swap(&spare, &records)
    return spare
  }

  /// Appends the records written since the last take to `batch` and forgets
  /// them, keeping the navigator's buffer for the next ones (no allocation per
  /// command in a long run).
  public mutating func takeRecords(into batch: inout [Record]) {
    taken += records.count
    batch.append(contentsOf: records)
    records.removeAll(keepingCapacity: true)
  }

  /// Hands out the records written since the last take by swapping buffers
  /// with `batch`, which must be empty: the records are moved, not copied, and
  /// the batch's buffer (its capacity) takes the next ones. For a caller that
  /// empties its batch before each command (the conformance check).
  mutating func swapRecords(with batch: inout [Record]) {
    precondition(batch.isEmpty)
    taken += records.count
    swap(&records, &batch)
  }

  /// Forgets the records written since the last take, keeping the buffer (``takeRecords(into:)`` without a batch).
  public mutating func forgetRecords() {
    taken += records.count
    records.removeAll(keepingCapacity: true)
  }

  /// Runs one command. A command checks everything before it writes its first
  /// event, so a refused command has written nothing and changed nothing.
  /// Only a command that can fail midway (`goToRoot`, whose walk a modal
  /// cleanup can cut) passes `transactional: true`: then the state is saved
  /// first and, on error, everything it wrote is taken back.
  ///
  /// Implementation note: saving the state costs a copy-on-write of the chunks
  /// the command touches, a large share of `simulate`'s time if every command
  /// paid it; hence the opt-in.
  mutating func command(
    transactional: Bool = false, _ body: (inout Navigator) throws(NavigatorError) -> Void
  ) throws(NavigatorError) {
    commandWrote = false
    let count = records.count
    guard transactional else {
      do {
        try body(&self)
      } catch {
        precondition(records.count == count, "a navigator command wrote events before it failed: \(error)")
        throw error
      }
      return
    }
    let saved = (state, clock, states.count, thresholds)
    do {
      try body(&self)
    } catch {
      (state, clock) = (saved.0, saved.1)
      records.removeSubrange(count...)
      states.removeSubrange(saved.2...)
      thresholds = saved.3
      throw error
    }
  }

  /// Appends one event: the first of a command advances the clock by 1 ms; folds it.
  /// `position`, when not -1, is the position of a lifecycle, unlink or dealloc event's (first)
  /// controller, which the fold then does not look up (``State/fold(_:position:)``).
  mutating func emit(_ event: consuming Event, position: Int32 = -1) {
    if !commandWrote {
      clock = clock.adding(milliseconds: 1)
      commandWrote = true
    }
    append(event, position: position)
  }

  private mutating func append(_ event: consuming Event, position: Int32 = -1) {
    let record = Record(seq: recordCount, time: clock, event: event)
    let anomalies = state.fold(record, position: position)
    assert(anomalies.isEmpty, "the navigator wrote an event that breaks the model: \(anomalies)")
    if keepsStates { states.append(state) }
    // Appended last, the record is moved into the batch: appended before the fold, it would be
    // copied (its strings retained) and the copy released after the fold.
    records.append(record)
  }

  /// Lets the animation run: the clock moves on by 250 ms.
  mutating func animate() {
    clock = clock.adding(milliseconds: Self.animationMilliseconds)
  }

  mutating func callback(_ position: Int32, _ callback: Callback) {
    // The navigator knows the position: the fold need not look the id up.
    emit(.lifecycle(controller: state.id(at: position), callback: callback), position: position)
  }

  // MARK: Checking

  /// The position of an alive controller, or the error naming it (with the closest alive id for a typo).
  func alive(_ id: ControllerID) throws(NavigatorError) -> Int32 {
    guard let p = state.position(of: id) else {
      throw .unknownController(id, suggestion: suggestsIDs ? closestAlive(to: id) : nil)
    }
    guard state.store[Int(p)].isAlive else {
      throw .deallocated(id)
    }
    return p
  }

  /// The closest alive id by edit distance (the first declared on a tie), if close enough to be a typo.
  func closestAlive(to id: ControllerID) -> ControllerID? {
    closestWord(to: id.rawValue, in: state.controllers.lazy.filter(\.isAlive).map(\.id.rawValue)).map {
      ControllerID($0)
    }
  }

  /// The focus, or the error for a command that needs one.
  func focus(for command: ScenarioCommand.Name) throws(NavigatorError) -> Int32 {
    guard state.focusIndex >= 0 else { throw .noRoot(command) }
    return state.focusIndex
  }

  /// Refuses an id that cannot name a new controller.
  func checkNew(_ id: ControllerID, className: String) throws(NavigatorError) {
    guard id.isValid else { throw id.rawValue.isEmpty ? .emptyID : .idTooLong(id) }
    guard !className.isEmpty else { throw .emptyClass(id) }
    // The one other unbounded text of an alloc: its line must stay one that readers read.
    if className.utf8.count > 1024 {
      try Self.checkLine(.alloc(controller: id, className: className), .className(id))
    }
    if let c = state[controller: id] { throw c.isAlive ? .alreadyExists(id) : .usedBefore(id) }
  }

  /// Refuses an event whose line, written with the largest `seq`, would be longer than readers
  /// read by default (``DecodeLimits/maxLineLength``): a recording never holds a line its readers
  /// refuse.
  static func checkLine(_ event: Event, _ what: NavigatorError.LongText) throws(NavigatorError) {
    var line: [UInt8] = []
    Record(seq: .max, time: .latest, event: event).encode(into: &line)
    let limit = DecodeLimits().maxLineLength
    guard line.count <= limit else { throw .lineTooLong(what, length: line.count, limit: limit) }
  }

  // MARK: Commands

  /// `controller ID CLASS`: allocates a controller (`alloc`).
  ///
  /// - Throws: an empty or over-long id, an empty class, an id used before (even after dealloc).
  public mutating func controller(_ id: ControllerID, className: String) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      try nav.checkNew(id, className: className)
      nav.emit(.alloc(controller: id, className: className))
    }
  }

  /// `root ID`: sets the master's root. The first root is displayed (rule 2; legacy L1: silently).
  ///
  /// - Throws: an unknown or deallocated id, a modal.
  public mutating func root(_ id: ControllerID) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let p = try nav.alive(id)
      guard !nav.state.store[Int(p)].isModal else { throw .rootIsModal(id) }
      guard nav.state.rootIndex != p else { return }
      let initial = nav.state.focusIndex < 0
      nav.emit(.root(controller: id))
      guard nav.profile == .intended else { return }
      if !nav.state.store[Int(p)].isLoaded { nav.callback(p, .didLoad) }
      if initial {
        nav.callback(p, .willAppear)
        nav.callback(p, .didAppear)
      }
    }
  }

  /// `link FROM DIRECTION TO`: sets `from.direction = to` and the reverse link (graph rules, rule 1).
  ///
  /// - Throws: an unknown or deallocated id, a link to itself.
  public mutating func link(_ from: ControllerID, _ direction: Direction, _ to: ControllerID) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let a = try nav.alive(from)
      let b = try nav.alive(to)
      guard a != b else { throw .selfLink(from) }
      nav.writeLink(a, direction, b)
    }
  }

  /// Writes an effective link and the didLoad callbacks it causes.
  mutating func writeLink(_ a: Int32, _ direction: Direction, _ b: Int32) {
    guard state.store[Int(a)].neighbours[direction] != b else { return }
    emit(.link(from: state.id(at: a), direction: direction, to: state.id(at: b)))
    switch profile {
    case .intended:
      // Rule 1: B's didLoad, then A's, each only the first time.
      if !state.store[Int(b)].isLoaded { callback(b, .didLoad) }
      if !state.store[Int(a)].isLoaded { callback(a, .didLoad) }
    case .legacy:
      // L2: B on every effective link, never A.
      callback(b, .didLoad)
    }
  }

  /// `unlink FROM DIRECTION`: clears the slot and its reverse link; nothing if it is empty.
  ///
  /// - Throws: an unknown or deallocated id.
  public mutating func unlink(_ from: ControllerID, _ direction: Direction) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let a = try nav.alive(from)
      guard nav.state.store[Int(a)].neighbours[direction] != nil else { return }
      nav.emit(.unlink(from: from, direction: direction))
    }
  }

  /// `touches ID DIRECTION MIN`: the pan of `id` needs `min` fingers towards `direction`,
  /// and so does the neighbour there towards the opposite direction (rule 7).
  ///
  /// - Throws: an unknown or deallocated id, `min` below 1.
  public mutating func touches(_ id: ControllerID, _ direction: Direction, _ min: Int) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let a = try nav.alive(id)
      guard min >= 1 else { throw .touchesBelowOne(min) }
      var changes = nav.state.store[Int(a)].minimumTouches[direction] != min
      if let b = nav.state.store[Int(a)].neighbours[direction] {
        changes = changes || nav.state.store[Int(b)].minimumTouches[direction.opposite] != min
      }
      guard changes else { return }
      nav.emit(.touches(controller: id, direction: direction, min: min))
    }
  }

  /// `threshold ID POINTS`: the snapping threshold of pans towards `id` (not journaled).
  ///
  /// - Throws: an unknown or deallocated id, a negative or non-finite value.
  public mutating func threshold(_ id: ControllerID, _ points: Double) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      _ = try nav.alive(id)
      guard points >= 0, points.isFinite else { throw .invalidThreshold(points) }
      nav.thresholds[id] = points
    }
  }

  /// `dealloc ID`: unlinks the controller's slots in slot order, then deallocates it (rule 9).
  ///
  /// - Throws: an unknown or deallocated id; the root, the focus, a controller in the
  ///   transition in flight, a presenter of an alive modal.
  public mutating func dealloc(_ id: ControllerID) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let x = try nav.alive(id)
      if let refusal = nav.state.deallocRefusal(x) { throw .deallocForbidden(id, refusal) }
      for direction in Direction.slotOrder where nav.state.store[Int(x)].neighbours[direction] != nil {
        nav.emit(.unlink(from: id, direction: direction))
      }
      nav.emit(.dealloc(controller: id))
    }
  }

  /// `wait MS`: the clock moves on by exactly `milliseconds`; nothing is written.
  ///
  /// - Throws: a negative duration, or one over 10¹² ms (about 31 years), which keeps the clock from overflowing.
  public mutating func wait(milliseconds: Int64) throws(NavigatorError) {
    guard milliseconds >= 0 else { throw .negativeWait(milliseconds: milliseconds) }
    guard milliseconds <= Self.maximumWait else { throw .waitTooLong(milliseconds: milliseconds) }
    // A journal's times end with 9999-12-31 (readers refuse later ones); a day is left for the
    // commands after the wait (1 ms each, 250 ms an animation).
    guard clock.microseconds <= Timestamp.latest.microseconds - 86_400_000_000 - milliseconds * 1000 else {
      throw .waitPastLastTime(milliseconds: milliseconds)
    }
    clock = clock.adding(milliseconds: milliseconds)
  }

  /// The longest `wait`, in milliseconds (about 31 years): keeps the clock far from overflow.
  public static let maximumWait: Int64 = 1_000_000_000_000

  /// The keys a `mark` may not use: the envelope and its label.
  public static let reservedMarkKeys: Set<String> = ["seq", "time", "type", "label"]

  /// `mark LABEL [KEY=VALUE ...]`: a free annotation, values journaled as strings in order.
  ///
  /// - Throws: a reserved key (`seq`, `time`, `type`, `label`), an empty or repeated key.
  public mutating func mark(_ label: String, _ fields: [(key: String, value: String)] = []) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      var seen: Set<String> = []
      for (key, _) in fields {
        guard !key.isEmpty else { throw .emptyMarkKey }
        guard !Self.reservedMarkKeys.contains(key) else { throw .reservedMarkKey(key) }
        guard seen.insert(key).inserted else { throw .repeatedMarkKey(key) }
      }
      let event = Event.mark(label: label, fields: fields.map { Field.string($0.key, $0.value) })
      try Self.checkLine(event, .mark)
      nav.emit(event)
    }
  }
}
