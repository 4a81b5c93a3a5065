/// The typed calls: one per event of the spatial map, so that a base
/// view-controller class hooks each callback in with one line.
///
/// ```swift
/// override func viewDidAppear(_ animated: Bool) {
///   super.viewDidAppear(animated)
///   recorder.didAppear(journalID)
/// }
/// ```
extension Recorder {
  /// A controller instance was created (`alloc`).
  public func alloc(_ controller: ControllerID, className: String) {
    record(.alloc(controller: controller, className: className))
  }

  /// The root controller was set (`root`).
  public func root(_ controller: ControllerID) { record(.root(controller: controller)) }

  /// `viewDidLoad` ran.
  public func didLoad(_ controller: ControllerID) { lifecycle(controller, .didLoad) }
  /// `viewWillAppear` ran.
  public func willAppear(_ controller: ControllerID) { lifecycle(controller, .willAppear) }
  /// `viewDidAppear` ran.
  public func didAppear(_ controller: ControllerID) { lifecycle(controller, .didAppear) }
  /// `viewWillDisappear` ran.
  public func willDisappear(_ controller: ControllerID) { lifecycle(controller, .willDisappear) }
  /// `viewDidDisappear` ran.
  public func didDisappear(_ controller: ControllerID) { lifecycle(controller, .didDisappear) }

  /// A lifecycle callback ran.
  public func lifecycle(_ controller: ControllerID, _ callback: Callback) {
    record(.lifecycle(controller: controller, callback: callback))
  }

  /// A move between neighbours was committed.
  public func move(
    from: ControllerID, to: ControllerID, direction: Direction, trigger: MoveTrigger, animated: Bool
  ) {
    record(.move(Move(from: from, to: to, direction: direction, trigger: trigger, animated: animated)))
  }

  /// A pan gesture on `controller` finished.
  public func pan(
    _ controller: ControllerID, direction: Direction, touches: Int, distance: Double, velocity: Double,
    outcome: PanOutcome
  ) {
    record(
      .pan(
        Pan(
          controller: controller, direction: direction, touches: touches, distance: distance, velocity: velocity,
          outcome: outcome)))
  }

  /// `from.<direction>ViewController = to` (the reverse link is implied).
  public func link(_ from: ControllerID, _ direction: Direction, to: ControllerID) {
    record(.link(from: from, direction: direction, to: to))
  }

  /// `from.<direction>ViewController = nil`.
  public func unlink(_ from: ControllerID, _ direction: Direction) {
    record(.unlink(from: from, direction: direction))
  }

  /// `controller` is presented modally by `presenter`.
  public func modal(_ controller: ControllerID, presenter: ControllerID) {
    record(.modal(controller: controller, presenter: presenter))
  }

  /// The pan gesture of `controller` now needs `minimum` fingers towards `direction`.
  public func touches(_ controller: ControllerID, _ direction: Direction, minimum: Int) {
    record(.touches(controller: controller, direction: direction, min: minimum))
  }

  /// The instance was deallocated (`deinit`); no later event may name it.
  public func dealloc(_ controller: ControllerID) { record(.dealloc(controller: controller)) }

  /// A free annotation: a label and further keys, e.g.
  /// `mark("login", fields: [.string("user", "anna")])`.
  public func mark(_ label: String, fields: [Field] = []) { record(.mark(label: label, fields: fields)) }
}
