import Journal

extension Navigator {
  /// `move DIRECTION [animated=true|false]`: a programmatic move from the focus (rule 3).
  /// A move towards an empty slot is blocked: nothing is written and the clock stays.
  ///
  /// ```swift
  /// try nav.move(.left)                   // move, A.W-, B.W+, 250 ms, A.D-, B.D+
  /// try nav.move(.down, animated: false)  // all at one time
  /// ```
  ///
  /// - Throws: no root yet.
  public mutating func move(_ direction: Direction, animated: Bool = true) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let a = try nav.focus(for: .move)
      guard let b = nav.state.store[Int(a)].neighbours[direction] else { return }
      nav.writeMove(a, direction, b, trigger: .programmatic, animated: animated)
    }
  }

  /// `pan DIRECTION distance=N [velocity=N] [touches=N] [cancel]`: a finished pan on the focus (rule 6).
  ///
  /// The outcome is the first that applies: `refused` (fewer touches than the focus needs
  /// that way; never under legacy L5), `blocked` (no neighbour), `cancelled`, a `fling`
  /// (velocity > 650), a `pan` (distance > the target's threshold, strictly), else `snapBack`.
  /// The `pan` event comes first; a committed pan is followed by an animated move.
  ///
  /// ```swift
  /// try nav.pan(.left, distance: 120)                 // committed, trigger pan
  /// try nav.pan(.left, distance: 10, velocity: 900)   // committed, trigger fling
  /// try nav.pan(.right, distance: 50)                 // snapBack: 50 is not > 50
  /// ```
  ///
  /// - Throws: no root yet, a negative distance or velocity, touches below 1.
  public mutating func pan(
    _ direction: Direction, distance: Double, velocity: Double = 0, touches: Int = 1, cancelled: Bool = false
  ) throws(NavigatorError) {
    try command { (nav) throws(NavigatorError) in
      let a = try nav.focus(for: .pan)
      guard distance >= 0, distance.isFinite else { throw .invalidPanDistance(distance) }
      guard velocity >= 0, velocity.isFinite else { throw .invalidPanVelocity(velocity) }
      guard touches >= 1 else { throw .invalidPanTouches(touches) }
      let target = nav.state.store[Int(a)].neighbours[direction]
      let outcome: PanOutcome
      var trigger = MoveTrigger.pan
      if nav.profile == .intended, touches < nav.state.store[Int(a)].minimumTouches[direction] {
        outcome = .refused
      } else if target == nil {
        outcome = .blocked
      } else if cancelled {
        outcome = .cancelled
      } else if velocity > Self.flingVelocity {
        outcome = .committed
        trigger = .fling
      } else if let target, distance > nav.threshold(of: nav.state.id(at: target)) {
        outcome = .committed
      } else {
        outcome = .snapBack
      }
      nav.emit(
        .pan(
          Pan(
            controller: nav.state.id(at: a), direction: direction, touches: touches, distance: distance,
            velocity: velocity, outcome: outcome)))
      if outcome == .committed, let target {
        nav.writeMove(a, direction, target, trigger: trigger, animated: true)
      }
    }
  }

  /// Writes one complete move from `a` to its neighbour `b` (rule 3, legacy L3), then,
  /// when `b` received didAppear, the cleanup of its modals (rule 5; never under legacy L4).
  mutating func writeMove(_ a: Int32, _ direction: Direction, _ b: Int32, trigger: MoveTrigger, animated: Bool) {
    writeMoveStart(a, direction, b, trigger: trigger, animated: animated)
    if animated { animate() }
    writeMoveEnd(a, b, animated: animated)
  }

  /// `move`, `A.W-`, `B.W+`.
  mutating func writeMoveStart(_ a: Int32, _ direction: Direction, _ b: Int32, trigger: MoveTrigger, animated: Bool) {
    emit(
      .move(
        Move(from: state.id(at: a), to: state.id(at: b), direction: direction, trigger: trigger, animated: animated)))
    callback(a, .willDisappear)
    callback(b, .willAppear)
  }

  /// `A.D-`, `B.D+` and the cleanup; legacy animated: `A.D-` and `B.W+` again (L3).
  mutating func writeMoveEnd(_ a: Int32, _ b: Int32, animated: Bool) {
    callback(a, .didDisappear)
    if profile == .legacy && animated {
      callback(b, .willAppear)
      return
    }
    callback(b, .didAppear)
    if profile == .intended { removeModals(presentedBy: b) }
  }
}
