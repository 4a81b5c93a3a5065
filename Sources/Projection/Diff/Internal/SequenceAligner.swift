/// The alignment engine behind ``Alignment``: patience anchoring with a
/// budgeted Myers fallback, over token sequences.
///
/// Implementation note: tokens are dense integers below `tokenCount`, so the
/// occurrence counts of the patience pass are plain arrays indexed by token
/// (no hashing), reset after each segment by walking the segment again.
/// Segments are processed from an explicit stack, in order, so deep
/// recursion cannot overflow the call stack.
struct SequenceAligner {
  let a: [Int32]
  let b: [Int32]
  let budget: DiffBudget
  /// Steps spent so far (comparisons and table entries).
  private(set) var work = 0
  /// Whether some segment was given up on.
  private(set) var exhausted = false
  /// Whether to anchor on unique events first (tests turn it off to check Myers alone).
  var usesAnchors = true

  private var countA: [UInt8]
  private var countB: [UInt8]
  private var position: [Int32]
  private var hunks: [Alignment.Hunk] = []

  init(a: [Int32], b: [Int32], tokenCount: Int, budget: DiffBudget) {
    self.a = a
    self.b = b
    self.budget = budget
    countA = [UInt8](repeating: 0, count: tokenCount)
    countB = [UInt8](repeating: 0, count: tokenCount)
    position = [Int32](repeating: 0, count: tokenCount)
  }

  /// A range of A against a range of B still to align.
  private struct Segment {
    var a0: Int
    var a1: Int
    var b0: Int
    var b1: Int
  }

  /// Aligns the whole sequences and returns the hunks in order.
  mutating func run() -> [Alignment.Hunk] {
    var stack = [Segment(a0: 0, a1: a.count, b0: 0, b1: b.count)]
    while var s = stack.popLast() {
      trim(&s)
      if s.a0 == s.a1 || s.b0 == s.b1 {
        if s.a0 < s.a1 || s.b0 < s.b1 { emit(s.a0..<s.a1, s.b0..<s.b1) }
        continue
      }
      if work >= budget.maxWork {
        giveUp(s)
        continue
      }
      let anchors = usesAnchors ? uniqueCommonAnchors(s) : []
      if !anchors.isEmpty {
        // Push the gaps between anchors in reverse so they pop in order.
        var upperA = s.a1
        var upperB = s.b1
        for anchor in anchors.reversed() {
          let i = Int(anchor.i)
          let j = Int(anchor.j)
          if i + 1 < upperA || j + 1 < upperB { stack.append(Segment(a0: i + 1, a1: upperA, b0: j + 1, b1: upperB)) }
          upperA = i
          upperB = j
        }
        if s.a0 < upperA || s.b0 < upperB { stack.append(Segment(a0: s.a0, a1: upperA, b0: s.b0, b1: upperB)) }
        continue
      }
      if !myers(s) { giveUp(s) }
    }
    return hunks
  }

  private mutating func giveUp(_ s: Segment) {
    exhausted = true
    emit(s.a0..<s.a1, s.b0..<s.b1)
  }

  /// Appends a hunk, merging it with the previous one when they touch.
  private mutating func emit(_ ra: Range<Int>, _ rb: Range<Int>) {
    if let last = hunks.last, last.a.upperBound == ra.lowerBound, last.b.upperBound == rb.lowerBound {
      hunks[hunks.count - 1] = Alignment.Hunk(
        a: last.a.lowerBound..<ra.upperBound, b: last.b.lowerBound..<rb.upperBound)
    } else {
      hunks.append(Alignment.Hunk(a: ra, b: rb))
    }
  }

