extension DiffReport {
  /// The alignment expanded into rows, one compared event of each side per
  /// row, or a gap where one side has nothing to match (the stepper's
  /// side-by-side view and the report's two-run lanes).
  package struct Rows: Sendable {
    /// Per row, side A's token position, or a gap encoded as `-(tokens of A before the row) - 1`.
    package internal(set) var a: [Int32] = []
    /// The same for side B.
    package internal(set) var b: [Int32] = []
    /// First row of each hunk, ascending.
    package internal(set) var hunkStarts: [Int32] = []
    /// One past the last row of each hunk.
    package internal(set) var hunkEnds: [Int32] = []

    /// Side `side`'s last token on or before `row`, nil if it has none yet.
    package func lastToken(_ side: DiffSide, atOrBefore row: Int) -> Int? {
      guard row >= 0 else { return nil }
      let v = side == .a ? a[row] : b[row]
      let token = v >= 0 ? Int(v) : Int(-v - 1) - 1
      return token >= 0 ? token : nil
    }
  }

  /// The rows of the alignment.
  ///
  /// - Complexity: O(rows).
  package var rows: Rows {
    var rows = Rows()
    let capacity = max(alignment.countA, alignment.countB)
    rows.a.reserveCapacity(capacity)
    rows.b.reserveCapacity(capacity)
    for segment in alignment.segments {
      switch segment {
      case .match(let ra, let rb):
        for k in 0..<ra.count {
          rows.a.append(Int32(ra.lowerBound + k))
          rows.b.append(Int32(rb.lowerBound + k))
        }
      case .hunk(let h):
        rows.hunkStarts.append(Int32(rows.a.count))
        for k in 0..<max(h.a.count, h.b.count) {
          rows.a.append(k < h.a.count ? Int32(h.a.lowerBound + k) : Int32(-h.a.upperBound - 1))
          rows.b.append(k < h.b.count ? Int32(h.b.lowerBound + k) : Int32(-h.b.upperBound - 1))
        }
        rows.hunkEnds.append(Int32(rows.a.count))
      }
    }
    return rows
  }
}
