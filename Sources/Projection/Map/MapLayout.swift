import Journal

/// Grid positions of the controllers of a map, as the spec's "The map" says:
/// a breadth-first walk from the root over links, neighbours visited in the
/// order up, left, down, right, the first path that reaches a controller
/// placing it one grid step from the controller it was reached from (x grows
/// right, y grows down).
///
/// Two controllers on one cell, and links whose two ends are not one grid step
/// apart, are ``Collision``s: collected, never fatal. Alive controllers the
/// walk does not reach are ``detached``. Deallocated controllers are gone.
///
/// ```swift
/// let layout = MapLayout(state: state)
/// layout.position(of: "notes")   // Position(x: -1, y: 0)
/// layout.collisions              // []
/// var text = ""
/// MapRenderer().render(layout, to: &text)
/// ```
///
/// - Complexity: O(n) time and memory in the number of controllers ever
///   allocated (hashing each alive id once and each link once); cycles and
///   controllers reachable by several paths are visited once.
public struct MapLayout: Sendable, Hashable {
  /// A cell of the grid; the root is at (0, 0).
  public struct Position: Sendable, Hashable, Comparable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
      self.x = x
      self.y = y
    }

    /// The cell one step away in `direction`.
    public func moved(_ direction: Direction) -> Position {
      let offset = direction.offset
      return Position(x: x + offset.dx, y: y + offset.dy)
    }

    /// Row-major order: top to bottom, then left to right.
    public static func < (a: Position, b: Position) -> Bool { (a.y, a.x) < (b.y, b.x) }
  }

  /// A controller the walk placed.
  public struct Placement: Sendable, Hashable {
    public var id: ControllerID
    public var position: Position
    /// Whether it is a modal (drawn with a `*`).
    public var isModal: Bool
  }

  /// Something that does not fit on a grid: drawn and reported, never fatal.
  public enum Collision: Sendable, Hashable {
    /// Two or more controllers placed on one cell, in the order the walk placed them.
    case sharedCell(Position, [ControllerID])
    /// A link whose two ends are not one grid step apart in its direction
    /// (reported once per link, from the end whose slot is `right` or `down`).
    case stretchedLink(
      from: ControllerID, direction: Direction, to: ControllerID, fromPosition: Position, toPosition: Position)
  }

  /// The root the walk started from (nil when there is none, or it is deallocated).
  public let root: ControllerID?
  /// The focus of the state laid out.
  public let focus: ControllerID?
  /// Every placed controller, in the order the walk placed them (the root first).
  public let placements: [Placement]
  /// Shared cells (in the order they were found), then stretched links (in walk order).
  public let collisions: [Collision]
  /// Alive controllers the walk did not reach, in allocation order.
  public let detached: [ControllerID]
  /// The smallest and largest coordinates used, nil for an empty map.
  public let bounds: (min: Position, max: Position)?

  /// Neighbours as placement indices, 4 per placement in slot order (left, right, up, down); -1 for none.
  public let links: [Int32]
  /// Bit `d.index` set when the link that way needs 2 or more fingers on either side.
  public let doubleLinks: [UInt8]
  /// Placement index of the focus, -1 when it is not placed.
  public let focusPlacement: Int32

  /// Lays out the alive controllers of `state`.
  public init(state: State) {
    let count = state.controllerCount
    // Implementation note: an id names one allocation position for good (a
    // reused id takes its old position back), so the walk follows the
    // state's neighbour positions and hashes nothing but cells: a report lays
    // out the map after every structural event of a journal.
    let store = state.store
    func isAlive(_ p: Int32) -> Bool { store[Int(p)].isAlive }

    var placementOf = [Int32](repeating: -1, count: count)
    var placements: [Placement] = []
    var order: [Int32] = []  // allocation position of each placement
    var links: [Int32] = []
    var doubleLinks: [UInt8] = []
    var cells: [Position: Int32] = [:]
    var shared: [Position: [ControllerID]] = [:]
    var sharedOrder: [Position] = []

    func place(_ p: Int32, at position: Position) {
      let id = store[Int(p)].id
      placementOf[Int(p)] = Int32(placements.count)
      placements.append(Placement(id: id, position: position, isModal: store[Int(p)].isModal))
      order.append(p)
      links.append(contentsOf: [-1, -1, -1, -1])
      doubleLinks.append(0)
      if let first = cells[position] {
        if shared[position] == nil {
          sharedOrder.append(position)
          shared[position] = [placements[Int(first)].id]
        }
        shared[position]!.append(id)
      } else {
        cells[position] = Int32(placements.count - 1)
      }
    }

    let rootPosition: Int32? = state.rootIndex >= 0 && isAlive(state.rootIndex) ? state.rootIndex : nil
    if let r = rootPosition {
      place(r, at: Position(x: 0, y: 0))
      var next = 0
      while next < placements.count {
        let u = next
        next += 1
        let from = Int(order[u])
        let neighbours = store[from].neighbours
        for direction in Direction.walkOrder {
          guard let v = neighbours[direction], isAlive(v) else { continue }
          if placementOf[Int(v)] < 0 { place(v, at: placements[u].position.moved(direction)) }
          let q = placementOf[Int(v)]
          links[u * 4 + direction.index] = q
          if Self.needsTwoFingers(store[from].minimumTouches, direction, store[Int(v)].minimumTouches) {
            doubleLinks[u] |= 1 << UInt8(direction.index)
          }
        }
      }
    }

    var collisions = sharedOrder.map { Collision.sharedCell($0, shared[$0]!) }
    for (p, placement) in placements.enumerated() {
      for direction in Direction.slotOrder {
        let q = links[p * 4 + direction.index]
        guard q >= 0 else { continue }
        let target = placements[Int(q)]
        guard target.position != placement.position.moved(direction) else { continue }
        let reported =
          direction == .right || direction == .down || links[Int(q) * 4 + direction.opposite.index] != Int32(p)
        if reported {
          collisions.append(
            .stretchedLink(
              from: placement.id, direction: direction, to: target.id, fromPosition: placement.position,
              toPosition: target.position))
        }
      }
    }

    var detached: [ControllerID] = []
    for (i, controller) in state.controllers.enumerated() where controller.isAlive && placementOf[i] < 0 {
      detached.append(controller.id)
    }

    var bounds: (min: Position, max: Position)? = nil
    if let first = placements.first?.position {
      var low = first
      var high = first
      for placement in placements {
        low = Position(x: Swift.min(low.x, placement.position.x), y: Swift.min(low.y, placement.position.y))
        high = Position(x: Swift.max(high.x, placement.position.x), y: Swift.max(high.y, placement.position.y))
      }
      bounds = (low, high)
    }

    self.root = rootPosition.map { store[Int($0)].id }
    self.focus = state.focus
    self.placements = placements
    self.collisions = collisions
    self.detached = detached
    self.bounds = bounds
    self.links = links
    self.doubleLinks = doubleLinks
    if state.focusIndex >= 0 && isAlive(state.focusIndex) {
      self.focusPlacement = placementOf[Int(state.focusIndex)]
    } else {
      self.focusPlacement = -1
    }
  }

  /// Whether the link from a controller with touch minimums `a` in `direction`
  /// to one with `b` is drawn double: either side's pan needs 2 or more fingers.
  package static func needsTwoFingers(_ a: TouchMinimums, _ direction: Direction, _ b: TouchMinimums) -> Bool {
    a[direction] >= 2 || b[direction.opposite] >= 2
  }

  /// Where the walk placed `id`; nil if it is detached, deallocated or unknown.
  ///
  /// - Complexity: O(n); use ``placements`` to visit them all.
  public func position(of id: ControllerID) -> Position? {
    placements.first { $0.id == id }?.position
  }

  public static func == (a: MapLayout, b: MapLayout) -> Bool {
    a.root == b.root && a.focus == b.focus && a.placements == b.placements && a.collisions == b.collisions
      && a.detached == b.detached && a.links == b.links && a.doubleLinks == b.doubleLinks
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(root)
    hasher.combine(placements)
  }
}
