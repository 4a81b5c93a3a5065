import Journal

extension Navigator {
  /// Runs one scenario command.
  ///
  /// - Throws: ``NavigatorError`` when the command is refused (nothing is written).
  public mutating func run(_ command: ScenarioCommand) throws(NavigatorError) {
    switch command {
    case .session:
      break  // the header was written when the navigator started
    case .controller(let id, let className):
      try controller(id, className: className)
    case .root(let id):
      try root(id)
    case .link(let from, let direction, let to):
      try link(from, direction, to)
    case .unlink(let from, let direction):
      try unlink(from, direction)
    case .touches(let id, let direction, let min):
      try touches(id, direction, min)
    case .threshold(let id, let points):
      try threshold(id, points)
    case .move(let direction, let animated):
      try move(direction, animated: animated)
    case .pan(let direction, let distance, let velocity, let touches, let cancelled):
      try pan(direction, distance: distance, velocity: velocity, touches: touches, cancelled: cancelled)
    case .modal(let id, let className, let direction, let animated):
      try modal(id, className: className, direction, animated: animated)
    case .goToRoot(let animated):
      try goToRoot(animated: animated)
    case .dealloc(let id):
      try dealloc(id)
    case .wait(let ms):
      try wait(milliseconds: ms)
    case .mark(let label, let fields):
      try mark(label, fields.map { (key: $0.key, value: $0.value) })
    }
  }
}