  /// Removes the common prefix and suffix of a segment.
  private mutating func trim(_ s: inout Segment) {
    let start = s.a0
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        while s.a0 < s.a1 && s.b0 < s.b1 && a[s.a0] == b[s.b0] {
          s.a0 += 1
          s.b0 += 1
        }
        while s.a0 < s.a1 && s.b0 < s.b1 && a[s.a1 - 1] == b[s.b1 - 1] {
          s.a1 -= 1
          s.b1 -= 1
        }
      }
    }
    work += s.a0 - start + 1
  }

  // MARK: Patience

  /// The longest increasing chain of elements that occur exactly once in the
  /// segment of A and once in the segment of B (the patience diff's anchors).
  private mutating func uniqueCommonAnchors(_ s: Segment) -> [(i: Int32, j: Int32)] {
    work += 3 * (s.a1 - s.a0 + s.b1 - s.b0)
    var pairs: [(i: Int32, j: Int32)] = []
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        countA.withUnsafeMutableBufferPointer { countA in
          countB.withUnsafeMutableBufferPointer { countB in
            position.withUnsafeMutableBufferPointer { position in
              for i in s.a0..<s.a1 {
                let t = Int(a[i])
                if countA[t] < 2 { countA[t] &+= 1 }
                position[t] = Int32(i)
              }
              for j in s.b0..<s.b1 {
                let t = Int(b[j])
                if countB[t] < 2 { countB[t] &+= 1 }
              }
              for j in s.b0..<s.b1 {
                let t = Int(b[j])
                if countA[t] == 1 && countB[t] == 1 { pairs.append((position[t], Int32(j))) }
              }
              for i in s.a0..<s.a1 { countA[Int(a[i])] = 0 }
              for j in s.b0..<s.b1 { countB[Int(b[j])] = 0 }
            }
          }
        }
      }
    }
    return longestIncreasing(pairs)
  }

  /// The longest subsequence of `pairs` (ordered by `j`) whose `i` increase.
  ///
  /// - Complexity: O(n log n) (patience sorting with back pointers).
  private func longestIncreasing(_ pairs: [(i: Int32, j: Int32)]) -> [(i: Int32, j: Int32)] {
    guard !pairs.isEmpty else { return [] }
    var tails: [Int32] = []  // index into pairs of the smallest tail of each pile
    var previous = [Int32](repeating: -1, count: pairs.count)
    for (k, p) in pairs.enumerated() {
      var lo = 0
      var hi = tails.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if pairs[Int(tails[mid])].i < p.i { lo = mid + 1 } else { hi = mid }
      }
      if lo > 0 { previous[k] = tails[lo - 1] }
      if lo == tails.count { tails.append(Int32(k)) } else { tails[lo] = Int32(k) }
    }
    var out: [(i: Int32, j: Int32)] = []
    out.reserveCapacity(tails.count)
    var k = tails[tails.count - 1]
    while k >= 0 {
      out.append(pairs[Int(k)])
      k = previous[Int(k)]
    }
    out.reverse()
    return out
  }

  // MARK: Myers

  /// Aligns a segment with Myers' greedy O(ND) algorithm and emits its hunks;
  /// returns false (emitting nothing) when the edit distance exceeds the
  /// budget's cap or the work budget runs out.
  ///
  /// Implementation note: the furthest-reaching x of every diagonal is kept
  /// for each d (d + 1 values, only the diagonals of d's parity), so the
  /// table holds (D + 1)(D + 2) / 2 integers and the path is recovered by
  /// walking it backwards. Points off the grid are marked -1.
  private mutating func myers(_ s: Segment) -> Bool {
    let n = s.a1 - s.a0
    let m = s.b1 - s.b0
    let maxD = min(n + m, budget.maxEditDistance)
    var trace: [Int32] = []
    var steps = 0
    var found = -1
    let limit = budget.maxWork - work
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        let pa = a.baseAddress! + s.a0
        let pb = b.baseAddress! + s.b0
        outer: for d in 0...maxD {
          let previousBase = (d - 1) * d / 2
          for idx in 0...d {
            let k = -d + 2 * idx
            var x: Int
            if d == 0 {
              x = 0
            } else {
              x = Self.start(trace, previousBase, d, idx, k, n, m).x
              if x < 0 {
                trace.append(-1)
                continue
              }
            }
            var y = x - k
            let x0 = x
            while x < n && y < m && pa[x] == pb[y] {
              x += 1
              y += 1
            }
            steps += x - x0 + 1
            trace.append(Int32(x))
            if x >= n && y >= m {
              found = d
              break outer
            }
            if steps > limit { break outer }
          }
        }
      }
    }
    work += steps
    guard found >= 0 else { return false }
    emitPath(trace, d: found, n: n, m: m, s: s)
    return true
  }

  /// Where diagonal `k` starts at step `d`: one step down from diagonal
  /// k + 1 or one step right from k - 1, whichever reaches further (down on
  /// a tie); x is -1 when neither stays on the grid.
  @inline(__always)
  private static func start(
    _ trace: [Int32], _ previousBase: Int, _ d: Int, _ idx: Int, _ k: Int, _ n: Int, _ m: Int
  ) -> (x: Int, down: Bool) {
    var best = -1
    var down = false
    if idx <= d - 1 {
      let px = Int(trace[previousBase + idx])
      if px >= 0 && px - (k + 1) < m {
        best = px
        down = true
      }
    }
    if idx >= 1 {
      let px = Int(trace[previousBase + idx - 1])
      if px >= 0 && px < n && px + 1 > best {
        best = px + 1
        down = false
      }
    }
    return (best, down)
  }

  /// Walks the Myers table back from (n, m) and emits the edits as hunks.
  private mutating func emitPath(_ trace: [Int32], d found: Int, n: Int, m: Int, s: Segment) {
    // Edits from the end backwards: (x, y, isDeletion).
    var edits: [(x: Int, y: Int, deletion: Bool)] = []
    edits.reserveCapacity(found)
    var x = n
    var y = m
    var d = found
    while d > 0 {
      let k = x - y
      let idx = (k + d) / 2
      let previousBase = (d - 1) * d / 2
      let choice = Self.start(trace, previousBase, d, idx, k, n, m)
      if choice.down {
        let px = Int(trace[previousBase + idx])
        let py = px - (k + 1)
        edits.append((px, py, false))
        x = px
        y = py
      } else {
        let px = Int(trace[previousBase + idx - 1])
        let py = px - (k - 1)
        edits.append((px, py, true))
        x = px
        y = py
      }
      d -= 1
    }
    var current: (a0: Int, a1: Int, b0: Int, b1: Int)? = nil
    for e in edits.reversed() {
      if let c = current, c.a1 == e.x, c.b1 == e.y {
        current = e.deletion ? (c.a0, c.a1 + 1, c.b0, c.b1) : (c.a0, c.a1, c.b0, c.b1 + 1)
      } else {
        if let c = current { emit((s.a0 + c.a0)..<(s.a0 + c.a1), (s.b0 + c.b0)..<(s.b0 + c.b1)) }
        current = e.deletion ? (e.x, e.x + 1, e.y, e.y) : (e.x, e.x, e.y, e.y + 1)
      }
    }
    if let c = current { emit((s.a0 + c.a0)..<(s.a0 + c.a1), (s.b0 + c.b0)..<(s.b0 + c.b1)) }
  }
}

