/// The comparison of two runs: their alignment, every hunk classified, and
/// the first divergence with the context before it.
///
/// ```swift
/// let report = DiffReport(a, b)          // two NormalizedRuns of one scenario
/// report.isIdentical                     // false
/// report.hunks.map(\.kind)               // [.duplicated, .missing]
/// report.firstDivergence?.moveB          // the move B was in when it diverged
/// var text = ""
/// report.write(to: &text, nameA: "build-07.ndjson", nameB: "build-08.ndjson")
/// ```
public struct DiffReport: Sendable {
  /// Run A, in the vocabulary it shares with B.
  public let a: NormalizedRun
  /// Run B, in the vocabulary it shares with A.
  public let b: NormalizedRun
  /// Where the runs match and where they differ.
  public let alignment: Alignment
  /// Every hunk of ``alignment`` with its classification, in order.
  public let hunks: [ClassifiedHunk]
  /// The first hunk's position, context and moves; nil when identical.
  public let firstDivergence: Divergence?
  /// How controllers were matched: as asked, or as `.auto` decided from the runs' ids.
  public let matching: MatchingDecision

  /// Compares two runs normalised with the same options. Matching `.auto`,
  /// the runs' ids decide how their controllers are matched (``matching``).
  ///
  /// - Parameters:
  ///   - a: the reference run (e.g. the last good build).
  ///   - b: the run compared with it.
  ///   - context: how many matching events before the first divergence to keep.
  /// - Complexity: see ``Alignment/init(_:_:tokenCount:budget:)``.
  public init(_ a: NormalizedRun, _ b: NormalizedRun, context: Int = 3) {
    precondition(
      a.options.types == b.options.types && a.options.matching == b.options.matching,
      "both runs must be normalised with the same options")
    matching = MatchingDecision(requested: a.options.matching, a: a.idCensus, b: b.idCensus)
    let (ua, ub) = a.unified(with: b)
    self.a = ua
    self.b = ub
    let alignment = Alignment(
      ua.tokens, ub.tokens, tokenCount: ua.vocabulary.tokenCount, budget: a.options.budget)
    self.alignment = alignment
    var classified: [ClassifiedHunk] = []
    classified.reserveCapacity(alignment.hunks.count)
    for (k, h) in alignment.hunks.enumerated() {
      let previous = k > 0 ? alignment.hunks[k - 1] : nil
      let next = k + 1 < alignment.hunks.count ? alignment.hunks[k + 1] : nil
      classified.append(
        ClassifiedHunk.classify(
          h, a: ua.tokens, b: ub.tokens, vocabulary: ua.vocabulary,
          bounds: (
            a: (previous?.a.upperBound ?? 0)..<(next?.a.lowerBound ?? ua.count),
            b: (previous?.b.upperBound ?? 0)..<(next?.b.lowerBound ?? ub.count)
          )))
    }
    hunks = classified
    firstDivergence = alignment.hunks.first.map { Divergence($0, a: ua, b: ub, context: context) }
  }

  /// The vocabulary both runs' tokens index.
  public var vocabulary: DiffVocabulary { a.vocabulary }

  /// Whether the runs are equal in every compared event.
  public var isIdentical: Bool { hunks.isEmpty }

  /// The seqs a hunk spans in each journal, first to last (nil for an empty
  /// side), for tools that walk the divergences (the stepper jumps to them).
  public func seqRanges(of hunk: Alignment.Hunk) -> (a: ClosedRange<Int>?, b: ClosedRange<Int>?) {
    func span(_ r: Range<Int>, _ run: NormalizedRun) -> ClosedRange<Int>? {
      r.isEmpty ? nil : run.seqs[r.lowerBound]...run.seqs[r.upperBound - 1]
    }
    return (span(hunk.a, a), span(hunk.b, b))
  }

  /// How many hunks are of `kind`.
  public func count(of kind: HunkKind) -> Int { hunks.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }
}

/// Which run.
public enum DiffSide: String, Sendable, Hashable {
  case a, b

  /// The other run.
  public var other: DiffSide { self == .a ? .b : .a }
}

/// What a hunk is, from A's point of view.
public enum HunkKind: String, Sendable, Hashable, CaseIterable {
  /// Events of A that B does not have.
  case missing
  /// Events of B that A does not have.
  case extra
  /// Events one run has twice in a row where the other has them once.
  case duplicated
  /// The same events on both sides in another order.
  case reordered
  /// The same lifecycle callbacks at the same place, on other controllers.
  case misattributed
  /// Anything else.
  case changed
}

/// A hunk of an ``Alignment`` and what kind of difference it is.
public struct ClassifiedHunk: Sendable, Hashable {
  public var hunk: Alignment.Hunk
  public var kind: HunkKind
  /// For ``HunkKind/duplicated``: the run that has the extra copy.
  public var side: DiffSide?

