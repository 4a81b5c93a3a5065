import Journal

/// Everything the model knows about one controller instance at one point of a journal.
///
/// Read it through ``State``: `state[controller: "home"]`, `state.controllers`.
/// Links and presented modals are stored as positions in allocation order (the
/// fold's fast path); ``State/links(of:)`` and ``State/modals(presentedBy:)``
/// give them as ids.
public struct ControllerState: Sendable, Hashable {
  /// The appearance phase of a controller. A controller that never appeared is `disappeared`.
  public enum Phase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case disappeared, appearing, appeared, disappearing
    public var description: String { rawValue }
  }

  /// The controller's id.
  public let id: ControllerID
  /// The class named by its `alloc`.
  public internal(set) var className: String
  /// False once a `dealloc` named it.
  public internal(set) var isAlive: Bool = true
  /// How many `didLoad` callbacks it received (1 in a healthy journal).
  public internal(set) var loadCount: Int = 0
  /// Its appearance phase, moved on by the four appearance callbacks.
  public internal(set) var phase: Phase = .disappeared
  /// Whether any appearance callback reached it: tells a controller that never appeared from
  /// one whose last appearance callback was didDisappear (both are `disappeared`).
  public internal(set) var hasAppeared: Bool = false
  /// Set by a `modal` event.
  public internal(set) var isModal: Bool = false
  /// The controller that presented it, for a modal.
  public internal(set) var presenter: ControllerID?
  /// Fingers its pan needs in each direction (1 unless a `touches` event said otherwise).
  public internal(set) var minimumTouches = TouchMinimums()
  /// `seq` of its `alloc` event.
  public internal(set) var allocatedAt: Int
  /// `seq` of its `dealloc` event, once deallocated.
  public internal(set) var deallocatedAt: Int?

  /// Neighbours as positions in allocation order, -1 for none (left, right, up, down).
  @usableFromInline var neighbours = Neighbours()
  /// Alive modals this controller presented, in presentation order, as positions.
  var presented: [Int32] = []
  /// Set by a `modal` event until the first link that names the modal: the link that
  /// completes the presentation (where `slot-occupied` applies).
  var presentationPending = false

  init(id: ControllerID, className: String, allocatedAt: Int) {
    self.id = id
    self.className = className
    self.allocatedAt = allocatedAt
  }

  /// What the lifecycle rules read of it before a callback (three fields, read in place).
  var appearance: Appearance {
    @inline(__always) get { Appearance(phase: phase, loadCount: loadCount, hasAppeared: hasAppeared) }
  }

  /// Whether `didLoad` has run at least once.
  public var isLoaded: Bool { loadCount > 0 }

  /// Whether any of its four slots holds a neighbour.
  public var hasLinks: Bool { neighbours.isEmpty == false }
}

/// The minimum number of fingers a controller's pan needs, per direction.
public struct TouchMinimums: Sendable, Hashable {
  public var left = 1
  public var right = 1
  public var up = 1
  public var down = 1

  public init() {}

  public subscript(direction: Direction) -> Int {
    get {
      switch direction {
      case .left: left
      case .right: right
      case .up: up
      case .down: down
      }
    }
    set {
      switch direction {
      case .left: left = newValue
      case .right: right = newValue
      case .up: up = newValue
      case .down: down = newValue
      }
    }
  }
}

/// The four neighbour slots of a controller, as positions in allocation order (-1: empty).
@usableFromInline
struct Neighbours: Sendable, Hashable {
  @usableFromInline var left: Int32 = -1
  @usableFromInline var right: Int32 = -1
  @usableFromInline var up: Int32 = -1
  @usableFromInline var down: Int32 = -1

  @inlinable
  subscript(direction: Direction) -> Int32? {
    get {
      let v: Int32
      switch direction {
      case .left: v = left
      case .right: v = right
      case .up: v = up
      case .down: v = down
      }
      return v < 0 ? nil : v
    }
    set {
      let v = newValue ?? -1
      switch direction {
      case .left: left = v
      case .right: right = v
      case .up: up = v
      case .down: down = v
      }
    }
  }

  var isEmpty: Bool { left < 0 && right < 0 && up < 0 && down < 0 }
}

/// A controller's four links, as ids.
public struct Links: Sendable, Hashable {
  public var left: ControllerID?
  public var right: ControllerID?
  public var up: ControllerID?
  public var down: ControllerID?

  public init(left: ControllerID? = nil, right: ControllerID? = nil, up: ControllerID? = nil, down: ControllerID? = nil)
  {
    self.left = left
    self.right = right
    self.up = up
    self.down = down
  }

  public subscript(direction: Direction) -> ControllerID? {
    switch direction {
    case .left: left
    case .right: right
    case .up: up
    case .down: down
    }
  }
}

extension ControllerState {
  /// A controller's phase, didLoads and whether it ever got an appearance callback: what the
  /// fold and the lifecycle rules need to judge the next callback.
  struct Appearance {
    var phase: Phase
    var loadCount: Int
    var hasAppeared: Bool

    /// Whether `callback` repeats the controller's last appearance callback, a didAppear or a
    /// didDisappear (the `did-repeated` rule): the phase says what the last one was.
    @inline(__always)
    func repeats(_ callback: Callback) -> Bool {
      switch callback {
      case .didAppear: phase == .appeared
      case .didDisappear: phase == .disappeared && hasAppeared
      case .didLoad, .willAppear, .willDisappear: false
      }
    }

    /// Whether `callback` is a did-callback that arrives without its will and is not
    /// `did-repeated`: didAppear while not appearing, didDisappear while not disappearing.
    @inline(__always)
    func lacksWill(_ callback: Callback) -> Bool {
      switch callback {
      case .didAppear: phase != .appearing && !repeats(callback)
      case .didDisappear: phase != .disappearing && !repeats(callback)
      case .didLoad, .willAppear, .willDisappear: false
      }
    }
  }
}
