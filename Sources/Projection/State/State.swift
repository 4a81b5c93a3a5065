import Journal

/// The state of a spatial map after some prefix of a journal: the header, every
/// controller ever allocated (in allocation order), the symmetric link graph,
/// root, focus, the transition in flight and running counters.
///
/// A `State` is a value: copying it is cheap (snapshots of a timeline keep one
/// every few hundred events) and it only ever changes through
/// ``reduce(into:_:)``, the model's fold.
///
/// ```swift
/// var state = State()
/// for record in records {
///   let anomalies = reduce(into: &state, record)
///   for a in anomalies { print(record.seq, a) }
/// }
/// state.focus                         // "notes"
/// state.links(of: "home")?.left       // "notes"
/// state[controller: "notes"]?.phase   // .appeared
/// ```
public struct State: Sendable, Hashable {
  /// The session header (`seq` 0), once folded.
  public internal(set) var header: SessionHeader?
  /// The transition most recently started (initial display or move), complete or not.
  /// See ``transitionInFlight``.
  public internal(set) var transition: Transition?
  /// `seq` of the last event folded.
  public internal(set) var lastSeq: Int?
  /// `time` of the last event folded.
  public internal(set) var lastTime: Timestamp?
  /// Running totals.
  public internal(set) var counters = Counters()

  // `@usableFromInline`: read by the inlinable position accessors (State+Positions.swift).
  @usableFromInline var store = ChunkedArray<ControllerState>()
  var index = ControllerIndex()
  @usableFromInline var rootIndex: Int32 = -1
  @usableFromInline var focusIndex: Int32 = -1
  /// The class names of the controllers, each kept once (not part of the value).
  var classNames = InternedTexts()

  /// An empty state: before any event.
  public init() {}

  // MARK: Controllers

  /// Every controller ever allocated, alive or not, in allocation order.
  public var controllers: some RandomAccessCollection<ControllerState> { store }

  /// The number of controllers ever allocated.
  public var controllerCount: Int { store.count }

  /// The controller with this id, alive or deallocated; nil if never allocated.
  public subscript(controller id: ControllerID) -> ControllerState? {
    guard let i = index[id] else { return nil }
    return store[Int(i)]
  }

  /// Whether `id` was allocated and not deallocated.
  public func isAlive(_ id: ControllerID) -> Bool {
    self[controller: id]?.isAlive ?? false
  }

  /// The ids of the controllers that are alive, in allocation order.
  public var aliveIDs: [ControllerID] {
    store.filter(\.isAlive).map(\.id)
  }

  /// The controller in `id`'s `direction` slot.
  public func neighbour(of id: ControllerID, _ direction: Direction) -> ControllerID? {
    guard let i = index[id], let n = store[Int(i)].neighbours[direction] else { return nil }
    return store[Int(n)].id
  }

  /// `id`'s four links as ids; nil if `id` was never allocated.
  public func links(of id: ControllerID) -> Links? {
    guard let i = index[id] else { return nil }
    let n = store[Int(i)].neighbours
    func name(_ v: Int32) -> ControllerID? { v < 0 ? nil : store[Int(v)].id }
    return Links(left: name(n.left), right: name(n.right), up: name(n.up), down: name(n.down))
  }

  /// The alive modals `id` presented, in presentation order.
  public func modals(presentedBy id: ControllerID) -> [ControllerID] {
    guard let i = index[id] else { return [] }
    return store[Int(i)].presented.map { store[Int($0)].id }
  }

  // MARK: Root, focus, transition

  /// The master's root controller.
  public var root: ControllerID? { rootIndex < 0 ? nil : store[Int(rootIndex)].id }

  /// The controller on screen (or appearing, during a transition): set by the first `root`, then by every `move`.
  public var focus: ControllerID? { focusIndex < 0 ? nil : store[Int(focusIndex)].id }

  /// The transition in flight: the last one started, while some of its callbacks are missing.
  public var transitionInFlight: Transition? {
    guard let transition, !transition.isComplete else { return nil }
    return transition
  }

  /// Whether `id` is one end of the transition in flight.
  public func isInFlight(_ id: ControllerID) -> Bool {
    transitionInFlight?.involves(id) ?? false
  }

  /// The number of controllers whose phase is `appeared` (1 at rest in a healthy journal).
  public var appearedCount: Int {
    store.reduce(0) { $0 + ($1.isAlive && $1.phase == .appeared ? 1 : 0) }
  }
}
