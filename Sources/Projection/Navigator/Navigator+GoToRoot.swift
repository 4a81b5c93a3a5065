import Journal

extension Navigator {
  /// `goToRoot [animated=true|false]`: walks from the focus to the root (rule 8).
  ///
  /// The path comes from a breadth-first search over links visiting neighbours up,
  /// left, down, right (the first discovery of each controller wins). Each step is one
  /// complete move with trigger `goToRoot`, starting at the previous step's didAppear
  /// time; when a modal cleanup removes a controller of the path, the rest is planned
  /// again from where the walk stands. Legacy, animated (L6): every step's `move`,
  /// `W-`, `W+` at once, then 250 ms later every step's completion (`D-`, `W+` again).
  /// Nothing is written when the focus is the root.
  ///
  /// ```swift
  /// try nav.goToRoot()
  /// ```
  ///
  /// - Throws: no root yet; no path from the focus to the root (also when a cleanup on the
  ///   way cuts the only path: then nothing of the walk is written).
  public mutating func goToRoot(animated: Bool = true) throws(NavigatorError) {
    // A walk is cut only by a cleanup that removes a controller still ahead: a walk none of whose
    // cleanups can reach a controller ahead cannot fail once planned, and runs without saving the
    // state (a copy of the chunks every step touches).
    let path = try plannedWalk()
    let cuttable = profile == .intended && mayCut(path)
    try command(transactional: cuttable) { (nav) throws(NavigatorError) in
      guard !path.isEmpty else { return }
      if nav.profile == .legacy && animated {
        for step in path { nav.writeMoveStart(step.from, step.direction, step.to, trigger: .goToRoot, animated: true) }
        nav.animate()
        for step in path { nav.writeMoveEnd(step.from, step.to, animated: true) }
        return
      }
      guard cuttable else {
        for step in path { nav.writeMove(step.from, step.direction, step.to, trigger: .goToRoot, animated: animated) }
        return
      }
      // Linear in the path: a cleanup can only break a step by removing one of its ends, so the
      // rest of the path is planned again only when a controller still ahead was deallocated.
      var path = path
      var next = 0
      var ahead = Set(path.lazy.map(\.to))
      while next < path.count {
        let step = path[next]
        next += 1
        ahead.remove(step.to)
        let written = nav.records.count
        nav.writeMove(step.from, step.direction, step.to, trigger: .goToRoot, animated: animated)
        guard nav.removedAny(of: ahead, since: written) else { continue }
        path = try nav.pathToRoot()
        next = 0
        ahead = Set(path.lazy.map(\.to))
      }
    }
  }

  /// The walk `goToRoot` plans before it writes anything: none when the focus is the root.
  ///
  /// - Throws: no root yet; no path from the focus to the root.
  private mutating func plannedWalk() throws(NavigatorError) -> [Step] {
    _ = try focus(for: .goToRoot)
    guard state.focusIndex != state.rootIndex else { return [] }
    return try pathToRoot()
  }

  /// Whether a cleanup on the way may remove a controller of `path` still ahead of it.
  ///
  /// A cleanup follows the didAppear of a step's `to` that presented a modal still linked to it
  /// (``cleansUp(_:)``), and removes only modals that `to` presented, directly or through other
  /// modals. So a walk may be cut only when a step's `to` is such a modal of the `to` of a step
  /// before it that cleans up. Moves change neither links nor presenters: until a cleanup
  /// removes something, all this stays what it was when the walk was planned.
  private func mayCut(_ path: [Step]) -> Bool {
    var cleaners: [Int32] = []
    for (j, step) in path.enumerated() {
      let to = state.store[Int(step.to)]
      if j > 0, !cleaners.isEmpty, to.isModal {
        // The presenters above this modal, up to a controller that is not a modal.
        var presenter = to.presenter
        var hops = 0
        while let id = presenter, let p = state.position(of: id), hops <= state.controllerCount {
          if cleaners.contains(p) { return true }
          guard state.store[Int(p)].isModal else { break }
          presenter = state.store[Int(p)].presenter
          hops += 1
        }
      }
      if cleansUp(step.to) { cleaners.append(step.to) }
    }
    return false
  }

  /// Whether the didAppear of `p` may be followed by a cleanup (rule 5): it presented a modal that
  /// is alive and still linked to it. Moves change neither links nor presenters, so until a
  /// cleanup removes something this stays what it was when the walk was planned.
  private func cleansUp(_ p: Int32) -> Bool {
    let presenter = state.store[Int(p)].id
    for direction in Direction.slotOrder {
      guard let m = state.store[Int(p)].neighbours[direction] else { continue }
      let modal = state.store[Int(m)]
      if modal.isAlive && modal.isModal && modal.presenter == presenter { return true }
    }
    return false
  }

  /// Whether a `dealloc` among the records written since `count` removed one of `positions`.
  func removedAny(of positions: Set<Int32>, since count: Int) -> Bool {
    guard count < records.count, !positions.isEmpty else { return false }
    for record in records[count...] {
      guard case .dealloc(let id) = record.event, let p = state.position(of: id) else { continue }
      if positions.contains(p) { return true }
    }
    return false
  }

  /// One step of a walk: `from`'s `direction` neighbour is `to`.
  struct Step {
    var from: Int32
    var direction: Direction
    var to: Int32
  }

  /// The breadth-first path from the focus to the root (neighbours up, left, down, right).
  ///
  /// Implementation note: the controllers reached are marked in ``walkMarks`` (by position, with
  /// this walk's generation) and each one's step is kept beside the queue, not in a set and a
  /// dictionary: an app's script walks to the root every few dozen inputs, and hashing every
  /// controller reached with SipHash was a tenth of `record`'s time on the navigator's thread.
  mutating func pathToRoot() throws(NavigatorError) -> [Step] {
    let start = state.focusIndex
    let goal = state.rootIndex
    guard start != goal else { return [] }
    let generation = walkMarks.nextGeneration(count: state.controllerCount)
    walkMarks.marks[Int(start)] = generation
    // The queue, and for each entry the step that reached it and the entry it was reached from
    // (the start's are placeholders: the path back stops before it).
    var queue: [Int32] = [start]
    var steps: [Step] = [Step(from: start, direction: .left, to: start)]
    var parents: [Int] = [-1]
    var head = 0
    while head < queue.count {
      let c = queue[head]
      for direction in Direction.walkOrder {
        guard let n = state.store[Int(c)].neighbours[direction], walkMarks.marks[Int(n)] != generation else { continue }
        walkMarks.marks[Int(n)] = generation
        if n == goal {
          var path = [Step(from: c, direction: direction, to: n)]
          var at = head
          while at > 0 {
            path.append(steps[at])
            at = parents[at]
          }
          return path.reversed()
        }
        queue.append(n)
        steps.append(Step(from: c, direction: direction, to: n))
        parents.append(head)
      }
      head += 1
    }
    throw .rootUnreachable(root: state.id(at: goal), from: state.id(at: start))
  }
}

/// The marks of ``Navigator/pathToRoot()``: for each position, the generation of the last walk
/// that reached it. A new walk takes a new generation, so no mark is ever cleared.
struct WalkMarks: Sendable {
  var marks: [UInt32] = []
  private var generation: UInt32 = 0

  /// A generation no mark holds yet, with a mark for each of `count` positions.
  mutating func nextGeneration(count: Int) -> UInt32 {
    if marks.count < count { marks.append(contentsOf: repeatElement(0, count: count - marks.count)) }
    if generation == .max {
      for i in marks.indices { marks[i] = 0 }
      generation = 0
    }
    generation += 1
    return generation
  }
}
