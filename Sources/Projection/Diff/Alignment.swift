/// How two normalised runs line up: the places where they differ (hunks), in
/// order; everything between two hunks matches one to one.
///
/// Positions are indices into the two token sequences (``NormalizedRun/tokens``);
/// ``NormalizedRun/seqs`` and ``NormalizedRun/lines`` map them back to the journals.
///
/// ```swift
/// let alignment = Alignment(a.tokens, b.tokens, tokenCount: a.vocabulary.tokenCount)
/// for segment in alignment.segments {
///   switch segment {
///   case .match(let ra, let rb): ...   // equal runs, same length
///   case .hunk(let hunk): ...          // hunk.a in A against hunk.b in B
///   }
/// }
/// ```
public struct Alignment: Sendable, Hashable {
  /// A place where the runs differ: `a` in A stands against `b` in B (either may be empty).
  public struct Hunk: Sendable, Hashable {
    public var a: Range<Int>
    public var b: Range<Int>

    public init(a: Range<Int>, b: Range<Int>) {
      self.a = a
      self.b = b
    }
  }

  /// One piece of the alignment, in order.
  public enum Segment: Sendable, Hashable {
    /// Equal events: `a[i]` matches `b[i]` position by position.
    case match(a: Range<Int>, b: Range<Int>)
    case hunk(Hunk)
  }

  /// The length of sequence A.
  public let countA: Int
  /// The length of sequence B.
  public let countB: Int
  /// Every difference, in order, non-overlapping, separated by at least one match.
  public let hunks: [Hunk]
  /// Whether the budget ran out somewhere, so some hunk replaces a whole
  /// segment rather than the smallest edit.
  public let budgetExhausted: Bool
  /// Comparison steps the alignment spent.
  public let work: Int

  /// Aligns two token sequences: anchors on events that occur once in each
  /// (patience diff, recursively between anchors), a budgeted Myers O(ND) diff
  /// on segments without such anchors, then merges nearby hunks that turn out
  /// to be the same events in another order.
  ///
  /// - Parameters:
  ///   - a: tokens of A.
  ///   - b: tokens of B (from the same vocabulary).
  ///   - tokenCount: an upper bound of the tokens (the vocabulary's size).
  ///   - budget: the work limits.
  /// - Complexity: O((N + M) log(N + M)) on runs with scattered differences;
  ///   never more than the budget's work, and memory linear in N + M plus the
  ///   square of the budget's edit distance.
  public init(_ a: [Int32], _ b: [Int32], tokenCount: Int, budget: DiffBudget = DiffBudget()) {
    var aligner = SequenceAligner(a: a, b: b, tokenCount: tokenCount, budget: budget)
    let raw = aligner.run()
    countA = a.count
    countB = b.count
    hunks = mergeReorders(raw, a: a, b: b)
    budgetExhausted = aligner.exhausted
    work = aligner.work
  }

  /// An alignment from its parts (tests, tools that build one by hand).
  public init(countA: Int, countB: Int, hunks: [Hunk], budgetExhausted: Bool = false, work: Int = 0) {
    self.countA = countA
    self.countB = countB
    self.hunks = hunks
    self.budgetExhausted = budgetExhausted
    self.work = work
  }

  /// Whether the two sequences are equal.
  public var isIdentical: Bool { hunks.isEmpty }

  /// Matches and hunks, in order, covering both sequences.
  public var segments: [Segment] {
    var out: [Segment] = []
    out.reserveCapacity(hunks.count * 2 + 1)
    var i = 0
    var j = 0
    for h in hunks {
      if h.a.lowerBound > i { out.append(.match(a: i..<h.a.lowerBound, b: j..<h.b.lowerBound)) }
      out.append(.hunk(h))
      i = h.a.upperBound
      j = h.b.upperBound
    }
    if i < countA { out.append(.match(a: i..<countA, b: j..<countB)) }
    return out
  }

  /// The position in B matched to position `i` of A, or nil if `i` is in a hunk.
  ///
  /// - Complexity: O(log hunks).
  public func counterpart(ofA i: Int) -> Int? {
    let k = hunkIndex(atOrBefore: i, \.a)
    guard k >= 0 else { return i }
    let h = hunks[k]
    if i < h.a.upperBound { return nil }
    return h.b.upperBound + (i - h.a.upperBound)
  }

  /// The position in A matched to position `j` of B, or nil if `j` is in a hunk.
  public func counterpart(ofB j: Int) -> Int? {
    let k = hunkIndex(atOrBefore: j, \.b)
    guard k >= 0 else { return j }
    let h = hunks[k]
    if j < h.b.upperBound { return nil }
    return h.a.upperBound + (j - h.b.upperBound)
  }

  /// The last hunk whose side starts at or before `i`, or -1 (an empty side at `i` lies before `i`).
  private func hunkIndex(atOrBefore i: Int, _ side: KeyPath<Hunk, Range<Int>>) -> Int {
    var lo = 0
    var hi = hunks.count
    while lo < hi {
      let mid = (lo + hi) / 2
      let r = hunks[mid][keyPath: side]
      if r.lowerBound <= i { lo = mid + 1 } else { hi = mid }
    }
    return lo - 1
  }
}
