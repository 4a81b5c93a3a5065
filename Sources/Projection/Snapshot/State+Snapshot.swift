import Journal

extension State {
  /// Writes the whole state, so that ``init(snapshot:)`` makes it again, equal
  /// (`==`) to this one: every controller in allocation order, the transition,
  /// the counters, the header and the last seq and time.
  ///
  /// ```swift
  /// var out = SnapshotWriter()
  /// state.snapshot(into: &out)
  /// var input = SnapshotReader(out.bytes)
  /// try State(snapshot: &input) == state  // true
  /// ```
  ///
  /// The point index of `at` and `map --at` keeps one every few thousand
  /// events, so a query folds from the nearest one instead of from the start.
  public func snapshot(into out: inout SnapshotWriter) {
    out.unsigned(Self.snapshotVersion)
    out.optional(header) { out, header in
      out.int(header.version)
      out.string(header.session)
      for text in [header.app, header.build, header.device, header.profile, header.scenario] {
        out.optional(text) { $0.string($1) }
      }
    }
    out.optional(transition) { $0.transition($1) }
    out.optional(lastSeq) { $0.int($1) }
    out.optional(lastTime) { $0.int(Int($1.microseconds)) }
    out.counters(counters)
    out.int(store.count)
    for controller in store { out.controller(controller) }
    out.int(Int(rootIndex))
    out.int(Int(focusIndex))
  }

  /// Makes the state a ``snapshot(into:)`` wrote.
  /// - Throws: ``SnapshotReader/Damaged`` when the bytes are not such a snapshot.
  public init(snapshot input: inout SnapshotReader) throws(SnapshotReader.Damaged) {
    self.init()
    guard try input.unsigned() == Self.snapshotVersion else { throw SnapshotReader.Damaged(offset: input.position) }
    header = try input.optional { (input) throws(SnapshotReader.Damaged) in
      var header = SessionHeader(version: try input.int(), session: try input.string())
      header.app = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.string() }
      header.build = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.string() }
      header.device = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.string() }
      header.profile = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.string() }
      header.scenario = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.string() }
      return header
    }
    transition = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.transition() }
    lastSeq = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.int() }
    lastTime = try input.optional { (input) throws(SnapshotReader.Damaged) in
      Timestamp(microseconds: Int64(try input.int()))
    }
    counters = try input.counters()
    let count = try input.int(in: 0...Int(Int32.max))
    for position in 0..<count {
      let controller = try input.controller(positions: count)
      // The index names each id's newest controller, as the fold's allocations leave it.
      index.insert(controller.id, at: Int32(position))
      store.append(controller)
    }
    rootIndex = Int32(try input.int(in: -1...count - 1))
    focusIndex = Int32(try input.int(in: -1...count - 1))
  }

  /// The layout written by ``snapshot(into:)``; a new one makes older snapshots unreadable.
  static let snapshotVersion: UInt64 = 2
}

extension SnapshotWriter {
  fileprivate mutating func ordinal<T: CaseIterable & Equatable>(_ value: T) {
    int(T.allCases.firstIndex(of: value).map { T.allCases.distance(from: T.allCases.startIndex, to: $0) } ?? 0)
  }

  fileprivate mutating func id(_ id: ControllerID) { string(id.rawValue) }

  fileprivate mutating func transition(_ transition: Transition) {
    bool(transition.kind == .move)
    int(transition.seq)
    optional(transition.from) { $0.id($1) }
    id(transition.to)
    optional(transition.direction) { $0.ordinal($1) }
    optional(transition.trigger) { $0.ordinal($1) }
    bool(transition.animated)
    int(transition.arrivals.count)
    for arrival in transition.arrivals {
      id(arrival.controller)
      ordinal(arrival.callback)
    }
    int(Int(transition.arrivedMask))
  }

  fileprivate mutating func counters(_ counters: Counters) {
    int(counters.events)
    int(counters.unknownTypes.count)
    for (type, count) in counters.unknownTypes.sorted(by: { $0.key < $1.key }) {
      string(type)
      int(count)
    }
    int(counters.anomalies)
    int(counters.interruptedTransitions)
    for table in [counters.byType, counters.byTrigger, counters.byOutcome, counters.byCallback] {
      int(table.count)
      for count in table { int(count) }
    }
    int(counters.animatedMoves)
  }