/// Merges runs of nearby hunks that hold the same events on both sides in
/// another order (a swap shows as a deletion and an insertion a few events
/// apart) into one hunk, so that it can be classified as reordered.
///
/// A window spans at most 4 hunks, 8 matching events between them and 64
/// events a side.
func mergeReorders(_ hunks: [Alignment.Hunk], a: [Int32], b: [Int32]) -> [Alignment.Hunk] {
  guard hunks.count > 1 else { return hunks }
  func sameEvents(_ ra: Range<Int>, _ rb: Range<Int>) -> Bool {
    ra.count == rb.count && a[ra].sorted() == b[rb].sorted()
  }
  var out: [Alignment.Hunk] = []
  out.reserveCapacity(hunks.count)
  var i = 0
  while i < hunks.count {
    let first = hunks[i]
    var merged: Alignment.Hunk? = nil
    if !sameEvents(first.a, first.b) {
      var j = i + 1
      var gap = 0
      while j < hunks.count && j < i + 4 {
        gap += hunks[j].a.lowerBound - hunks[j - 1].a.upperBound
        let ra = first.a.lowerBound..<hunks[j].a.upperBound
        let rb = first.b.lowerBound..<hunks[j].b.upperBound
        if gap > 8 || ra.count > 64 || rb.count > 64 { break }
        if sameEvents(ra, rb) {
          merged = Alignment.Hunk(a: ra, b: rb)
          break
        }
        j += 1
      }
      if let merged {
        out.append(merged)
        i = j + 1
        continue
      }
    }
    out.append(first)
    i += 1
  }
  return out
}
