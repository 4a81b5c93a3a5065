import Journal

/// One event reduced to what a diff compares: its type and fields, without
/// `seq` and `time`, with controllers as indices into a ``DiffVocabulary``'s
/// controller names (an id, or `Class#n` when matching by class).
public enum NormalizedEvent: Sendable, Hashable {
  case lifecycle(controller: Int32, callback: Callback)
  case move(from: Int32, to: Int32, direction: Direction, trigger: MoveTrigger, animated: Bool)
  case modal(controller: Int32, presenter: Int32)
  case dealloc(controller: Int32)
  case link(from: Int32, direction: Direction, to: Int32)
  case unlink(from: Int32, direction: Direction)
  case alloc(controller: Int32, className: String)
  case root(controller: Int32)
  case touches(controller: Int32, direction: Direction, min: Int)
  case pan(
    controller: Int32, direction: Direction, touches: Int, distance: Double, velocity: Double, outcome: PanOutcome)
  case mark(label: String, fields: [Field])
  /// A type this implementation does not know, compared by its name and keys.
  case other(type: String, fields: [Field])

  /// The wire name of the event's type.
  public var typeName: String {
    switch self {
    case .lifecycle: "lifecycle"
    case .move: "move"
    case .modal: "modal"
    case .dealloc: "dealloc"
    case .link: "link"
    case .unlink: "unlink"
    case .alloc: "alloc"
    case .root: "root"
    case .touches: "touches"
    case .pan: "pan"
    case .mark: "mark"
    case .other(let type, _): type
    }
  }

  /// The controller indices the event names, in key order.
  public var controllers: [Int32] {
    switch self {
    case .lifecycle(let c, _), .dealloc(let c), .alloc(let c, _), .root(let c), .touches(let c, _, _),
      .pan(let c, _, _, _, _, _), .unlink(let c, _):
      [c]
    case .move(let a, let b, _, _, _), .modal(let a, let b), .link(let a, _, let b): [a, b]
    case .mark, .other: []
    }
  }

  /// The same event with every controller index passed through `transform`.
  func mapControllers(_ transform: (Int32) -> Int32) -> NormalizedEvent {
    switch self {
    case .lifecycle(let c, let callback): .lifecycle(controller: transform(c), callback: callback)
    case .move(let a, let b, let d, let t, let animated):
      .move(from: transform(a), to: transform(b), direction: d, trigger: t, animated: animated)
    case .modal(let m, let p): .modal(controller: transform(m), presenter: transform(p))
    case .dealloc(let c): .dealloc(controller: transform(c))
    case .link(let a, let d, let b): .link(from: transform(a), direction: d, to: transform(b))
    case .unlink(let a, let d): .unlink(from: transform(a), direction: d)
    case .alloc(let c, let className): .alloc(controller: transform(c), className: className)
    case .root(let c): .root(controller: transform(c))
    case .touches(let c, let d, let min): .touches(controller: transform(c), direction: d, min: min)
    case .pan(let c, let d, let touches, let distance, let velocity, let outcome):
      .pan(
        controller: transform(c), direction: d, touches: touches, distance: distance, velocity: velocity,
        outcome: outcome)
    case .mark, .other: self
    }
  }
}
