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
    try command(transactional: true) { (nav) throws(NavigatorError) in
      _ = try nav.focus(for: .goToRoot)
      guard nav.state.focusIndex != nav.state.rootIndex else { return }
      var path = try nav.pathToRoot()
      if nav.profile == .legacy && animated {
        for step in path { nav.writeMoveStart(step.from, step.direction, step.to, trigger: .goToRoot, animated: true) }
        nav.animate()
        for step in path { nav.writeMoveEnd(step.from, step.to, animated: true) }
        return
      }
      // Linear in the path: a cleanup can only break a step by removing one of its ends, so the
      // rest of the path is planned again only when a controller still ahead was deallocated.
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
  func pathToRoot() throws(NavigatorError) -> [Step] {
    let start = state.focusIndex
    let goal = state.rootIndex
    guard start != goal else { return [] }
    var cameFrom: [Int32: Step] = [:]
    var queue: [Int32] = [start]
    var head = 0
    var seen: Set<Int32> = [start]
    while head < queue.count {
      let c = queue[head]
      head += 1
      for direction in Direction.walkOrder {
        guard let n = state.store[Int(c)].neighbours[direction], seen.insert(n).inserted else { continue }
        cameFrom[n] = Step(from: c, direction: direction, to: n)
        if n == goal {
          var path: [Step] = []
          var at = n
          while at != start, let step = cameFrom[at] {
            path.append(step)
            at = step.from
          }
          return path.reversed()
        }
        queue.append(n)
      }
    }
    throw .rootUnreachable(root: state.id(at: goal), from: state.id(at: start))
  }
}