  fileprivate mutating func controller(_ controller: ControllerState) {
    id(controller.id)
    string(controller.className)
    bool(controller.isAlive)
    int(controller.loadCount)
    ordinal(controller.phase)
    bool(controller.hasAppeared)
    bool(controller.isModal)
    optional(controller.presenter) { $0.id($1) }
    for direction in Direction.allCases { int(controller.minimumTouches[direction]) }
    int(controller.allocatedAt)
    optional(controller.deallocatedAt) { $0.int($1) }
    let n = controller.neighbours
    for neighbour in [n.left, n.right, n.up, n.down] { int(Int(neighbour)) }
    int(controller.presented.count)
    for position in controller.presented { int(Int(position)) }
    bool(controller.presentationPending)
  }
}

extension SnapshotReader {
  fileprivate mutating func ordinal<T: CaseIterable>(_: T.Type) throws(Damaged) -> T {
    let cases = Array(T.allCases)
    return cases[try int(in: 0...cases.count - 1)]
  }

  fileprivate mutating func id() throws(Damaged) -> ControllerID { ControllerID(try string()) }

  fileprivate mutating func transition() throws(Damaged) -> Transition {
    var transition = Transition(
      kind: try bool() ? .move : .initialDisplay, seq: try int(),
      from: try optional { (input) throws(Damaged) in try input.id() }, to: try id(),
      direction: try optional { (input) throws(Damaged) in try input.ordinal(Direction.self) },
      trigger: try optional { (input) throws(Damaged) in try input.ordinal(MoveTrigger.self) },
      animated: try bool())
    let count = try int(in: 0...Int(Int32.max))
    for _ in 0..<count {
      transition.arrive(Arrival(try id(), try ordinal(Callback.self)))
    }
    transition.arrivedMask = UInt8(try int(in: 0...255))
    return transition
  }

  fileprivate mutating func counters() throws(Damaged) -> Counters {
    var counters = Counters()
    counters.events = try int()
    for _ in 0..<(try int(in: 0...Int(Int32.max))) {
      let type = try string()
      counters.unknownTypes[type] = try int()
    }
    counters.anomalies = try int()
    counters.interruptedTransitions = try int()
    counters.byType = try table(counters.byType.count)
    counters.byTrigger = try table(counters.byTrigger.count)
    counters.byOutcome = try table(counters.byOutcome.count)
    counters.byCallback = try table(counters.byCallback.count)
    counters.animatedMoves = try int()
    return counters
  }

  /// A table of counts that must have `count` entries (one per case of its enum).
  private mutating func table(_ count: Int) throws(Damaged) -> [Int] {
    guard try int() == count else { throw Damaged(offset: position) }
    var table: [Int] = []
    table.reserveCapacity(count)
    for _ in 0..<count { table.append(try int()) }
    return table
  }

  fileprivate mutating func controller(positions count: Int) throws(Damaged) -> ControllerState {
    let range = -1...count - 1
    var controller = ControllerState(id: try id(), className: try string(), allocatedAt: 0)
    controller.isAlive = try bool()
    controller.loadCount = try int()
    controller.phase = try ordinal(ControllerState.Phase.self)
    controller.hasAppeared = try bool()
    controller.isModal = try bool()
    controller.presenter = try optional { (input) throws(Damaged) in try input.id() }
    for direction in Direction.allCases { controller.minimumTouches[direction] = try int() }
    controller.allocatedAt = try int()
    controller.deallocatedAt = try optional { (input) throws(Damaged) in try input.int() }
    controller.neighbours.left = Int32(try int(in: range))
    controller.neighbours.right = Int32(try int(in: range))
    controller.neighbours.up = Int32(try int(in: range))
    controller.neighbours.down = Int32(try int(in: range))
    for _ in 0..<(try int(in: 0...count)) { controller.presented.append(Int32(try int(in: 0...max(0, count - 1)))) }
    controller.presentationPending = try bool()
    return controller
  }
}
