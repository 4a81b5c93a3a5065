import Journal

/// One run reduced to the events that matter for ordering: a sequence of
/// tokens (interned ``NormalizedEvent``s), each with a pointer back to the
/// `seq` and line it came from.
///
/// Build it by appending records in journal order (the header and the
/// types not compared are skipped), then compare two runs with
/// ``DiffReport/init(_:_:context:)``.
///
/// ```swift
/// var run = NormalizedRun(options: DiffOptions())
/// for record in records { run.append(record, line: record.seq + 1) }
/// run.count          // events compared
/// run.seqs[0]        // seq of the first of them
/// ```
public struct NormalizedRun: Sendable {
  /// A `move` of the run, kept whether or not moves are compared, so that a
  /// divergence can name the move it happened in.
  public struct MoveMark: Sendable, Hashable {
    public var seq: Int
    public var line: Int
    /// The move's token in ``NormalizedRun/vocabulary``.
    public var token: Int32
  }

  /// The types compared and how controllers are named (a run's `.auto` is
  /// settled when it is compared: ``unified(with:)``).
  public private(set) var options: DiffOptions
  /// The tables the tokens index.
  public private(set) var vocabulary = DiffVocabulary()
  /// The compared events, in journal order.
  public private(set) var tokens: [Int32] = []
  /// `seqs[i]` is the `seq` of `tokens[i]`.
  public private(set) var seqs: [Int] = []
  /// `lines[i]` is the 1-based journal line of `tokens[i]`.
  public private(set) var lines: [Int] = []
  /// Every `move` of the run, in order.
  public private(set) var moves: [MoveMark] = []
  /// Records appended, compared or not.
  public private(set) var recordCount = 0
  /// What the allocated ids look like (counted when matching ``DiffOptions/Matching/auto``).
  public private(set) var idCensus = ControllerIDCensus()

  private var names: [ControllerID: Int32] = [:]
  /// The last controllers looked up, most events name one of them.
  private var recent = RecentIDs()
  private var classCounts: [String: Int] = [:]
  /// Matching `.auto`: per controller index, the id it stands for (what it
  /// becomes when the comparison settles on matching by id).
  private var idNames: [DiffVocabulary.Name] = []
  private let mask: UInt16
  private let otherTypes: Set<String>

  /// An empty run that will compare the types of `options`.
  public init(options: DiffOptions) {
    self.options = options
    var mask: UInt16 = 0
    for kind in Event.Kind.allCases where options.types.contains(kind.rawValue) { mask |= 1 << UInt16(kind.index) }
    self.mask = mask
    otherTypes = options.types.subtracting(Event.knownTypeNames)
  }

  /// A run of in-memory records; line numbers are taken to be `seq + 1`.
  public init(records: some Sequence<Record>, options: DiffOptions) {
    self.init(options: options)
    // A seq of Int.max is a valid line of a journal: its line is clamped, not overflowed.
    for record in records { append(record, line: record.seq == .max ? .max : record.seq + 1) }
  }

  /// The number of compared events.
  public var count: Int { tokens.count }

  /// The compared event at position `i`.
  public func event(at i: Int) -> NormalizedEvent { vocabulary[tokens[i]] }

  // MARK: Building

  /// Whether events of this type are compared (a bit of the mask, at the kind's index).
  @inline(__always)
  private func wants(_ kind: Event.Kind) -> Bool { mask & (1 << UInt16(kind.index)) != 0 }

  /// Adds one record of the journal (records must come in journal order).
  ///
  /// - Parameters:
  ///   - record: the decoded record.
  ///   - line: its 1-based line number in the journal.
  public mutating func append(_ record: Record, line: Int) {
    recordCount += 1
    switch record.event {
    case .session:
      return
    case .alloc(let id, let className):
      let c = allocate(id, className: className)
      if wants(.alloc) { emit(.alloc(controller: c, className: className), record, line) }
    case .root(let id):
      if wants(.root) { emit(.root(controller: controller(id)), record, line) }
    case .link(let from, let direction, let to):
      if wants(.link) { emit(.link(from: controller(from), direction: direction, to: controller(to)), record, line) }
    case .unlink(let from, let direction):
      if wants(.unlink) { emit(.unlink(from: controller(from), direction: direction), record, line) }
    case .modal(let modal, let presenter):
      if wants(.modal) { emit(.modal(controller: controller(modal), presenter: controller(presenter)), record, line) }
    case .touches(let id, let direction, let min):
      if wants(.touches) { emit(.touches(controller: controller(id), direction: direction, min: min), record, line) }
    case .pan(let p):
      if wants(.pan) {
        let event = NormalizedEvent.pan(
          controller: controller(p.controller), direction: p.direction, touches: p.touches, distance: p.distance,
          velocity: p.velocity, outcome: p.outcome)
        emit(event, record, line)
      }
    case .move(let m):
      let event = NormalizedEvent.move(
        from: controller(m.from), to: controller(m.to), direction: m.direction, trigger: m.trigger,
        animated: m.animated)
      let token = vocabulary.token(for: event)
      moves.append(MoveMark(seq: record.seq, line: line, token: token))
      if wants(.move) { emit(token, record, line) }
    case .lifecycle(let id, let callback):
      if wants(.lifecycle) {
        let c = controller(id)
        emit(vocabulary.lifecycleToken(c, callback), record, line)
      }
    case .dealloc(let id):
      if wants(.dealloc) { emit(.dealloc(controller: controller(id)), record, line) }
    case .mark(let label, let fields):
      if wants(.mark) { emit(.mark(label: label, fields: fields), record, line) }
    case .unknown(let type, _):
      if otherTypes.contains(type) { emit(.other(type: type, fields: record.extra), record, line) }
    }
  }

