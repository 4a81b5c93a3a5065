import Journal

/// Records a random but valid session through the reference ``Navigator``.
///
/// The map: the controllers of ``Simulation/controllers`` are placed on a grid,
/// each linked to a neighbour cell already placed (a spanning tree: the map is
/// connected), plus some links between other adjacent cells (cycles), and
/// snapping thresholds on some controllers. Then a random mix of pans (every outcome: committed as pan or fling, snapBack,
/// blocked, refused, cancelled), programmatic moves (animated or not), modals
/// (and their cleanup when their presenter reappears), touches minimums,
/// goToRoot, waits, marks, links added and removed, and leaf controllers
/// deallocated and replaced by new ones.
///
/// Every choice comes from a SplitMix64 generator seeded with
/// ``Simulation/seed``: the same options always give byte-identical journals.
/// The journal has exactly ``Simulation/events`` lines: each command is chosen
/// only when the most events it can write still fit, and the last few events
/// are single-event commands (cancelled pans, marks) when nothing bigger fits.
/// Under `intended`, every command completes its transitions, so the journal
/// is at rest at its end and `check` finds nothing in it.
///
/// ```swift
/// var bytes: [UInt8] = []
/// try Simulator.run(Simulation(events: 1000, seed: 7)) { chunk in bytes += chunk }
/// ```
public enum Simulator {
  /// Runs a simulation and hands its journal to `sink` in chunks of about `chunkSize` bytes,
  /// each a whole number of lines.
  ///
  /// - Parameters:
  ///   - simulation: what to simulate.
  ///   - chunkSize: bytes buffered before each call of `sink`.
  ///   - sink: receives the journal's bytes, in order.
  /// - Throws: what `sink` throws.
  /// - Complexity: O(events) time; memory grows with the controllers
  ///   allocated (the model keeps them all), not with the events, since the
  ///   records are taken from the navigator as they are written.
  public static func run<Failure: Error>(
    _ simulation: Simulation, chunkSize: Int = 1 << 18, sink: ([UInt8]) throws(Failure) -> Void
  ) throws(Failure) {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(chunkSize + 4096)
    var encoder = RecordEncoder()
    try records(simulation) { (batch) throws(Failure) in
      for record in batch {
        encoder.encode(record, into: &buffer)
        buffer.append(0x0A)
        if buffer.count >= chunkSize {
          try sink(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
    }
    if !buffer.isEmpty { try sink(buffer) }
  }

  /// Runs a simulation and hands its records to `sink` in batches of about `batchSize`,
  /// in order: the caller encodes them (`export`-style pipelines encode on another thread).
  ///
  /// - Throws: what `sink` throws; the simulation stops there.
  public static func records<Failure: Error>(
    _ simulation: Simulation, batchSize: Int = 4096, _ sink: ([Record]) throws(Failure) -> Void
  ) throws(Failure) {
    var run = SimulationRun(simulation)
    while run.step() {
      run.countNew()
      if run.nav.records.count >= batchSize { try sink(run.takeRecords()) }
    }
    let last = run.takeRecords()
    if !last.isEmpty { try sink(last) }
  }

  /// The whole journal of a simulation in memory.
  public static func journal(_ simulation: Simulation) -> [UInt8] {
    var bytes: [UInt8] = []
    run(simulation) { bytes += $0 }
    return bytes
  }
}

/// The state of one simulation: the navigator, the generator and the map's layout.
struct SimulationRun {
  /// A cell of the grid.
  struct Cell: Hashable {
    var x: Int
    var y: Int
    func step(_ direction: Direction) -> Cell {
      let (dx, dy) = direction.offset
      return Cell(x: x + dx, y: y + dy)
    }
  }

  let target: Int
  let profile: Profile
  let shape: Simulation.Shape
  /// The clock at which the session ends, when it has a length in time.
  let end: Timestamp?
  var nav: Navigator
  var random: SplitMix64

  /// Regular (non-modal) controllers on the grid, alive.
  var cells: [Cell: ControllerID] = [:]
  var positions: [ControllerID: Cell] = [:]
  /// Each placed controller's tree parent and the direction from the parent to it.
  var parents: [ControllerID: (parent: ControllerID, direction: Direction)] = [:]
  var children: [ControllerID: Int] = [:]
  /// Regular controllers in placement order (for uniform picks).
  var regular: [ControllerID] = []
  /// Controllers that may have a free cell beside them, once the map is large (``frontierCell()``).
  var frontier: [ControllerID] = []
  /// The pairs of neighbouring cells ``toggleLink()`` picks from, in its order, while no controller
  /// is placed or unplaced (nil: to be listed again).
  ///
  /// Implementation note: listed at every call, they would be most of `simulate --shape churn`'s
  /// work (200 screens hashed three times a call); kept, the same picks come out.
  var linkCandidates: [(ControllerID, Direction, ControllerID)]?
  var aliveModals = 0
  var aliveControllers = 0
  /// The navigator's records already counted by ``countNew()``.
  var counted = 0
  var nextID = 0
  var nextModal = 0
  /// The next instance number of each class (``Simulation/Shape/instanceIDs``).
  var instances: [String: Int] = [:]
  var marks = 0
  /// Setup steps still to do: controllers to allocate, then the root, then the links.
  var setup: [SetupStep] = []
  var setupIndex = 0

  enum SetupStep {
    case allocate(ControllerID, String)
    case root(ControllerID)
    case link(ControllerID, Direction, ControllerID)
    /// A snapping threshold (not journaled).
    case threshold(ControllerID, Double)
  }

  static let classes = [
    "HomeViewController", "NotesViewController", "SettingsViewController", "ProfileViewController",
    "InboxViewController", "SearchViewController", "DetailViewController", "MapViewController",
  ]

  /// The classes of modal presentations under ``Simulation/Shape/instanceIDs``.
  static let modalClasses = [
    "ComposeViewController", "ShareSheetController", "AlertController", "PickerViewController",
    "ImagePickerController", "ActivityViewController", "ConfirmationViewController", "LoginSheetController",
  ]

  /// Names of screens under ``Simulation/Shape/classPerScreen``: a noun and a
  /// qualifier, then a number once every pair is taken.
  static let screenNouns = [
    "Home", "Feed", "Inbox", "Search", "Profile", "Settings", "Notes", "Detail", "Map", "Chat", "Thread",
    "Photos", "Album", "Camera", "Player", "Library", "Cart", "Checkout", "Orders", "Wallet", "Account", "Help",
    "About", "Friends", "Groups", "Events", "Calendar", "Tasks", "Files", "Reader", "Stats", "Alerts", "Billing",
    "Privacy", "Security", "Language", "Theme", "Storage", "Backup", "Contacts",
  ]
  static let screenQualifiers = ["", "List", "Edit", "Filter", "Summary"]

  static func screenClass(_ n: Int) -> String {
    let pairs = screenNouns.count * screenQualifiers.count
    let noun = screenNouns[n % screenNouns.count]
    let qualifier = screenQualifiers[(n / screenNouns.count) % screenQualifiers.count]
    let round = n / pairs
    return noun + qualifier + (round == 0 ? "" : "\(round + 1)") + "ViewController"
  }

  init(_ simulation: Simulation) {
    target = max(1, simulation.events)
    profile = simulation.profile
    shape = simulation.shape
    end = simulation.milliseconds.map { simulation.start.adding(milliseconds: $0) }
    nav = Navigator(profile: simulation.profile, header: simulation.header, start: simulation.start)
    random = SplitMix64(seed: simulation.seed)
    planMap(controllers: max(1, simulation.controllers))
  }

  /// Lays the initial map out on the grid and queues its setup commands.
  mutating func planMap(controllers count: Int) {
    var ids: [ControllerID] = []
    for n in 0..<count {
      let className = shape.classPerScreen ? Self.screenClass(n) : randomClass()
      let id = newID(className)
      ids.append(id)
      setup.append(.allocate(id, className))
    }
    setup.append(.root(ids[0]))
    for id in ids where random.chance(30) { setup.append(.threshold(id, 20 + random.steps(upTo: 80, step: 5))) }
    place(ids[0], at: Cell(x: 0, y: 0), parent: nil)
    for id in ids.dropFirst() {
      let (parent, direction, cell) = freeNeighbourCell()
      place(id, at: cell, parent: (parent, direction))
      setup.append(.link(parent, direction, id))
    }
    // Cycles: about a third of the other adjacent pairs are linked too.
    for id in ids {
      guard let cell = positions[id] else { continue }
      for direction in [Direction.right, .down] {
        guard let other = cells[cell.step(direction)], !isTreeEdge(id, other), random.chance(35) else { continue }
        setup.append(.link(id, direction, other))
      }
    }
  }

  // MARK: Stepping

  /// Runs one command (or one setup step); false once the journal has its events.
  mutating func step() -> Bool {
    let remaining = target - nav.recordCount
    guard remaining > 0 else { return false }
    if let end, nav.clock >= end { return false }
    if setupIndex < setup.count {
      let step = setup[setupIndex]
      let bound: Int
      switch step {
      case .allocate: bound = 1
      case .root: bound = 4
      case .link: bound = 3
      case .threshold: bound = 0
      }
      guard bound <= remaining else {
        filler()
        return true
      }
      setupIndex += 1
      switch step {
      case .allocate(let id, let className): try? nav.controller(id, className: className)
      case .root(let id): try? nav.root(id)
      case .link(let a, let direction, let b): try? nav.link(a, direction, b)
      case .threshold(let id, let points): try? nav.threshold(id, points)
      }
      return true
    }
    command(remaining: remaining)
    return true
  }

  /// One random command whose events fit in `remaining`, else a single-event one.
  mutating func command(remaining: Int) {
    let cleanup = 6 * aliveModals
    let move = 5 + cleanup
    // Implementation note: modals and replaced leaves allocate controllers, which the model
    // keeps for the whole session; they are rare enough that a journal of millions of events
    // stays within tens of thousands of controllers.
    // The commands' weights: 98 for all but modals and replaced leaves, whose
    // weights come from the shape (1 each in the simple shape: a roll below 100,
    // the ranges `simulate` has always used).
    let modals = 70 + shape.modalPercent
    let replaces = 98 + shape.modalPercent + shape.replacePercent
    let roll = random.below(replaces)
    switch roll {
    case 0..<53:
      guard 1 + move <= remaining else { return filler() }
      pan()
    case 53..<70:
      guard move <= remaining else { return filler() }
      try? nav.move(linkedDirection(), animated: random.chance(80))
    case 70..<modals:
      guard 9 + cleanup <= remaining else { return filler() }
      presentModal()
      // Nested modals: the new one presents another at once, while the budget holds.
      var depth = 1
      while shape.nestedPercent > 0, depth < 4, 9 + 6 * (aliveModals + depth) <= target - nav.recordCount,
        random.chance(shape.nestedPercent), presentModal()
      {
        depth += 1
      }
    case modals..<(modals + 4):
      guard 10 * aliveControllers + cleanup <= remaining else { return filler() }
      try? nav.goToRoot(animated: random.chance(75))
    case (modals + 4)..<(modals + 9):
      guard let id = randomRegular() else { return filler() }
      try? nav.touches(id, randomDirection(), random.chance(60) ? 1 : 2)
    case (modals + 9)..<(modals + 20):
      try? nav.wait(milliseconds: Int64(random.below(3000)))
    case (modals + 20)..<(modals + 23):
      mark()
    case (modals + 23)..<(modals + 28):
      guard 3 <= remaining else { return filler() }
      toggleLink()
    default:
      guard 9 <= remaining else { return filler() }
      replaceLeaf()
    }
  }

  /// Exactly one event: a pan that cannot commit (refused, blocked or cancelled), or a mark before any root.
  mutating func filler() {
    guard nav.state.focus != nil, random.chance(85) else { return mark() }
    try? nav.pan(
      randomDirection(), distance: random.steps(upTo: 150, step: 0.5), velocity: random.steps(upTo: 900, step: 10),
      touches: random.chance(85) ? 1 : 2, cancelled: true)
  }

  mutating func mark() {
    marks += 1
    try? nav.mark("step \(marks)", random.chance(30) ? [(key: "note", value: "n\(random.below(100))")] : [])
  }

  mutating func pan() {
    let fast = random.chance(25)
    let velocity = fast ? 600 + random.steps(upTo: 600, step: 10) : random.steps(upTo: 600, step: 10)
    try? nav.pan(
      randomDirection(), distance: random.steps(upTo: 150, step: 0.5), velocity: velocity,
      touches: random.chance(85) ? 1 : 2, cancelled: random.chance(4))
  }

  /// A modal from the focus into one of its free slots (nothing when all four are
  /// taken): a new controller every time. Returns whether it was presented.
  @discardableResult
  mutating func presentModal() -> Bool {
    guard let focus = nav.state.focus, let links = nav.state.links(of: focus) else { return false }
    let free = Direction.slotOrder.filter { links[$0] == nil }
    guard !free.isEmpty else { return false }
    let id: ControllerID
    let className: String
    if shape.instanceIDs {
      className = Self.modalClasses[random.below(Self.modalClasses.count)]
      id = newID(className)
    } else {
      nextModal += 1
      id = ControllerID("m\(nextModal)")
      className = "ModalViewController"
    }
    return (try? nav.modal(id, className: className, free[random.below(free.count)], animated: random.chance(80)))
      != nil
  }

  /// Links two adjacent controllers whose facing slots are free, or unlinks a link that is not in the tree.
  mutating func toggleLink() {
    let candidates = linkCandidates ?? listLinkCandidates()
    linkCandidates = candidates
    guard !candidates.isEmpty else { return }
    let (a, direction, b) = candidates[random.below(candidates.count)]
    if nav.state.neighbour(of: a, direction) == b {
      try? nav.unlink(a, direction)
    } else if nav.state.neighbour(of: a, direction) == nil && nav.state.neighbour(of: b, direction.opposite) == nil {
      try? nav.link(a, direction, b)
    }
  }

  /// Every regular controller's right and down neighbours on the grid that are not its tree edges.
  func listLinkCandidates() -> [(ControllerID, Direction, ControllerID)] {
    var candidates: [(ControllerID, Direction, ControllerID)] = []
    for a in regular {
      guard let cell = positions[a] else { continue }
      for direction in [Direction.right, .down] {
        if let b = cells[cell.step(direction)], !isTreeEdge(a, b) { candidates.append((a, direction, b)) }
      }
    }
    return candidates
  }

  /// Deallocates a leaf of the tree that may go, then allocates a new controller in its cell.
  mutating func replaceLeaf() {
    guard let x = randomRegular(), children[x, default: 0] == 0, let (parent, direction) = parents[x],
      x != nav.state.root, x != nav.state.focus, !nav.state.isInFlight(x),
      nav.state.modals(presentedBy: x).isEmpty, let cell = positions[x]
    else { return }
    let oldClass = nav.state[controller: x]?.className
    guard (try? nav.dealloc(x)) != nil else { return }
    unplace(x)
    // A real app's screen comes back as a new instance of its class.
    let className = shape.classPerScreen ? oldClass ?? randomClass() : randomClass()
    let id = newID(className)
    guard (try? nav.controller(id, className: className)) != nil else { return }
    place(id, at: cell, parent: (parent, direction))
    try? nav.link(parent, direction, id)
  }

  // MARK: Output

  /// Updates the counts kept from the records written since the last call.
  mutating func countNew() {
    for record in nav.records[counted...] {
      switch record.event {
      case .alloc: aliveControllers += 1
      case .modal: aliveModals += 1
      case .dealloc(let id):
        aliveControllers -= 1
        if nav.state[controller: id]?.isModal == true { aliveModals -= 1 }
      case .session, .root, .link, .unlink, .touches, .pan, .move, .lifecycle, .mark, .unknown: break
      }
    }
    counted = nav.records.count
  }

  /// The navigator's records, counted, taken out of it as they are (a batch
  /// for the encoder: no record is copied).
  mutating func takeRecords() -> [Record] {
    countNew()
    counted = 0
    return nav.takeRecords()
  }

  // MARK: Layout

  /// A new controller's id: `cN` in the simple shape, else `Class#n` numbered per class.
  mutating func newID(_ className: String) -> ControllerID {
    guard shape.instanceIDs else {
      defer { nextID += 1 }
      return ControllerID("c\(nextID)")
    }
    let n = instances[className, default: 0] + 1
    instances[className] = n
    return ControllerID("\(className)#\(n)")
  }

  mutating func randomClass() -> String { Self.classes[random.below(Self.classes.count)] }

  mutating func randomDirection() -> Direction { Direction.slotOrder[random.below(4)] }

  /// Mostly a direction in which the focus has a neighbour (a move that way is not blocked).
  mutating func linkedDirection() -> Direction {
    guard random.chance(90), let focus = nav.state.focus, let links = nav.state.links(of: focus) else {
      return randomDirection()
    }
    let linked = Direction.slotOrder.filter { links[$0] != nil }
    return linked.isEmpty ? randomDirection() : linked[random.below(linked.count)]
  }

  mutating func randomRegular() -> ControllerID? {
    regular.isEmpty ? nil : regular[random.below(regular.count)]
  }

  /// A free cell next to a placed controller, with that controller and the direction to the cell.
  mutating func freeNeighbourCell() -> (ControllerID, Direction, Cell) {
    if regular.count >= Self.frontierFrom { return frontierCell() }
    while true {
      let parent = regular[random.below(regular.count)]
      let direction = randomDirection()
      let cell = positions[parent]!.step(direction)
      if cells[cell] == nil { return (parent, direction, cell) }
    }
  }

  /// Placed controllers past which ``freeNeighbourCell()`` picks from the ``frontier``.
  ///
  /// Implementation note: a random controller and direction, tried until the cell is free,
  /// fail more often the larger the map (only its rim has free cells), so a large map would
  /// take a time that grows faster than its size. The frontier makes each placement cost O(1) amortised;
  /// maps smaller than this are laid out as before, with the same picks.
  static let frontierFrom = 4096

  /// A free cell next to a random controller of the frontier (those that may still have one).
  mutating func frontierCell() -> (ControllerID, Direction, Cell) {
    if frontier.isEmpty { frontier = regular }
    while true {
      let i = random.below(frontier.count)
      let parent = frontier[i]
      if let cell = positions[parent] {
        let free = Direction.slotOrder.filter { cells[cell.step($0)] == nil }
        if !free.isEmpty {
          let direction = free[random.below(free.count)]
          return (parent, direction, cell.step(direction))
        }
      }
      // No free cell around it (or no longer placed): it leaves the frontier for good.
      frontier.swapAt(i, frontier.count - 1)
      frontier.removeLast()
    }
  }

  mutating func place(_ id: ControllerID, at cell: Cell, parent: (ControllerID, Direction)?) {
    linkCandidates = nil
    cells[cell] = id
    positions[id] = cell
    regular.append(id)
    if !frontier.isEmpty { frontier.append(id) }
    if let parent {
      parents[id] = (parent.0, parent.1)
      children[parent.0, default: 0] += 1
    }
  }

  mutating func unplace(_ id: ControllerID) {
    guard let cell = positions.removeValue(forKey: id) else { return }
    linkCandidates = nil
    cells[cell] = nil
    if let i = regular.firstIndex(of: id) { regular.remove(at: i) }
    if let parent = parents.removeValue(forKey: id) { children[parent.parent, default: 1] -= 1 }
  }

  func isTreeEdge(_ a: ControllerID, _ b: ControllerID) -> Bool {
    parents[a]?.parent == b || parents[b]?.parent == a
  }
}
