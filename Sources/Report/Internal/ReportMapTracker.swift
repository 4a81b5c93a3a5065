import Journal
import Projection

/// The map's layout (``MapLayout``'s placements, the detached controllers and
/// every link between two alive controllers) kept up to date event by event,
/// with what each event changed, so that the report writes the layout as
/// deltas.
///
/// Implementation note: ``MapLayout`` costs O(controllers ever allocated) and
/// the report would need one after every structural event, which grows with
/// events × controllers on a real app's session (a new controller per modal)
/// or with many controllers alive at once. Here the walk from the root runs
/// only when the event can move a placed controller (a root, a link or unlink
/// touching a placed controller, the dealloc of a placed one, the root's
/// allocation again) and costs O(placed); detached controllers and links are
/// updated around the controllers the event names. `ReportTests` holds the
/// result to ``MapLayout`` after every event of every bundled journal.
struct ReportMapTracker {
  /// Per allocation position: its cell when placed.
  private(set) var x: [Int32] = []
  private(set) var y: [Int32] = []
  /// Per allocation position: 0 not placed, 1 placed, 2 placed and a modal.
  private(set) var placedFlag: [UInt8] = []
  /// Per allocation position: 0 not detached, 1 detached, 2 detached and a modal.
  private(set) var detachedFlag: [UInt8] = []
  /// The placed positions, in walk order (the root first).
  private(set) var placed: [Int32] = []
  /// The detached positions, in no particular order.
  private(set) var detached: [Int32] = []
  private var detachedSlot: [Int32] = []
  /// The root's position, -1 for none.
  private(set) var root: Int32 = -1
  /// Links between two alive controllers: key (smaller position << 32 | larger), 1 or 2 lines.
  private(set) var edges: [UInt64: UInt8] = [:]
  /// Per position × 4 (slot order): the neighbour last seen, -1 for none.
  private var seen: [Int32] = []
  // Scratch of the walk.
  private var nx: [Int32] = []
  private var ny: [Int32] = []
  private var walked: [UInt8] = []
  private var queue: [Int32] = []
  // Scratch lists of `update`, kept for their capacity.
  private var scratchNamed: [Int32] = []
  private var scratchCandidates: [Int32] = []
  private var scratchAround: [Int32] = []
  private var scratchOthers: [Int32] = []

  /// What one event changed (positions; edge keys).
  struct Changes {
    var placements: [Int32] = []
    var detached: [Int32] = []
    var edges: [UInt64] = []
    var root = false
    var isEmpty: Bool { placements.isEmpty && detached.isEmpty && edges.isEmpty && !root }
    mutating func removeAll() {
      placements.removeAll(keepingCapacity: true)
      detached.removeAll(keepingCapacity: true)
      edges.removeAll(keepingCapacity: true)
      root = false
    }
  }

