/// Binary search for the first bad run in a series whose first run is good,
/// assuming that once a run is bad every later one is too.
///
/// What makes a run bad is up to the caller (differs from the first run,
/// has check findings): the search only decides which run to probe next.
///
/// ```swift
/// let result = try Bisect.search(runs: files.count) { i in
///   try differsFromFirst(files[i])     // the predicate: true when run i is bad
/// }
/// result.firstBad   // 7: the eighth run is the first bad one (nil: all good)
/// result.lastGood   // 6
/// result.probes     // [(run 6, good), (run 9, bad), (run 7, bad)]
/// ```
public enum Bisect {
  /// One evaluation of the predicate.
  public struct Probe: Sendable, Hashable {
    /// The run probed (0-based).
    public var run: Int
    /// Whether it was bad.
    public var bad: Bool
  }

  /// Where the search ended.
  public struct Result: Sendable, Hashable {
    /// How many runs were searched.
    public var runs: Int
    /// The first bad run, or nil when every run is good.
    public var firstBad: Int?
    /// The last good run: the one right before ``firstBad``, or the last run.
    public var lastGood: Int
    /// Every probe, in order.
    public var probes: [Probe]
  }

  /// The most probes a search of `runs` runs makes: ⌈log₂ runs⌉.
  public static func maxProbes(runs: Int) -> Int {
    var probes = 0
    var span = 1
    while span < runs {
      span *= 2
      probes += 1
    }
    return probes
  }

  /// Finds the first bad run.
  ///
  /// Run 0 is good by definition and never probed. The search keeps the last
  /// run known good and the first known bad (one past the end at first) and
  /// probes the middle run between them until they are neighbours.
  ///
  /// - Parameters:
  ///   - runs: how many runs there are (at least 1).
  ///   - isBad: the predicate, called with a run index in `1..<runs`; its
  ///     errors end the search and are rethrown.
  /// - Returns: the first bad run (or none), the last good one and the probes.
  /// - Complexity: at most ``maxProbes(runs:)`` calls of `isBad`.
  public static func search<Failure: Error>(runs: Int, isBad: (Int) throws(Failure) -> Bool) throws(Failure) -> Result {
    precondition(runs >= 1, "bisect needs at least one run")
    var good = 0
    var bad = runs
    var probes: [Probe] = []
    while bad - good > 1 {
      let mid = good + (bad - good) / 2
      let verdict = try isBad(mid)
      probes.append(Probe(run: mid, bad: verdict))
      if verdict { bad = mid } else { good = mid }
    }
    return Result(runs: runs, firstBad: bad < runs ? bad : nil, lastGood: good, probes: probes)
  }
}