  @inline(__always)
  private mutating func emit(_ event: NormalizedEvent, _ record: Record, _ line: Int) {
    emit(vocabulary.token(for: event), record, line)
  }

  @inline(__always)
  private mutating func emit(_ token: Int32, _ record: Record, _ line: Int) {
    tokens.append(token)
    seqs.append(record.seq)
    lines.append(line)
  }

  /// The index of a controller named by an event: its name from its `alloc`,
  /// or its id when it was never allocated.
  @inline(__always)
  private mutating func controller(_ id: ControllerID) -> Int32 {
    if let c = recent.find(id) { return c }
    return lookUp(id)
  }

  /// Implementation note: matching by id, the vocabulary's own table of
  /// names is the table of ids, so only class matching keeps `names`.
  @inline(never)
  private mutating func lookUp(_ id: ControllerID) -> Int32 {
    let c: Int32
    if options.matching == .id {
      c = vocabulary.controller(named: .id(id.rawValue))
    } else if let known = names[id] {
      c = known
    } else {
      c = vocabulary.controller(named: .id(id.rawValue))
      names[id] = c
      if options.matching == .auto && Int(c) == idNames.count { idNames.append(.id(id.rawValue)) }
    }
    recent.insert(id, c)
    return c
  }

  private mutating func allocate(_ id: ControllerID, className: String) -> Int32 {
    let name: DiffVocabulary.Name
    switch options.matching {
    case .id:
      name = .id(id.rawValue)
    case .className, .auto:
      let n = classCounts[className, default: 0] + 1
      classCounts[className] = n
      name = .instance(n, of: className)
    }
    let c = vocabulary.controller(named: name)
    if options.matching != .id { names[id] = c }
    if options.matching == .auto {
      idCensus.count(id.rawValue)
      if Int(c) == idNames.count { idNames.append(.id(id.rawValue)) }
    }
    recent = RecentIDs()  // an id allocated again must not find its old index
    recent.insert(id, c)
    return c
  }

  // MARK: Comparing

  /// This run and `other`, both expressed in one vocabulary (this run's,
  /// extended with `other`'s events), ready to align. Matching `.auto`, both
  /// are first settled on the matching the two runs' ids call for
  /// (``MatchingDecision``): their ``options`` then say which.
  ///
  /// - Precondition: both runs were normalised with the same matching.
  /// - Complexity: O(`other.count` + distinct events), and O(`count`) more
  ///   when `.auto` settles on matching by id.
  public func unified(with other: NormalizedRun) -> (NormalizedRun, NormalizedRun) {
    precondition(options.matching == other.options.matching, "both runs must be normalised with the same matching")
    let used = MatchingDecision(requested: options.matching, a: idCensus, b: other.idCensus).used
    var a = settled(on: used)
    let other = other.settled(on: used)
    var b = other
    let map = a.vocabulary.absorb(other.vocabulary)
    b.vocabulary = a.vocabulary
    b.tokens = other.tokens.map { map[Int($0)] }
    b.moves = other.moves.map { MoveMark(seq: $0.seq, line: $0.line, token: map[Int($0.token)]) }
    b.names = [:]
    a.names = [:]
    a.recent = RecentIDs()
    b.recent = RecentIDs()
    return (a, b)
  }

  /// The run normalised with `.auto`, as if it had been with `matching`
  /// (`.id` or `.className`); any other run as it is.
  ///
  /// Matching by class names a controller by its label, and by id by its
  /// id: each label stands for one id (``idNames``), so the events are
  /// renamed, and those that name different instances of one id become one.
  func settled(on matching: DiffOptions.Matching) -> NormalizedRun {
    guard options.matching == .auto, matching != .auto else { return self }
    var run = self
    run.options.matching = matching
    run.idNames = []
    guard matching == .id else { return run }
    var vocabulary = DiffVocabulary()
    let map = vocabulary.absorb(self.vocabulary, renaming: idNames)
    run.vocabulary = vocabulary
    run.tokens = tokens.map { map[Int($0)] }
    run.moves = moves.map { MoveMark(seq: $0.seq, line: $0.line, token: map[Int($0.token)]) }
    run.names = [:]
    run.recent = RecentIDs()
    return run
  }

  /// The latest move at or before `seq`, if any.
  public func move(atOrBefore seq: Int) -> MoveMark? {
    var lo = 0
    var hi = moves.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if moves[mid].seq <= seq { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? nil : moves[lo - 1]
  }
}
