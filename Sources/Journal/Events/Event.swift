/// Every kind of event a journal records: a closed set, so each `switch` over it
/// is exhaustive and a new type is a compile error wherever it must be handled.
///
/// The envelope (`seq`, `time`) and unknown keys live in ``Record``.
public enum Event: Sendable, Hashable {
  /// The header: exactly one, at `seq` 0.
  ///
  /// Implementation note: `indirect` (boxed), so that every other event is
  /// not as large as the header's seven fields: every record is copied a few
  /// times on its way from the decoder to the fold, and a smaller event halves
  /// what those copies move.
  indirect case session(SessionHeader)
  /// A controller instance is created.
  case alloc(controller: ControllerID, className: String)
  /// The master's root is set.
  case root(controller: ControllerID)
  /// `from.<direction> = to` (the reverse link and replaced links are implied).
  case link(from: ControllerID, direction: Direction, to: ControllerID)
  /// `from.<direction> = nil` and its reverse link.
  case unlink(from: ControllerID, direction: Direction)
  /// `controller` becomes a modal presented by `presenter`.
  case modal(controller: ControllerID, presenter: ControllerID)
  /// The pan of `controller` now needs `min` fingers towards `direction`.
  case touches(controller: ControllerID, direction: Direction, min: Int)
  /// One finished pan gesture.
  case pan(Pan)
  /// A committed move between neighbours.
  case move(Move)
  /// A spacial lifecycle callback ran.
  case lifecycle(controller: ControllerID, callback: Callback)
  /// The instance is deallocated.
  case dealloc(controller: ControllerID)
  /// A free annotation: `label` then any keys, kept in order.
  case mark(label: String, fields: [Field])
  /// A type this implementation does not know; `raw` is the line as read
  /// (without its line end). The keys other than the envelope are in ``Record/extra``.
  case unknown(type: String, raw: String)

  /// The known event types, in the spec's order: the one list every table of
  /// types (names, counters, diff kinds, the decoder's type match) is derived from.
  ///
  /// The raw value is the wire name; ``index`` is the position in `allCases`,
  /// handy for fixed-size tables.
  public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case session, alloc, root, link, unlink, modal, touches, pan, move, lifecycle, dealloc, mark

    /// Position in `allCases` (session 0 … mark 11).
    @inlinable
    public var index: Int {
      switch self {
      case .session: 0
      case .alloc: 1
      case .root: 2
      case .link: 3
      case .unlink: 4
      case .modal: 5
      case .touches: 6
      case .pan: 7
      case .move: 8
      case .lifecycle: 9
      case .dealloc: 10
      case .mark: 11
      }
    }

    public var description: String { rawValue }
  }

  /// The event's type, or nil for a type this implementation does not know.
  @inlinable
  public var kind: Kind? {
    switch self {
    case .session: .session
    case .alloc: .alloc
    case .root: .root
    case .link: .link
    case .unlink: .unlink
    case .modal: .modal
    case .touches: .touches
    case .pan: .pan
    case .move: .move
    case .lifecycle: .lifecycle
    case .dealloc: .dealloc
    case .mark: .mark
    case .unknown: nil
    }
  }

  /// The wire name of the event's type.
  public var typeName: String {
    if case .unknown(let type, _) = self { return type }
    return kind?.rawValue ?? ""
  }

  /// The type names this implementation knows, in the spec's order.
  public static let knownTypeNames = Kind.allCases.map(\.rawValue)

  /// The controllers the event names, in key order (for filters and checks).
  public var controllers: [ControllerID] {
    switch self {
    case .session, .mark, .unknown: []
    case .alloc(let c, _), .root(let c), .touches(let c, _, _), .lifecycle(let c, _), .dealloc(let c): [c]
    case .link(let a, _, let b): [a, b]
    case .unlink(let a, _): [a]
    case .modal(let m, let p): [m, p]
    case .pan(let p): [p.controller]
    case .move(let m): [m.from, m.to]
    }
  }
}

/// The header of a session (`type` `session`).
public struct SessionHeader: Sendable, Hashable {
  public var version: Int
  public var session: String
  public var app: String?
  public var build: String?
  public var device: String?
  public var profile: String?
  public var scenario: String?

  public init(
    version: Int = 1, session: String, app: String? = nil, build: String? = nil, device: String? = nil,
    profile: String? = nil, scenario: String? = nil
  ) {
    self.version = version
    self.session = session
    self.app = app
    self.build = build
    self.device = device
    self.profile = profile
    self.scenario = scenario
  }
}

/// A finished pan gesture (`type` `pan`).
public struct Pan: Sendable, Hashable {
  public var controller: ControllerID
  public var direction: Direction
  public var touches: Int
  /// Points, a magnitude.
  public var distance: Double
  /// Points per second, a magnitude.
  public var velocity: Double
  public var outcome: PanOutcome

  public init(
    controller: ControllerID, direction: Direction, touches: Int, distance: Double, velocity: Double,
    outcome: PanOutcome
  ) {
    self.controller = controller
    self.direction = direction
    self.touches = touches
    self.distance = distance
    self.velocity = velocity
    self.outcome = outcome
  }
}

/// A committed move (`type` `move`).
public struct Move: Sendable, Hashable {
  public var from: ControllerID
  public var to: ControllerID
  public var direction: Direction
  public var trigger: MoveTrigger
  public var animated: Bool

  public init(from: ControllerID, to: ControllerID, direction: Direction, trigger: MoveTrigger, animated: Bool) {
    self.from = from
    self.to = to
    self.direction = direction
    self.trigger = trigger
    self.animated = animated
  }
}
