/// Delta debugging over a list of items (`spatial-replay shrink`): the smallest sublist that is
/// still *interesting*, as a test function decides.
///
/// Three passes, each keeping the order of the items:
///
/// 1. **groups**: each group given (e.g. every command that names one controller) is removed at
///    once, in turn, while the rest stays interesting;
/// 2. **ddmin** (Zeller and Hildebrandt, 2002), by complements: the list is cut into `n` parts
///    and each part removed in turn; a removal that stays interesting is kept (and `n` goes down
///    by one), else `n` doubles, until the parts are single items;
/// 3. **one by one**: each item is removed in turn, and the pass is repeated until none can be:
///    the result is *1-minimal* (removing any one item makes it uninteresting).
///
/// The test is called once per distinct candidate (answers are remembered), never with the
/// empty list unless it is a candidate of a pass, and can stop the search: ``Answer/stop``
/// keeps the smallest interesting list found so far.
///
/// ```swift
/// var shrinker = Shrinker(count: 600)
/// let result = shrinker.run(groups: []) { kept in kept.contains(41) && kept.contains(7) ? .interesting : .not }
/// result.kept  // [7, 41]
/// ```
public struct Shrinker: Sendable {
  /// What the test says of a candidate.
  public enum Answer: Sendable, Hashable {
    case interesting
    case not
    /// Stop now (an interruption): the candidate counts as not interesting.
    case stop
  }

  /// The outcome of a search.
  public struct Result: Sendable, Hashable {
    /// The indices kept, in order.
    public var kept: [Int]
    /// Calls of the test (distinct candidates).
    public var runs: Int
    /// Whether the test asked to stop before the search ended: `kept` is the smallest found so far.
    public var stopped: Bool
  }

  /// The number of items (indices `0..<count`).
  public let count: Int
  private var answers: [[Int]: Bool] = [:]
  private var runs = 0
  private var stopped = false

  public init(count: Int) { self.count = count }

  /// Searches from the whole list, which the caller knows is interesting.
  ///
  /// - Parameters:
  ///   - groups: sets of indices to try removing together first, in order.
  ///   - test: whether a candidate (sorted indices) is interesting.
  public mutating func run(groups: [[Int]], test: ([Int]) -> Answer) -> Result {
    var current = Array(0..<count)
    answers[current] = true
    // 1. Groups.
    for group in groups where !stopped {
      let remove = Set(group)
      let candidate = current.filter { !remove.contains($0) }
      guard candidate.count < current.count, !candidate.isEmpty else { continue }
      if ask(candidate, test) { current = candidate }
    }
    // 2. ddmin by complements.
    var n = 2
    while !stopped, current.count >= 2 {
      let parts = Self.split(current, into: min(n, current.count))
      var reduced = false
      for part in parts where !stopped {
        let remove = Set(part)
        let candidate = current.filter { !remove.contains($0) }
        if ask(candidate, test) {
          current = candidate
          n = max(n - 1, 2)
          reduced = true
          break
        }
      }
      if reduced { continue }
      if n >= current.count { break }
      n = min(current.count, n * 2)
    }
    // 3. One by one, to a fixpoint.
    var changed = true
    while changed && !stopped {
      changed = false
      var k = 0
      while k < current.count && !stopped {
        var candidate = current
        candidate.remove(at: k)
        if ask(candidate, test) {
          current = candidate
          changed = true
        } else {
          k += 1
        }
      }
    }
    return Result(kept: current, runs: runs, stopped: stopped)
  }

  /// The answer for a candidate, asking the test once per distinct candidate.
  private mutating func ask(_ candidate: [Int], _ test: ([Int]) -> Answer) -> Bool {
    if let known = answers[candidate] { return known }
    runs += 1
    switch test(candidate) {
    case .interesting:
      answers[candidate] = true
      return true
    case .not:
      answers[candidate] = false
      return false
    case .stop:
      stopped = true
      return false
    }
  }

  /// `items` cut into `n` parts of nearly equal length, in order.
  static func split(_ items: [Int], into n: Int) -> [ArraySlice<Int>] {
    var parts: [ArraySlice<Int>] = []
    var start = 0
    for i in 0..<n {
      let end = start + (items.count - start) / (n - i)
      parts.append(items[start..<end])
      start = end
    }
    return parts
  }
}