  static func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))) }

  private mutating func grow(_ count: Int) {
    guard count > x.count else { return }
    let n = count - x.count
    x.append(contentsOf: repeatElement(0, count: n))
    y.append(contentsOf: repeatElement(0, count: n))
    nx.append(contentsOf: repeatElement(0, count: n))
    ny.append(contentsOf: repeatElement(0, count: n))
    placedFlag.append(contentsOf: repeatElement(0, count: n))
    detachedFlag.append(contentsOf: repeatElement(0, count: n))
    detachedSlot.append(contentsOf: repeatElement(-1, count: n))
    walked.append(contentsOf: repeatElement(0, count: n))
    seen.append(contentsOf: repeatElement(-1, count: 4 * n))
  }

  /// Brings the layout up to the state after `event` (folded into `state`),
  /// or lays out `state` from nothing when `event` is nil
  /// (`named`: the positions of the controllers it names, -1 for none).
  ///
  /// Implementation note: the links are brought up to date first, so that the
  /// walk reads the neighbours from `seen` (a flat table, the state's links as
  /// they are now) rather than from the state's controllers; a link always
  /// joins two alive controllers (a `dealloc` clears its controller's links),
  /// so a neighbour found there needs no check that it is alive.
  mutating func update(_ state: State, event: Event?, named positions: [Int32], into changes: inout Changes) {
    grow(state.controllerCount)
    var named = scratchNamed
    named.removeAll(keepingCapacity: true)
    if event != nil {
      for p in positions where p >= 0 && !named.contains(p) { named.append(p) }
    } else {
      named.append(contentsOf: 0..<Int32(state.controllerCount))
    }
    defer { scratchNamed = named }
    let isAlive = { (p: Int32) in state.controller(at: p).isAlive }

    // Links between alive controllers, around the named ones.
    switch event {
    case nil, .alloc, .dealloc, .link, .unlink, .touches:
      updateLinks(state, around: named, from: event == nil, into: &changes)
    case .root, .modal, .session, .pan, .move, .lifecycle, .mark, .unknown:
      break
    }

    // Placements.
    let walk: Bool
    switch event {
    case nil, .root: walk = true
    case .link, .unlink: walk = named.contains { placedFlag[Int($0)] != 0 }
    case .dealloc: walk = named.contains { placedFlag[Int($0)] != 0 }
    case .alloc: walk = named.contains { $0 == state.rootPosition }
    case .modal, .touches, .session, .pan, .move, .lifecycle, .mark, .unknown: walk = false
    }
    var candidates = scratchCandidates
    candidates.removeAll(keepingCapacity: true)
    candidates.append(contentsOf: named)
    defer { scratchCandidates = candidates }
    if walk {
      let newRoot: Int32 = state.rootPosition.flatMap { isAlive($0) ? $0 : nil } ?? -1
      if newRoot != root {
        root = newRoot
        changes.root = true
      }
      queue.removeAll(keepingCapacity: true)
      if newRoot >= 0 {
        walked[Int(newRoot)] = 1
        nx[Int(newRoot)] = 0
        ny[Int(newRoot)] = 0
        queue.append(newRoot)
        var next = 0
        while next < queue.count {
          let u = Int(queue[next])
          next += 1
          for step in Self.walkSteps {
            let v = Int(seen[u * 4 + step.slot])
            guard v >= 0, walked[v] == 0 else { continue }
            walked[v] = 1
            nx[v] = nx[u] + step.dx
            ny[v] = ny[u] + step.dy
            queue.append(Int32(v))
          }
        }
      }
      // No longer placed.
      for p in placed where walked[Int(p)] == 0 {
        placedFlag[Int(p)] = 0
        changes.placements.append(p)
        candidates.append(p)
      }
      for p in queue {
        let i = Int(p)
        let flag: UInt8 = state.controller(at: p).isModal ? 2 : 1
        if placedFlag[i] != flag || x[i] != nx[i] || y[i] != ny[i] {
          if placedFlag[i] == 0 { candidates.append(p) }
          placedFlag[i] = flag
          x[i] = nx[i]
          y[i] = ny[i]
          changes.placements.append(p)
        }
        walked[i] = 0
      }
      swap(&placed, &queue)
    } else {
      for p in named where placedFlag[Int(p)] != 0 {
        let flag: UInt8 = state.controller(at: p).isModal ? 2 : 1
        if placedFlag[Int(p)] != flag {
          placedFlag[Int(p)] = flag
          changes.placements.append(p)
        }
      }
    }

    // Detached: alive and not placed.
    for p in candidates {
      let i = Int(p)
      let flag: UInt8 = isAlive(p) && placedFlag[i] == 0 ? (state.controller(at: p).isModal ? 2 : 1) : 0
      guard flag != detachedFlag[i] else { continue }
      if flag == 0 {
        let slot = Int(detachedSlot[i])
        let last = detached.removeLast()
        if last != p {
          detached[slot] = last
          detachedSlot[Int(last)] = Int32(slot)
        }
        detachedSlot[i] = -1
      } else if detachedFlag[i] == 0 {
        detachedSlot[i] = Int32(detached.count)
        detached.append(p)
      }
      detachedFlag[i] = flag
      changes.detached.append(p)
    }
  }

  /// The walk's steps in ``Direction/walkOrder``: each direction's slot in `seen` and its offset.
  private static let walkSteps: [(slot: Int, dx: Int32, dy: Int32)] = Direction.walkOrder.map { direction in
    (Direction.slotOrder.firstIndex(of: direction)!, Int32(direction.offset.dx), Int32(direction.offset.dy))
  }

  /// Brings `seen` and `edges` up to date around `named` (and their neighbours before and after the
  /// event; `whole`: `named` is every position), noting the links that changed.
  private mutating func updateLinks(
    _ state: State, around named: [Int32], from whole: Bool, into changes: inout Changes
  ) {
    let isAlive = { (p: Int32) in state.controller(at: p).isAlive }
    var around = scratchAround
    around.removeAll(keepingCapacity: true)
    around.append(contentsOf: named)
    defer { scratchAround = around }
    if !whole {
      for p in named {
        for d in 0..<4 {
          let q = seen[Int(p) * 4 + d]
          if q >= 0 && !around.contains(q) { around.append(q) }
        }
        for direction in Direction.slotOrder {
          if let q = state.neighbour(at: p, direction), !around.contains(q) { around.append(q) }
        }
      }
    }
    var others = scratchOthers
    defer { scratchOthers = others }
    for p in around {
      others.removeAll(keepingCapacity: true)
      for (d, direction) in Direction.slotOrder.enumerated() {
        let old = seen[Int(p) * 4 + d]
        if old >= 0 && !others.contains(old) { others.append(old) }
        let new = state.neighbour(at: p, direction) ?? -1
        if new >= 0 && !others.contains(new) { others.append(new) }
        seen[Int(p) * 4 + d] = new
      }
      for q in others {
        var lines: UInt8 = 0
        if isAlive(p) && isAlive(q) {
          for direction in Direction.slotOrder where state.neighbour(at: p, direction) == q {
            let double = MapLayout.needsTwoFingers(
              state.controller(at: p).minimumTouches, direction, state.controller(at: q).minimumTouches)
            lines = max(lines, double ? 2 : 1)
          }
        }
        let key = Self.key(p, q)
        let old = edges[key] ?? 0
        guard old != lines else { continue }
        if lines == 0 { edges[key] = nil } else { edges[key] = lines }
        if !changes.edges.contains(key) { changes.edges.append(key) }
      }
    }
  }
}
