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
  var detached: [Int32] { detachedList.members }
  private var detachedList = SlotList()
  /// The root's position, -1 for none.
  private(set) var root: Int32 = -1
  /// Links between two alive controllers: key (smaller position << 32 | larger), 1 or 2 lines.
  private(set) var edges: [UInt64: UInt8] = [:]
  /// Per position × 4 (slot order): the neighbour last seen, -1 for none.
  private var seen: [Int32] = []
  /// Per placed position: the one the walk found it from (-1 for the root), the
  /// step of ``walkSteps`` it took, and its index in `placed`.
  private var parent: [Int32] = []
  private var parentStep: [UInt8] = []
  private var order: [Int32] = []
  /// Per position: 1 for a modal (``ControllerState/isModal``, which only an event naming the
  /// controller changes: `modal`, or `alloc` of a reused id), read by the walk for every placed one.
  private var modal: [UInt8] = []
  /// The named positions' links before the event (slot order), for the leaf cases of ``update``.
  private var before: [Int32] = []
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
    detachedList.grow(by: n)
    walked.append(contentsOf: repeatElement(0, count: n))
    seen.append(contentsOf: repeatElement(-1, count: 4 * n))
    parent.append(contentsOf: repeatElement(-1, count: n))
    parentStep.append(contentsOf: repeatElement(0, count: n))
    order.append(contentsOf: repeatElement(-1, count: n))
    modal.append(contentsOf: repeatElement(0, count: n))
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
    for p in named { modal[Int(p)] = state.controller(at: p).isModal ? 1 : 0 }

    // Links between alive controllers, around the named ones (the named ones' links before kept).
    before.removeAll(keepingCapacity: true)
    if event != nil {
      for p in named { before.append(contentsOf: seen[Int(p) * 4..<Int(p) * 4 + 4]) }
    }
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
    if walk, let leaf = leafChange(state, event, named) {
      // The walk would find the same placements but one leaf's (added or gone).
      changes.placements.append(leaf)
      candidates.append(leaf)
    } else if walk {
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
          for (k, step) in Self.walkSteps.enumerated() {
            let v = Int(seen[u * 4 + step.slot])
            guard v >= 0, walked[v] == 0 else { continue }
            walked[v] = 1
            nx[v] = nx[u] + step.dx
            ny[v] = ny[u] + step.dy
            parent[v] = Int32(u)
            parentStep[v] = UInt8(k)
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
      if newRoot >= 0 { parent[Int(newRoot)] = -1 }
      for (k, p) in queue.enumerated() {
        let i = Int(p)
        order[i] = Int32(k)
        let flag: UInt8 = 1 + modal[i]
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
      if flag == 0 { detachedList.remove(p) } else { detachedList.insert(p) }
      detachedFlag[i] = flag
      changes.detached.append(p)
    }
  }

  /// When the event only adds a leaf to the placed tree or takes one away, the
  /// leaf, placed or removed here as the walk would (nil: walk).
  ///
  /// Implementation note: on a real app's session nearly every walk is a modal
  /// linked to its presenter or unlinked from it, and a walk costs O(placed).
  /// A leaf is a controller whose only link is to a placed one: added, it is
  /// found from that one and finds nothing, so every other placement and the
  /// walk's order stay, and it goes in `placed` where the walk would put it
  /// (the walk's order is by the position in `placed` of the one a controller
  /// is found from, then by the step: a binary search); taken away, nothing
  /// was found from it.
  private mutating func leafChange(_ state: State, _ event: Event?, _ named: [Int32]) -> Int32? {
    func links(_ p: Int32) -> (count: Int, other: Int32) {
      var count = 0
      var other: Int32 = -1
      for d in 0..<4 where seen[Int(p) * 4 + d] >= 0 {
        count += 1
        other = seen[Int(p) * 4 + d]
      }
      return (count, other)
    }
    switch event {
    case .link:
      guard named.count == 2 else { return nil }
      let (a, b) = (named[0], named[1])
      guard (placedFlag[Int(a)] != 0) != (placedFlag[Int(b)] != 0) else { return nil }
      let (u, v) = placedFlag[Int(a)] != 0 ? (a, b) : (b, a)
      let iu = named[0] == u ? 0 : 1
      // v's one link is to u, in a slot of u that was empty before (else a link was replaced).
      guard links(v) == (1, u), state.controller(at: v).isAlive, v != root else { return nil }
      guard let slot = (0..<4).first(where: { seen[Int(u) * 4 + $0] == v }), before[iu * 4 + slot] < 0 else {
        return nil
      }
      guard let k = Self.walkSteps.firstIndex(where: { $0.slot == slot }) else { return nil }
      // The first index whose key (its finder's index, its step) is after v's.
      let key = (order[Int(u)], UInt8(k))
      var low = 1
      var high = placed.count
      while low < high {
        let middle = (low + high) / 2
        let q = Int(placed[middle])
        if (order[Int(parent[q])], parentStep[q]) < key { low = middle + 1 } else { high = middle }
      }
      placed.insert(v, at: low)
      for i in low..<placed.count { order[Int(placed[i])] = Int32(i) }
      let i = Int(v)
      parent[i] = u
      parentStep[i] = UInt8(k)
      x[i] = x[Int(u)] + Self.walkSteps[k].dx
      y[i] = y[Int(u)] + Self.walkSteps[k].dy
      placedFlag[i] = state.controller(at: v).isModal ? 2 : 1
      return v
    case .unlink, .dealloc:
      guard named.count == 1 else { return nil }
      let a = named[0]
      let v: Int32
      if case .dealloc = event {
        // Its links were its finder's alone.
        guard placedFlag[Int(a)] != 0, a != root, before.filter({ $0 >= 0 }).count == 1 else { return nil }
        v = a
      } else {
        // The link gone was a's only one or the other end's only one.
        guard let slot = (0..<4).first(where: { before[$0] >= 0 && seen[Int(a) * 4 + $0] < 0 }) else { return nil }
        let q = before[slot]
        guard placedFlag[Int(a)] != 0, placedFlag[Int(q)] != 0 else { return nil }
        if links(q).count == 0 && q != root {
          v = q
        } else if links(a).count == 0 && a != root {
          v = a
        } else {
          return nil
        }
      }
      let index = Int(order[Int(v)])
      precondition(placed[index] == v, "order follows placed")
      placed.remove(at: index)
      for i in index..<placed.count { order[Int(placed[i])] = Int32(i) }
      placedFlag[Int(v)] = 0
      return v
    case nil, .root, .alloc, .modal, .touches, .session, .pan, .move, .lifecycle, .mark, .unknown:
      return nil
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