  public init(hunk: Alignment.Hunk, kind: HunkKind, side: DiffSide? = nil) {
    self.hunk = hunk
    self.kind = kind
    self.side = side
  }

  /// Classifies a hunk of two token sequences.
  ///
  /// One-sided hunks are `missing` (A only) or `extra` (B only), or
  /// `duplicated` when their events repeat the events right next to them on
  /// the same side (the hunk may slide over equal neighbours within `bounds`,
  /// the matched stretches around it). Two-sided hunks are `reordered` when
  /// both sides hold the same events, `misattributed` when every event is a
  /// lifecycle callback facing the same callback on another controller,
  /// else `changed`.
  public static func classify(
    _ h: Alignment.Hunk, a: [Int32], b: [Int32], vocabulary: DiffVocabulary,
    bounds: (a: Range<Int>, b: Range<Int>)
  ) -> ClassifiedHunk {
    if h.b.isEmpty {
      return isRepeat(h.a, in: a, within: bounds.a)
        ? ClassifiedHunk(hunk: h, kind: .duplicated, side: .a) : ClassifiedHunk(hunk: h, kind: .missing)
    }
    if h.a.isEmpty {
      return isRepeat(h.b, in: b, within: bounds.b)
        ? ClassifiedHunk(hunk: h, kind: .duplicated, side: .b) : ClassifiedHunk(hunk: h, kind: .extra)
    }
    if h.a.count == h.b.count && a[h.a].sorted() == b[h.b].sorted() {
      return ClassifiedHunk(hunk: h, kind: .reordered)
    }
    if h.a.count == h.b.count {
      let misattributed = zip(h.a, h.b).allSatisfy { i, j in
        guard let x = vocabulary.callback(of: a[i]), let y = vocabulary.callback(of: b[j]) else { return false }
        return x.callback == y.callback && x.controller != y.controller
      }
      if misattributed { return ClassifiedHunk(hunk: h, kind: .misattributed) }
    }
    return ClassifiedHunk(hunk: h, kind: .changed)
  }

  /// Whether the events of `r` in `s` equal the events right before or right
  /// after them, trying every equivalent placement of the insertion (an
  /// insertion may slide by one while the element it uncovers equals the one
  /// it covers), without leaving `bounds`.
  static func isRepeat(_ r: Range<Int>, in s: [Int32], within bounds: Range<Int>) -> Bool {
    let length = r.count
    func repeatsNeighbour(_ lower: Int) -> Bool {
      let upper = lower + length
      if lower - length >= 0 && s[(lower - length)..<lower] == s[lower..<upper] { return true }
      if upper + length <= s.count && s[upper..<(upper + length)] == s[lower..<upper] { return true }
      return false
    }
    var lower = r.lowerBound
    var slides = 0
    while lower > bounds.lowerBound && slides < 64 && s[lower - 1] == s[lower - 1 + length] {
      lower -= 1
      slides += 1
    }
    slides = 0
    while true {
      if repeatsNeighbour(lower) { return true }
      let upper = lower + length
      guard upper < bounds.upperBound && slides < 128 && s[lower] == s[upper] else { return false }
      lower += 1
      slides += 1
    }
  }
}

/// Where two runs first differ, what matched right before, and the move
/// each run was in at that point.
public struct Divergence: Sendable, Hashable {
  /// A position in A and the position in B it matches.
  public struct Pair: Sendable, Hashable {
    public var a: Int
    public var b: Int
  }

  /// Position in A of the first differing event (or, if A has none there, of the event after the gap).
  public var a: Int
  /// Position in B, likewise.
  public var b: Int
  /// The last matching pairs before the divergence, oldest first.
  public var context: [Pair]
  /// The latest move at or before the divergence in A.
  public var moveA: NormalizedRun.MoveMark?
  /// The latest move at or before the divergence in B.
  public var moveB: NormalizedRun.MoveMark?

  init(_ h: Alignment.Hunk, a: NormalizedRun, b: NormalizedRun, context: Int) {
    self.a = h.a.lowerBound
    self.b = h.b.lowerBound
    let n = min(h.a.lowerBound, h.b.lowerBound)
    self.context = (max(0, n - max(0, context))..<n).map {
      Pair(a: h.a.lowerBound - n + $0, b: h.b.lowerBound - n + $0)
    }
    func move(_ run: NormalizedRun, _ r: Range<Int>) -> NormalizedRun.MoveMark? {
      if !r.isEmpty { return run.move(atOrBefore: run.seqs[r.lowerBound]) }
      if r.lowerBound < run.count { return run.move(atOrBefore: run.seqs[r.lowerBound] - 1) }
      return run.moves.last
    }
    moveA = move(a, h.a)
    moveB = move(b, h.b)
  }
}
