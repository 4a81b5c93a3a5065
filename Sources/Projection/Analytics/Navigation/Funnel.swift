import Journal

/// A funnel over screens S1 ... Sn: how far one session's screen sequence goes
/// through them in order (not necessarily adjacent), optionally within a time
/// of reaching S1.
///
/// The session is matched from the occurrence of S1 that reaches the furthest
/// step (the earliest of those), each later step at its first occurrence after
/// the previous one: without a window that is simply the first S1, then the
/// first S2 after it, and so on.
///
/// Memory: the session's entries whose screen is one of the steps.
public struct FunnelMatcher: Sendable {
  public let steps: [String]
  public let key: ScreenKey
  /// Microseconds from reaching S1 within which the later steps count; nil for no limit.
  public let window: Int64?
  private let stepOf: [ExactText: [Int]]
  /// (step indices of the screen, time) of each entry that is a step.
  private var entries: [(steps: [Int], time: Int64)] = []

  public init(steps: [String], key: ScreenKey, window: Int64?) {
    self.steps = steps
    self.key = key
    self.window = window
    var stepOf: [ExactText: [Int]] = [:]
    for (i, screen) in steps.enumerated() { stepOf[ExactText(screen), default: []].append(i) }
    self.stepOf = stepOf
  }

  public mutating func add(_ step: ScreenStep) {
    guard let indices = stepOf[ExactText(step.screen(key))] else { return }
    entries.append((indices, step.time.microseconds))
  }

  /// The times (microseconds) at which the session reached S1, S2, ...: as many as
  /// the steps it reached.
  public func reached() -> [Int64] {
    if window != nil, entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].time <= entries[$0].time }) {
      return reachedInOrder()
    }
    var best: [Int64] = []
    for (start, entry) in entries.enumerated() where entry.steps.contains(0) {
      var times = [entry.time]
      var next = start + 1
      while times.count < steps.count, next < entries.count {
        let candidate = entries[next]
        if let window, candidate.time - entry.time > window { break }
        if candidate.steps.contains(times.count) { times.append(candidate.time) }
        next += 1
      }
      if times.count > best.count { best = times }
      if best.count == steps.count || window == nil { break }
    }
    return best
  }
}

extension FunnelMatcher {
  /// ``reached()`` when the entries' times never decrease, in time linear in the entries
  /// times the steps: the walk from each occurrence of S1 reaches each later step no
  /// earlier than the walk from the occurrence before it, so each step keeps a cursor
  /// that only moves forward. (Walking afresh from each S1 would take time quadratic in
  /// the occurrences inside one window.)
  ///
  /// With times in order, the first entry past the window is past it exactly when the
  /// next step's entry is, so stopping at that step is the same as stopping at the first
  /// entry past the window.
  private func reachedInOrder() -> [Int64] {
    var best: [Int64] = []
    var cursors = Array(repeating: 0, count: steps.count)
    var times: [Int64] = []
    for start in entries.indices where entries[start].steps.contains(0) {
      let origin = entries[start].time
      times.removeAll(keepingCapacity: true)
      times.append(origin)
      var previous = start
      while times.count < steps.count {
        let step = times.count
        var next = max(cursors[step], previous + 1)
        while next < entries.count && !entries[next].steps.contains(step) { next += 1 }
        cursors[step] = next
        guard next < entries.count else { break }
        if let window, entries[next].time - origin > window { break }
        times.append(entries[next].time)
        previous = next
      }
      if times.count > best.count { best = times }
      if best.count == steps.count { break }
    }
    return best
  }
}

/// A funnel's sessions merged: for each step, the sessions (by header id) that
/// reached it, and the times between consecutive steps.
public struct FunnelTotals: Sendable {
  public let steps: [String]
  private var reached: [Set<ExactText>]
  /// Microseconds from step i-1 to step i, one per session that reached step i (none for step 0).
  private var gaps: [[Int64]]
  /// Sessions seen, funnel entered or not (by the bytes of their ids).
  public private(set) var sessions: Set<ExactText> = []

  public init(steps: [String]) {
    self.steps = steps
    reached = Array(repeating: [], count: steps.count)
    gaps = Array(repeating: [], count: steps.count)
  }

  public mutating func add(_ times: [Int64], session: String) {
    let session = ExactText(session)
    sessions.insert(session)
    for (i, time) in times.enumerated() {
      reached[i].insert(session)
      if i > 0 { gaps[i].append(time - times[i - 1]) }
    }
  }

  public struct Step: Sendable, Hashable {
    public var screen: String
    public var sessions: Int
    /// sessions / sessions of the first step (nil when none reached it).
    public var conversion: Double?
    /// sessions / sessions of the previous step (nil for the first, or when none reached the previous).
    public var fromPrevious: Double?
    /// Sessions of the previous step that did not reach this one (0 for the first).
    public var dropOff: Int
    /// The median time from the previous step, in microseconds (nil for the first or when none reached it).
    public var medianMicroseconds: Int64?
  }

  public var result: [Step] {
    steps.indices.map { i in
      let count = reached[i].count
      let first = reached[0].count
      let previous = i > 0 ? reached[i - 1].count : nil
      return Step(
        screen: steps[i], sessions: count, conversion: first > 0 ? Double(count) / Double(first) : nil,
        fromPrevious: previous.flatMap { $0 > 0 ? Double(count) / Double($0) : nil },
        dropOff: previous.map { $0 - count } ?? 0,
        medianMicroseconds: i > 0 ? Distribution(gaps[i]).percentile(50) : nil)
    }
  }
}

/// A set of durations in microseconds, with percentiles by nearest rank: the
/// p-th percentile of n values is the value of rank ⌈n·p/100⌉ in ascending order
/// (DuckDB's `quantile_disc`).
public struct Distribution: Sendable, Hashable {
  public private(set) var values: [Int64]
  private var sorted = true

  public init(_ values: [Int64] = []) {
    self.values = values
    sorted = false
  }

  public var count: Int { values.count }
  /// Whether ``values`` are in ascending order (they need no sorting).
  var isSorted: Bool { sorted }

  public mutating func add(_ value: Int64) {
    if let last = values.last, value < last { sorted = false }
    values.append(value)
  }

  public mutating func add(contentsOf other: Distribution) {
    values += other.values
    sorted = false
  }

  /// The value of rank ⌈n·p/100⌉; nil when empty. `p` in 1...100.
  public func percentile(_ p: Int) -> Int64? {
    guard !values.isEmpty else { return nil }
    let ordered = sorted ? values : values.sorted()
    return ordered[max(1, (values.count * p + 99) / 100) - 1]
  }

  /// count, p50, p90, p99 and max in microseconds (nil when empty), sorting once.
  public var summary: (count: Int, p50: Int64?, p90: Int64?, p99: Int64?, max: Int64?) {
    guard !values.isEmpty else { return (0, nil, nil, nil, nil) }
    let ordered = sorted ? values : values.sorted()
    func rank(_ p: Int) -> Int64 { ordered[max(1, (ordered.count * p + 99) / 100) - 1] }
    return (ordered.count, rank(50), rank(90), rank(99), ordered.last!)
  }
}
