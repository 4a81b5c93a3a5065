import Journal
import Projection

/// A session recorded from the reference navigator (the model): a square grid
/// of controllers, each linked right and down to its neighbours, then a seeded
/// random walk of navigator commands, cut at exactly the number of records asked.
///
/// The same parameters and seed give the same records on every machine and in
/// every build, so figures measured on them stay comparable from run to run.
/// `benchGrid(profile:)` is the session check-bench and timeline-bench time;
/// step-bench describes its own.
public struct GridSession: Sendable {
  /// How the walk after the grid chooses its commands. Each walk draws its
  /// numbers in its own way: changing one changes every journal made with it.
  public enum Walk: Sendable {
    /// In a hundred draws (`next() % n`): 45 pans of one or two fingers, 10
    /// flings, 30 moves (a quarter of them not animated), 7 attempts to present
    /// a modal where the focus has no neighbour and is no modal itself, left
    /// again at once, 2 goToRoot, 2 waits of up to a second, 4 marks.
    case roundTrips
    /// In a hundred draws (`Int.random(in:using:)`, over `Direction.slotOrder`):
    /// 45 pans with a velocity, 35 moves, 6 attempts to present a modal (a
    /// sheet) where the focus has no neighbour, which stays, 2 goToRoot, 7 waits
    /// of up to two seconds, 5 marks.
    case sheets
  }

  /// The navigator's profile: the behaviour the records show.
  public var profile: Profile
  /// The journal's first record.
  public var header: SessionHeader
  /// Controllers per row and per column.
  public var side: Int
  /// The ids are this prefix, then `x-y` (`g3-7`).
  public var idPrefix: String
  /// The class of the controllers of column `x` is `classNames[x % classNames.count]`.
  public var classNames: [String]
  /// How many two-finger edges to the right are set before the walk: the
  /// `k`-th on the controller at `x = k % side`, `y = 7k % side`.
  public var twoFingerEdges: Int
  /// The random walk.
  public var walk: Walk

  /// A session with these parameters; `classNames` must not be empty.
  public init(
    profile: Profile, header: SessionHeader, side: Int, idPrefix: String, classNames: [String],
    twoFingerEdges: Int, walk: Walk
  ) {
    self.profile = profile
    self.header = header
    self.side = side
    self.idPrefix = idPrefix
    self.classNames = classNames
    self.twoFingerEdges = twoFingerEdges
    self.walk = walk
  }

  /// check-bench's and timeline-bench's session: a 32 × 32 grid of
  /// `GridViewController`s `g0-0` to `g31-31`, 64 two-finger edges, round trips.
  public static func benchGrid(profile: Profile) -> GridSession {
    GridSession(
      profile: profile, header: SessionHeader(session: "BENCH", app: "Bench", profile: profile.rawValue), side: 32,
      idPrefix: "g", classNames: ["GridViewController"], twoFingerEdges: 64, walk: .roundTrips)
  }

  /// Exactly `events` records: the grid, then the walk from `seed`. Throws the
  /// navigator's error if it refuses a command (it should not).
  public func records(events: Int, seed: UInt64) throws(NavigatorError) -> [Record] {
    var nav = Navigator(profile: profile, header: header)
    func id(_ x: Int, _ y: Int) -> ControllerID { ControllerID("\(idPrefix)\(x)-\(y)") }
    for y in 0..<side {
      for x in 0..<side { try nav.controller(id(x, y), className: classNames[x % classNames.count]) }
    }
    try nav.root(id(0, 0))
    for y in 0..<side {
      for x in 0..<side {
        if x + 1 < side { try nav.link(id(x, y), .right, id(x + 1, y)) }
        if y + 1 < side { try nav.link(id(x, y), .down, id(x, y + 1)) }
      }
    }
    for k in 0..<twoFingerEdges { try nav.touches(id(k % side, (k * 7) % side), .right, 2) }
    var walker = Walker(nav: nav, random: SplitMix64(seed: seed))
    while walker.nav.records.count < events {
      switch walk {
      case .roundTrips: try walker.roundTrip()
      case .sheets: try walker.sheet()
      }
    }
    return Array(walker.nav.records.prefix(events))
  }
}

/// A walk under way: the navigator, the numbers and the modals presented so far.
private struct Walker {
  var nav: Navigator
  var random: SplitMix64
  var modals = 0

  /// One command of the `roundTrips` walk.
  mutating func roundTrip() throws(NavigatorError) {
    let direction = Direction.allCases[Int(random.next() % 4)]
    switch random.next() % 100 {
    case 0..<45: try nav.pan(direction, distance: Double(random.next() % 200), touches: 1 + Int(random.next() % 2))
    case 45..<55: try nav.pan(direction, distance: 10, velocity: 900)
    case 55..<85: try nav.move(direction, animated: random.next() % 4 != 0)
    case 85..<92:
      let focus = nav.state.focus!
      if nav.state.neighbour(of: focus, direction) == nil, !(nav.state[controller: focus]?.isModal ?? true) {
        modals += 1
        try nav.modal(ControllerID("modal\(modals)"), className: "ModalViewController", direction)
        try nav.move(direction.opposite)
      }
    case 92..<94: try nav.goToRoot(animated: random.next() % 2 == 0)
    case 94..<96: try nav.wait(milliseconds: Int64(random.next() % 1000))
    default: try nav.mark("step", [(key: "n", value: String(nav.records.count))])
    }
  }

  /// One command of the `sheets` walk.
  mutating func sheet() throws(NavigatorError) {
    let d = Direction.slotOrder[Int.random(in: 0..<4, using: &random)]
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<45:
      try nav.pan(
        d, distance: Double(Int.random(in: 0...200, using: &random)),
        velocity: Double(Int.random(in: 0...900, using: &random)))
    case 45..<80:
      try nav.move(d, animated: Int.random(in: 0..<4, using: &random) != 0)
    case 80..<86:
      let focus = nav.state.focus!
      if nav.state.neighbour(of: focus, d) == nil {
        modals += 1
        try nav.modal(ControllerID("m\(modals)"), className: "SheetViewController", d)
      }
    case 86..<88:
      try nav.goToRoot()
    case 88..<95:
      try nav.wait(milliseconds: Int64(Int.random(in: 1...2000, using: &random)))
    default:
      try nav.mark("step", [("n", String(nav.records.count))])
    }
  }
}
