import Journal

/// One lifecycle callback that reached a controller.
public struct Arrival: Sendable, Hashable {
  public var controller: ControllerID
  public var callback: Callback

  public init(_ controller: ControllerID, _ callback: Callback) {
    self.controller = controller
    self.callback = callback
  }
}

/// A transition: the initial display of the root, or a move between neighbours,
/// with the callbacks that have arrived for it so far.
///
/// A transition is *in flight* from its `root` or `move` event until all its
/// expected callbacks have arrived, or until the next `move` replaces it (the
/// lifecycle checker sees the replaced one in the state before that `move`).
public struct Transition: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
    /// The first `root` of a session shows its controller: `W+`, `D+`.
    case initialDisplay
    /// A `move`: `from.W-`, `to.W+`, `from.D-`, `to.D+`.
    case move
    public var description: String { rawValue }
  }

  public var kind: Kind
  /// `seq` of the `root` or `move` event that started it.
  public var seq: Int
  /// The controller that disappears (nil for the initial display).
  public var from: ControllerID?
  /// The controller that appears.
  public var to: ControllerID
  /// The move's direction (nil for the initial display).
  public var direction: Direction?
  /// The move's trigger (nil for the initial display).
  public var trigger: MoveTrigger?
  /// Whether the move was animated (false for the initial display).
  public var animated: Bool
  /// Callbacks on `from` or `to` that arrived while it was in flight, in arrival order
  /// (repeats included).
  public var arrivals: [Arrival] {
    var list: [Arrival] = []
    list.reserveCapacity(Int(packedCount) + laterArrivals.count)
    for k in 0..<Int(packedCount) {
      let code = Int(packedArrivals >> (4 * k)) & 0xF
      list.append(Arrival(code & 8 != 0 ? to : from ?? to, Callback.allCases[code & 7]))
    }
    return list + laterArrivals
  }
  /// The first ``packedCapacity`` arrivals, 4 bits each in arrival order: bit 3
  /// set for `to` (clear for `from`), bits 0–2 the callback's index.
  ///
  /// Implementation note: a move gets four callbacks; keeping them in an array
  /// allocated and freed one or two buffers per move and made every copy of
  /// the transition (the checker takes one per callback) retain and release it.
  private var packedArrivals: UInt64 = 0
  private var packedCount: UInt8 = 0
  /// Arrivals past the packed ones (a transition with more than 16 callbacks is broken and rare).
  private var laterArrivals: [Arrival] = []
  private static let packedCapacity: UInt8 = 16
  /// Which expected callbacks arrived: bit 0 `from.W-`, 1 `to.W+`, 2 `from.D-`, 3 `to.D+`.
  var arrivedMask: UInt8 = 0

  public init(
    kind: Kind, seq: Int, from: ControllerID?, to: ControllerID, direction: Direction?, trigger: MoveTrigger?,
    animated: Bool
  ) {
    self.kind = kind
    self.seq = seq
    self.from = from
    self.to = to
    self.direction = direction
    self.trigger = trigger
    self.animated = animated
  }

  /// The appearance callbacks the transition needs, in the documented order.
  public var expected: [Arrival] {
    switch kind {
    case .initialDisplay:
      return [Arrival(to, .willAppear), Arrival(to, .didAppear)]
    case .move:
      let from = from ?? to
      return [
        Arrival(from, .willDisappear), Arrival(to, .willAppear), Arrival(from, .didDisappear), Arrival(to, .didAppear),
      ]
    }
  }

  /// Expected callbacks that have not arrived yet, in the documented order.
  public var missing: [Arrival] {
    expected.filter { slot(of: $0.controller, $0.callback).map { arrivedMask & (1 << $0) == 0 } ?? true }
  }

  /// How many callbacks arrived (``arrivals``' count, without making the list).
  package var arrivalCount: Int { Int(packedCount) + laterArrivals.count }

  /// The expected callbacks that have not arrived as bits: bit k set when
  /// `expected[k]` is among ``missing`` (without making either list).
  package var missingExpectedBits: Int {
    func missing(_ slot: Int) -> Int { arrivedMask & (1 << slot) == 0 ? 1 : 0 }
    switch kind {
    case .initialDisplay:
      return missing(1) | missing(3) << 1
    case .move:
      // Without `from`, `expected` names `to` for the disappearance callbacks, which `slot` never maps.
      let hasFrom = from != nil
      return (hasFrom ? missing(0) : 1) | missing(1) << 1 | (hasFrom ? missing(2) : 1) << 2 | missing(3) << 3
    }
  }

  /// True once every expected callback has arrived.
  public var isComplete: Bool {
    arrivedMask & expectedMask == expectedMask
  }

  private var expectedMask: UInt8 { kind == .move ? 0b1111 : 0b1010 }

  /// Records a callback on one of its ends.
  mutating func arrive(_ arrival: Arrival) {
    arrive(arrival, ends: ends(of: arrival.controller))
  }

  /// ``arrive(_:)`` given which of its ends the arrival's controller is (``ends(of:)``).
  ///
  /// With `standsForWill`, a didAppear (didDisappear) that came while its controller was not
  /// appearing (disappearing) counts as its missing willAppear (willDisappear) too, so that a
  /// will that never came is not reported again as missing or out of order.
  @inline(__always)
  mutating func arrive(_ arrival: Arrival, ends: Ends, standsForWill: Bool = false) {
    let end: UInt64? = ends.isTo ? 8 : ends.isFrom ? 0 : nil
    if let end, laterArrivals.isEmpty, packedCount < Self.packedCapacity {
      packedArrivals |= (end | UInt64(arrival.callback.index)) << (4 * UInt64(packedCount))
      packedCount += 1
    } else {
      laterArrivals.append(arrival)
    }
    if let k = slot(arrival.callback, ends: ends) {
      arrivedMask |= 1 << k
      // The will of a did is the slot two before it (from.W- for from.D-, to.W+ for to.D+).
      if standsForWill && k >= 2 { arrivedMask |= 1 << (k - 2) }
    }
  }

  /// Which ends of a transition one controller is: its ids compared once for every use a
  /// callback makes of them (the fold's arrival, the checker's rules).
  ///
  /// Implementation note: a callback would otherwise compare its controller with the two ends up
  /// to ten times (the rules, whether the fold's transition involves it, its arrival and its
  /// slot), and ids of the same length are compared byte by byte (``ControllerID/==(_:_:)``).
  struct Ends {
    /// The controller is the transition's `to`.
    var isTo: Bool
    /// The controller is the transition's `from` (an initial display has none).
    var isFrom: Bool
    /// It is one of the two.
    var involved: Bool { isTo || isFrom }
  }

  /// Which of its ends `controller` is.
  @inline(__always)
  func ends(of controller: ControllerID) -> Ends {
    Ends(isTo: controller == to, isFrom: controller == from)
  }

  /// The one mapping of a callback to the expected one it is: its bit in
  /// ``arrivedMask`` (`from.W-` 0, `to.W+` 1, `from.D-` 2, `to.D+` 3), or nil for
  /// a callback the transition does not expect.
  @inline(__always)
  func slot(of controller: ControllerID, _ callback: Callback) -> Int? {
    slot(callback, ends: ends(of: controller))
  }

  /// ``slot(of:_:)`` given which of its ends the callback's controller is.
  @inline(__always)
  func slot(_ callback: Callback, ends: Ends) -> Int? {
    let isFrom = kind == .move && ends.isFrom
    switch callback {
    case .willDisappear where isFrom: return 0
    case .willAppear where ends.isTo: return 1
    case .didDisappear where isFrom: return 2
    case .didAppear where ends.isTo: return 3
    default: return nil
    }
  }

  /// Whether `controller` is one of its two ends.
  public func involves(_ controller: ControllerID) -> Bool {
    controller == to || controller == from
  }
}
