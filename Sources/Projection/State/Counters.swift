import Journal

/// Running totals kept by the fold.
public struct Counters: Sendable, Hashable {
  /// Every event folded, the header included.
  public internal(set) var events = 0
  /// Events of a type this implementation does not know, by type name.
  public internal(set) var unknownTypes: [String: Int] = [:]
  /// Anomalies the fold found.
  public internal(set) var anomalies = 0
  /// Transitions that were replaced by the next move before all their callbacks arrived.
  public internal(set) var interruptedTransitions = 0

  var byType = [Int](repeating: 0, count: Event.knownTypeNames.count)
  var byTrigger = [Int](repeating: 0, count: MoveTrigger.allCases.count)
  var animatedMoves = 0
  var byOutcome = [Int](repeating: 0, count: PanOutcome.allCases.count)
  var byCallback = [Int](repeating: 0, count: Callback.allCases.count)

  public init() {}

  /// Events of one type (`"move"`, `"lifecycle"`, or an unknown type's name).
  public func events(ofType type: String) -> Int {
    if let i = Event.knownTypeNames.firstIndex(of: type) { return byType[i] }
    return unknownTypes[type] ?? 0
  }

  /// Every `move` event.
  public var moves: Int { byType[Counters.typeIndex(.move)] }

  /// `move` events with this trigger.
  public func moves(triggeredBy trigger: MoveTrigger) -> Int {
    byTrigger[Counters.index(trigger)]
  }

  /// `move` events with `animated` true.
  public var animated: Int { animatedMoves }

  /// `pan` events with this outcome.
  public func pans(_ outcome: PanOutcome) -> Int {
    byOutcome[Counters.index(outcome)]
  }

  /// `lifecycle` events with this callback.
  public func callbacks(_ callback: Callback) -> Int {
    byCallback[Counters.index(callback)]
  }

  enum TypeIndex: Int {
    case session, alloc, root, link, unlink, modal, touches, pan, move, lifecycle, dealloc, mark
  }

  static func typeIndex(_ t: TypeIndex) -> Int { t.rawValue }

  // Implementation note: fixed indexes instead of `allCases.firstIndex(of:)`, which
  // builds an array on every event of the fold.
  @inline(__always)
  static func index(_ trigger: MoveTrigger) -> Int {
    switch trigger {
    case .programmatic: 0
    case .pan: 1
    case .fling: 2
    case .goToRoot: 3
    }
  }

  @inline(__always)
  static func index(_ outcome: PanOutcome) -> Int {
    switch outcome {
    case .committed: 0
    case .snapBack: 1
    case .blocked: 2
    case .refused: 3
    case .cancelled: 4
    }
  }

  @inline(__always)
  static func index(_ callback: Callback) -> Int {
    switch callback {
    case .didLoad: 0
    case .willAppear: 1
    case .didAppear: 2
    case .willDisappear: 3
    case .didDisappear: 4
    }
  }
}
