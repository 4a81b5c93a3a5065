import Testing

@testable import Projection
@testable import TestSupport

@Suite struct DiffAlignmentTests {
  /// A random sequence over `alphabet` tokens.
  static func randomTokens(_ count: Int, alphabet: Int32, _ rng: inout DiffRandom) -> [Int32] {
    (0..<count).map { _ in Int32.random(in: 0..<alphabet, using: &rng) }
  }

  /// `s` with `edits` random deletions, insertions, duplications and swaps.
  static func mutate(_ s: [Int32], edits: Int, alphabet: Int32, _ rng: inout DiffRandom) -> [Int32] {
    var out = s
    for _ in 0..<edits where out.count > 2 {
      let i = Int.random(in: 0..<(out.count - 1), using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: out.remove(at: i)
      case 1: out.insert(Int32.random(in: 0..<alphabet, using: &rng), at: i)
      case 2: out.insert(out[i], at: i)
      default: out.swapAt(i, i + 1)
      }
    }
    return out
  }

  @Test(arguments: [2, 5, 40, 10_000] as [Int32])
  func everyAlignmentIsValid(alphabet: Int32) {
    var rng = DiffRandom(seed: 0x5EED_0000 + UInt64(alphabet))
    for round in 0..<60 {
      let a = Self.randomTokens(Int.random(in: 0..<300, using: &rng), alphabet: alphabet, &rng)
      let b =
        round % 5 == 0
        ? Self.randomTokens(Int.random(in: 0..<300, using: &rng), alphabet: alphabet, &rng)
        : Self.mutate(a, edits: Int.random(in: 0..<12, using: &rng), alphabet: alphabet, &rng)
      let alignment = Alignment(a, b, tokenCount: Int(alphabet))
      #expect(alignmentProblems(alignment, a, b) == [], "round \(round): \(a) vs \(b)")
      #expect(alignment.isIdentical == (a == b))
    }
  }

  /// Without anchors the engine is plain Myers, which finds a shortest edit script.
  @Test func myersAloneFindsAShortestEditScript() {
    var rng = DiffRandom(seed: 42)
    for round in 0..<200 {
      let a = Self.randomTokens(Int.random(in: 0..<40, using: &rng), alphabet: 3, &rng)
      let b =
        round % 4 == 0
        ? Self.randomTokens(Int.random(in: 0..<40, using: &rng), alphabet: 3, &rng)
        : Self.mutate(a, edits: Int.random(in: 0..<8, using: &rng), alphabet: 3, &rng)
      var aligner = SequenceAligner(a: a, b: b, tokenCount: 3, budget: DiffBudget())
      aligner.usesAnchors = false
      let hunks = aligner.run()
      let edits = hunks.reduce(0) { $0 + $1.a.count + $1.b.count }
      #expect(edits == a.count + b.count - 2 * Self.lcs(a, b), "round \(round): \(a) vs \(b)")
      #expect(!aligner.exhausted)
    }
  }

  static func lcs(_ a: [Int32], _ b: [Int32]) -> Int {
    var row = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var diagonal = 0
      for j in 0..<b.count {
        let above = row[j + 1]
        row[j + 1] = x == b[j] ? diagonal + 1 : max(above, row[j])
        diagonal = above
      }
    }
    return row[b.count]
  }

  @Test func tenScatteredEditsGiveTenHunks() {
    var rng = DiffRandom(seed: 7)
    // Mostly unique tokens with a repetitive background, like controllers and their callbacks.
    var a: [Int32] = []
    for k in 0..<100_000 { a.append(k % 4 == 0 ? Int32(1000 + k) : Int32.random(in: 0..<20, using: &rng)) }
    var b = a
    let places = stride(from: 5_000, to: 100_000, by: 10_000).map { $0 }
    for (n, p) in places.enumerated().reversed() {
      switch n % 4 {
      case 0: b.remove(at: p + 1)
      case 1: b.insert(b[p + 1], at: p + 1)
      case 2: b.swapAt(p + 1, p + 2)
      default: b[p + 1] = 500
      }
    }
    let alignment = Alignment(a, b, tokenCount: 200_000)
    #expect(alignmentProblems(alignment, a, b) == [])
    #expect(alignment.hunks.count == 10)
    #expect(!alignment.budgetExhausted)
    for (h, p) in zip(alignment.hunks, places) {
      #expect(abs(h.a.lowerBound - p) <= 25, "hunk \(h) far from edit at \(p)")
    }
  }

  @Test func unrelatedRunsRunOutOfBudgetIntoAReplaceHunk() {
    var rng = DiffRandom(seed: 99)
    let a = Self.randomTokens(40_000, alphabet: 30, &rng)
    let b = Self.randomTokens(40_000, alphabet: 30, &rng)
    let budget = DiffBudget(maxEditDistance: 500, maxWork: 2_000_000)
    let alignment = Alignment(a, b, tokenCount: 30, budget: budget)
    #expect(alignment.budgetExhausted)
    #expect(!alignment.hunks.isEmpty)
    #expect(alignmentProblems(alignment, a, b) == [])
    #expect(alignment.work <= budget.maxWork + 8 * (a.count + b.count))
  }

  @Test func unrelatedRunsWithTheDefaultBudgetStillAlign() {
    var rng = DiffRandom(seed: 100)
    let a = Self.randomTokens(20_000, alphabet: 2_000, &rng)
    let b = Self.randomTokens(20_000, alphabet: 2_000, &rng)
    let alignment = Alignment(a, b, tokenCount: 2_000)
    #expect(alignmentProblems(alignment, a, b) == [])
    #expect(alignment.work <= DiffBudget().maxWork + 8 * (a.count + b.count))
  }

  @Test func counterpartsFollowTheSegments() {
    let a: [Int32] = [1, 2, 3, 4, 5, 6, 7]
    let b: [Int32] = [1, 9, 3, 4, 4, 5, 7]
    let alignment = Alignment(a, b, tokenCount: 10)
    #expect(alignmentProblems(alignment, a, b) == [])
    for segment in alignment.segments {
      switch segment {
      case .match(let ra, let rb):
        for (i, j) in zip(ra, rb) {
          #expect(alignment.counterpart(ofA: i) == j)
          #expect(alignment.counterpart(ofB: j) == i)
        }
      case .hunk(let h):
        for i in h.a { #expect(alignment.counterpart(ofA: i) == nil) }
        for j in h.b { #expect(alignment.counterpart(ofB: j) == nil) }
      }
    }
  }

  @Test func emptySequences() {
    #expect(Alignment([], [], tokenCount: 0).isIdentical)
    #expect(Alignment([1, 2], [], tokenCount: 3).hunks == [Alignment.Hunk(a: 0..<2, b: 0..<0)])
    #expect(Alignment([], [1], tokenCount: 3).hunks == [Alignment.Hunk(a: 0..<0, b: 0..<1)])
  }
}
