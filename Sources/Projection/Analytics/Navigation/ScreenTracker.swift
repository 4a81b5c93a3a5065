import Journal

/// One entry of a session's screen sequence: the focus, each time it changes.
public struct ScreenStep: Sendable, Hashable {
  /// `seq` of the event that made it the focus: the initial `root`, or a `move`.
  public var seq: Int
  public var time: Timestamp
  public var controller: ControllerID
  /// Its class, from its `alloc`.
  public var className: String?
  /// The focus before it; nil for the initial display.
  public var previous: ControllerID?
  public var previousClass: String?
  /// The move's trigger; nil for the initial display.
  public var trigger: MoveTrigger?

  public init(
    seq: Int, time: Timestamp, controller: ControllerID, className: String?, previous: ControllerID?,
    previousClass: String?, trigger: MoveTrigger?
  ) {
    self.seq = seq
    self.time = time
    self.controller = controller
    self.className = className
    self.previous = previous
    self.previousClass = previousClass
    self.trigger = trigger
  }

  /// The screen's name under `key`: its id, or its class (its id when it has none).
  public func screen(_ key: ScreenKey) -> String {
    key == .controller ? controller.rawValue : className ?? controller.rawValue
  }
}

/// What names a screen in the analyses of navigation: the controller's id, or
/// its class (every instance of a class is one screen).
public enum ScreenKey: String, Sendable, Hashable, CaseIterable {
  case controller
  case `class`
}

/// Follows one journal's focus the way the fold does, without the fold's map:
/// the focus becomes a controller at the first `root` (when nothing is focused
/// yet) and at every `move` between two controllers alive at that moment.
/// Also times each appearance: a controller's willAppear to its didAppear
/// within one transition.
///
/// Memory: one entry per controller named (its class and whether it is alive).
public struct ScreenTracker: Sendable {
  struct Entry: Sendable {
    var controller: ControllerID
    var className: String?
    var alive = false
    /// Microseconds of the willAppear of the transition in flight, or -1.
    var willAppear: Int64 = -1
  }

  private var entries: [Entry] = []
  private var positions = ControllerIndex()
  /// The entries' class names, each kept once (every entry is kept for the whole session).
  private var classNames = InternedTexts()
  /// The focus's entry, or -1.
  private var focus: Int32 = -1
  /// Entries whose willAppear waits for its didAppear (cleared at each transition's start).
  private var appearing: [Int32] = []
  /// The time of the journal's first event.
  public private(set) var start: Timestamp?

  public init() {}

  /// What one record changed.
  public enum Change: Sendable {
    /// The focus changed.
    case step(ScreenStep)
    /// A controller's didAppear ended its willAppear of the same transition after `microseconds`.
    case appeared(controller: ControllerID, className: String?, microseconds: Int64)
  }

  /// Moves on by one record; returns what it changed, if anything.
  public mutating func consume(_ record: Record) -> Change? {
    if start == nil { start = record.time }
    switch record.event {
    case .alloc(let controller, let className):
      let p = position(of: controller)
      entries[p].className = classNames.intern(className)
      entries[p].alive = true
    case .dealloc(let controller):
      if let p = positions[controller] { entries[Int(p)].alive = false }
    case .root(let controller):
      guard focus < 0, let p = alive(controller) else { return nil }
      beginTransition()
      focus = p
      return .step(step(record, to: p, from: nil, trigger: nil))
    case .move(let move):
      guard alive(move.from) != nil, let b = alive(move.to) else { return nil }
      beginTransition()
      let previous = focus
      focus = b
      guard previous != b else { return nil }
      return .step(step(record, to: b, from: previous < 0 ? nil : previous, trigger: move.trigger))
    case .lifecycle(let controller, .willAppear):
      guard let p = positions[controller] else { return nil }
      entries[Int(p)].willAppear = record.time.microseconds
      appearing.append(p)
    case .lifecycle(let controller, .didAppear):
      guard let p = positions[controller], entries[Int(p)].willAppear >= 0 else { return nil }
      let entry = entries[Int(p)]
      entries[Int(p)].willAppear = -1
      return .appeared(
        controller: entry.controller, className: entry.className,
        microseconds: max(0, record.time.microseconds - entry.willAppear))
    case .session, .link, .unlink, .modal, .touches, .pan, .lifecycle, .mark, .unknown:
      break
    }
    return nil
  }

  /// The name under `key` of every controller allocated so far, each a screen
  /// the sequence may hold: its id, or its class. What a name given for a
  /// screen (`funnel --steps`) is checked against.
  public func screenNames(_ key: ScreenKey) -> Set<String> {
    Set(entries.map { key == .controller ? $0.controller.rawValue : $0.className ?? $0.controller.rawValue })
  }

  private mutating func beginTransition() {
    for p in appearing { entries[Int(p)].willAppear = -1 }
    appearing.removeAll(keepingCapacity: true)
  }

  private func step(_ record: Record, to p: Int32, from q: Int32?, trigger: MoveTrigger?) -> ScreenStep {
    let entry = entries[Int(p)]
    let previous = q.map { entries[Int($0)] }
    return ScreenStep(
      seq: record.seq, time: record.time, controller: entry.controller, className: entry.className,
      previous: previous?.controller, previousClass: previous?.className, trigger: trigger)
  }

  private func alive(_ controller: ControllerID) -> Int32? {
    guard let p = positions[controller], entries[Int(p)].alive else { return nil }
    return p
  }

  private mutating func position(of controller: ControllerID) -> Int {
    if let p = positions[controller] { return Int(p) }
    positions.insert(controller, at: Int32(entries.count))
    entries.append(Entry(controller: controller))
    return entries.count - 1
  }
}
