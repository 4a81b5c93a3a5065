/// The interning tables of a diff: every distinct ``NormalizedEvent`` gets a
/// small integer (its *token*) and every controller name an index, so that the
/// alignment compares integers.
///
/// Two runs compared with each other must use one vocabulary; see
/// ``NormalizedRun/unified(with:)``.
public struct DiffVocabulary: Sendable {
  /// Every distinct event, indexed by token.
  public private(set) var events: [NormalizedEvent] = []
  /// Every controller name (an id, or `Class#n`), indexed as in ``NormalizedEvent``.
  public private(set) var controllers: [String] = []

  private var eventIndex: [NormalizedEvent: Int32] = [:]
  private var controllerIndex: [String: Int32] = [:]

  public init() {}

  /// The number of distinct events (tokens are `0..<tokenCount`).
  public var tokenCount: Int { events.count }

  /// The token of `event`, adding it if it is new.
  public mutating func token(for event: NormalizedEvent) -> Int32 {
    if let t = eventIndex[event] { return t }
    let t = Int32(events.count)
    events.append(event)
    eventIndex[event] = t
    return t
  }

  /// The index of a controller name, adding it if it is new.
  public mutating func controller(named name: String) -> Int32 {
    if let c = controllerIndex[name] { return c }
    let c = Int32(controllers.count)
    controllers.append(name)
    controllerIndex[name] = c
    return c
  }

  /// The event a token stands for.
  public subscript(token: Int32) -> NormalizedEvent { events[Int(token)] }

  /// The name of a controller index.
  public func name(of controller: Int32) -> String { controllers[Int(controller)] }

  /// Adds every event of `other` to this vocabulary and returns, for each of
  /// `other`'s tokens, the token it has here.
  ///
  /// - Complexity: O(distinct events and controllers of `other`).
  mutating func absorb(_ other: DiffVocabulary) -> [Int32] {
    let controllerMap = other.controllers.map { controller(named: $0) }
    return other.events.map { event in
      token(for: event.mapControllers { controllerMap[Int($0)] })
    }
  }
}
