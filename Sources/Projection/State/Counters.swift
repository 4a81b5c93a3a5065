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

  var byType = [Int](repeating: 0, count: Event.Kind.allCases.count)
  var byTrigger = [Int](repeating: 0, count: MoveTrigger.allCases.count)
  var animatedMoves = 0
  var byOutcome = [Int](repeating: 0, count: PanOutcome.allCases.count)
  var byCallback = [Int](repeating: 0, count: Callback.allCases.count)

  public init() {}

  /// Events of one type (`"move"`, `"lifecycle"`, or an unknown type's name).
  public func events(ofType type: String) -> Int {
    if let kind = Event.Kind(rawValue: type) { return byType[kind.index] }
    return unknownTypes[type] ?? 0
  }

  /// Every `move` event.
  public var moves: Int { byType[Event.Kind.move.index] }

  /// `move` events with this trigger.
  public func moves(triggeredBy trigger: MoveTrigger) -> Int {
    byTrigger[trigger.index]
  }

  /// `move` events with `animated` true.
  public var animated: Int { animatedMoves }

  /// `pan` events with this outcome.
  public func pans(_ outcome: PanOutcome) -> Int {
    byOutcome[outcome.index]
  }

  /// `lifecycle` events with this callback.
  public func callbacks(_ callback: Callback) -> Int {
    byCallback[callback.index]
  }

  /// Counts one folded event by its type (nil for an unknown type, which the
  /// fold counts by name); the fold counts triggers, outcomes and callbacks
  /// where it takes the event apart.
  @inline(__always)
  mutating func count(_ kind: Event.Kind?) {
    events += 1
    if let kind { byType[kind.index] += 1 }
  }
}
