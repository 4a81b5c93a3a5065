import Journal

/// Counts the paths of one session: every run of K consecutive entries of its
/// screen sequence (overlapping runs included).
///
/// ```swift
/// var counter = PathCounter(steps: 3, key: .class)
/// for step in steps { counter.add(step) }
/// counter.paths  // [(["Home", "Inbox", "Detail"], 4), ...]
/// ```
///
/// Memory: one entry per distinct path and per distinct screen.
public struct PathCounter: Sendable {
  public let steps: Int
  public let key: ScreenKey
  private var names: [ExactText: Int32] = [:]
  private var nameList: [String] = []
  /// The last `steps` screens, oldest first (fewer at the start).
  private var window: [Int32] = []
  private var counts: [[Int32]: Int] = [:]

  public init(steps: Int, key: ScreenKey) {
    precondition(steps >= 1, "a path has at least one step")
    self.steps = steps
    self.key = key
    window.reserveCapacity(steps)
  }

  public mutating func add(_ step: ScreenStep) {
    let name = step.screen(key)
    let n: Int32
    if let known = names[ExactText(name)] {
      n = known
    } else {
      n = Int32(nameList.count)
      names[ExactText(name)] = n
      nameList.append(name)
    }
    if window.count == steps { window.removeFirst() }
    window.append(n)
    if window.count == steps { counts[window, default: 0] += 1 }
  }

  /// Every path with its count, in no particular order.
  public var paths: [(path: [String], count: Int)] {
    counts.map { (key, count) in (key.map { nameList[Int($0)] }, count) }
  }
}

/// The paths of many sessions merged: how often each occurs, and in how many
/// sessions (by the header's session id) at least once.
public struct PathTotals: Sendable {
  public struct Entry: Sendable, Hashable {
    public var path: [String]
    public var count: Int
    public var sessions: Int

    public init(path: [String], count: Int, sessions: Int) {
      self.path = path
      self.count = count
      self.sessions = sessions
    }
  }

  private var counts: [[ExactText]: (count: Int, sessions: Set<ExactText>)] = [:]
  /// Sessions seen, with paths or not (by the bytes of their ids).
  public private(set) var sessions: Set<ExactText> = []

  public init() {}

  /// Adds one session's paths (`session`: its header's id, or the file's name without one).
  public mutating func add(_ paths: [(path: [String], count: Int)], session: String) {
    let session = ExactText(session)
    sessions.insert(session)
    for (path, count) in paths {
      let key = path.map(ExactText.init)
      counts[key, default: (0, [])].count += count
      counts[key]!.sessions.insert(session)
    }
  }

  /// The paths by count, then sessions (both descending), then path (ascending, by
  /// the screens' bytes); the first `top` (all when nil).
  public func ranked(top: Int?) -> [Entry] {
    let all = counts.map { Entry(path: $0.key.map(\.text), count: $0.value.count, sessions: $0.value.sessions.count) }
      .sorted { a, b in
        if a.count != b.count { return a.count > b.count }
        if a.sessions != b.sessions { return a.sessions > b.sessions }
        return a.path.lexicographicallyPrecedes(b.path) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      }
    return top.map { Array(all.prefix($0)) } ?? all
  }
}
