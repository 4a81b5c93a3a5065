import Journal

/// Time to screen and time on screen, per screen, for one journal.
///
/// - appearance: a controller's willAppear to its didAppear in the same transition;
/// - first arrival: from the journal's first event to the first time the screen
///   became the focus (one value per session and screen);
/// - dwell: its visits (didAppear to the next willDisappear or dealloc; a visit
///   open at the end lasts to the last event), as the `visits` table has them.
///
/// Memory: one entry per screen, holding its values.
public struct LatencyBuilder: Sendable {
  public struct Screen: Sendable, Hashable {
    public var appearance = Distribution()
    public var firstArrival = Distribution()
    public var dwell = Distribution()

    public init() {}

    public mutating func merge(_ other: Screen) {
      appearance.add(contentsOf: other.appearance)
      firstArrival.add(contentsOf: other.firstArrival)
      dwell.add(contentsOf: other.dwell)
    }
  }

  public let key: ScreenKey
  private var tracker = ScreenTracker()
  private var visits = VisitTracker()
  private var lastTime: Timestamp?
  /// By the bytes of the screens' names (``ExactText``): canonically equivalent names are two screens.
  public private(set) var screens: [ExactText: Screen] = [:]
  /// The journal's header, once read.
  public private(set) var header: SessionHeader?

  public init(key: ScreenKey) { self.key = key }

  public mutating func consume(_ record: Record) {
    lastTime = record.time
    if header == nil, case .session(let h) = record.event { header = h }
    if let visit = visits.consume(record) { addVisit(visit) }
    switch tracker.consume(record) {
    case .step(let step):
      let name = ExactText(step.screen(key))
      if screens[name]?.firstArrival.count ?? 0 == 0 {
        screens[name, default: Screen()].firstArrival.add(
          step.time.microseconds - (tracker.start ?? step.time).microseconds)
      }
    case .appeared(let controller, let className, let microseconds):
      let name = ExactText(key == .controller ? controller.rawValue : className ?? controller.rawValue)
      screens[name, default: Screen()].appearance.add(microseconds)
    case nil:
      break
    }
  }

  /// Ends the journal: the visits still open count up to its last event.
  public mutating func finish() {
    for visit in visits.finish(lastTime: lastTime) { addVisit(visit) }
  }

  private mutating func addVisit(_ visit: Visit) {
    let name = ExactText(key == .controller ? visit.controller.rawValue : visit.className ?? visit.controller.rawValue)
    screens[name, default: Screen()].dwell.add(visit.dwellMicroseconds)
  }
}
