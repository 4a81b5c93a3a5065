import Journal

/// The typed calls, as ``Recorder``'s: one per event of the spatial map. Each takes
/// the caller's `#fileID` and `#line`, which become the event's `source` when
/// ``SessionRecorderOptions/callSites`` is on (a base class that forwards its
/// callbacks passes its own caller's on, or the source names the base class).
extension SessionRecorder {
  /// A controller instance was created (`alloc`).
  public func alloc(_ controller: ControllerID, className: String, file: StaticString = #fileID, line: UInt = #line) {
    record(.alloc(controller: controller, className: className), file: file, line: line)
  }

  /// The root controller was set (`root`).
  public func root(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    record(.root(controller: controller), file: file, line: line)
  }

  /// `viewDidLoad` ran.
  public func didLoad(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    lifecycle(controller, .didLoad, file: file, line: line)
  }
  /// `viewWillAppear` ran.
  public func willAppear(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    lifecycle(controller, .willAppear, file: file, line: line)
  }
  /// `viewDidAppear` ran.
  public func didAppear(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    lifecycle(controller, .didAppear, file: file, line: line)
  }
  /// `viewWillDisappear` ran.
  public func willDisappear(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    lifecycle(controller, .willDisappear, file: file, line: line)
  }
  /// `viewDidDisappear` ran.
  public func didDisappear(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    lifecycle(controller, .didDisappear, file: file, line: line)
  }

  /// A lifecycle callback ran.
  public func lifecycle(
    _ controller: ControllerID, _ callback: Callback, file: StaticString = #fileID, line: UInt = #line
  ) {
    record(.lifecycle(controller: controller, callback: callback), file: file, line: line)
  }

  /// A move between neighbours was committed.
  public func move(
    from: ControllerID, to: ControllerID, direction: Direction, trigger: MoveTrigger, animated: Bool,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    record(
      .move(Move(from: from, to: to, direction: direction, trigger: trigger, animated: animated)), file: file,
      line: line)
  }

  /// A pan gesture on `controller` finished.
  public func pan(
    _ controller: ControllerID, direction: Direction, touches: Int, distance: Double, velocity: Double,
    outcome: PanOutcome, file: StaticString = #fileID, line: UInt = #line
  ) {
    record(
      .pan(
        Pan(
          controller: controller, direction: direction, touches: touches, distance: distance, velocity: velocity,
          outcome: outcome)), file: file, line: line)
  }

  /// `from.<direction>ViewController = to` (the reverse link is implied).
  public func link(
    _ from: ControllerID, _ direction: Direction, to: ControllerID, file: StaticString = #fileID, line: UInt = #line
  ) {
    record(.link(from: from, direction: direction, to: to), file: file, line: line)
  }

  /// `from.<direction>ViewController = nil`.
  public func unlink(_ from: ControllerID, _ direction: Direction, file: StaticString = #fileID, line: UInt = #line) {
    record(.unlink(from: from, direction: direction), file: file, line: line)
  }

  /// `controller` is presented modally by `presenter`.
  public func modal(
    _ controller: ControllerID, presenter: ControllerID, file: StaticString = #fileID, line: UInt = #line
  ) {
    record(.modal(controller: controller, presenter: presenter), file: file, line: line)
  }

  /// The pan gesture of `controller` now needs `minimum` fingers towards `direction`.
  public func touches(
    _ controller: ControllerID, _ direction: Direction, minimum: Int, file: StaticString = #fileID, line: UInt = #line
  ) {
    record(.touches(controller: controller, direction: direction, min: minimum), file: file, line: line)
  }

  /// The instance was deallocated (`deinit`); no later event may name it.
  public func dealloc(_ controller: ControllerID, file: StaticString = #fileID, line: UInt = #line) {
    record(.dealloc(controller: controller), file: file, line: line)
  }

  /// A free annotation: a label and further keys.
  public func mark(_ label: String, fields: [Field] = [], file: StaticString = #fileID, line: UInt = #line) {
    record(.mark(label: label, fields: fields), file: file, line: line)
  }
}
