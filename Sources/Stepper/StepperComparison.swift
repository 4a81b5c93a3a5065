import Journal
import Projection

/// Two journals lined up for ``Stepper``'s side-by-side view: the diff's
/// ``Alignment`` expanded into rows, one compared event of each side per row
/// (or a gap where one side has nothing to match), with the rows where each
/// divergence (hunk) starts and ends.
///
/// ```swift
/// let a = try StepperJournal.load(path: "build-07.ndjson")
/// let b = try StepperJournal.load(path: "build-08.ndjson")
/// let comparison = StepperComparison(a, b)
/// comparison.rowCount           // aligned rows
/// comparison.report.hunks.count // divergences
/// let stepper = Stepper(comparison: comparison)
/// ```
public struct StepperComparison: Sendable {
  /// The reference run.
  public private(set) var a: StepperJournal
  /// The run compared with it.
  public private(set) var b: StepperJournal
  /// The diff of the two runs (what is compared comes from its options).
  public let report: DiffReport

  /// The alignment as rows (``DiffReport/Rows``).
  let rows: DiffReport.Rows
  /// Per row, side A's token position, or a gap encoded as `-(tokens of A before the row) - 1`.
  var rowsA: [Int32] { rows.a }
  /// The same for side B.
  var rowsB: [Int32] { rows.b }
  /// First row of each hunk, ascending.
  var hunkStarts: [Int32] { rows.hunkStarts }
  /// One past the last row of each hunk.
  var hunkEnds: [Int32] { rows.hunkEnds }
  /// Record index in ``a`` of each of A's tokens.
  let recordsA: [Int32]
  /// Record index in ``b`` of each of B's tokens.
  let recordsB: [Int32]

  /// Aligns two journals.
  ///
  /// - Parameters:
  ///   - a: the reference run.
  ///   - b: the run compared with it.
  ///   - options: the event types compared and how controllers are matched (as `diff`).
  /// - Complexity: the diff's alignment, then O(rows).
  public init(_ a: StepperJournal, _ b: StepperJournal, options: DiffOptions = DiffOptions()) {
    self.a = a
    self.b = b
    let report = DiffReport(
      NormalizedRun(records: a.records, options: options), NormalizedRun(records: b.records, options: options))
    self.report = report
    rows = report.rows
    recordsA = Self.recordIndexes(report.a.seqs, in: a.timeline)
    recordsB = Self.recordIndexes(report.b.seqs, in: b.timeline)
  }

  /// The same alignment, with the findings of A's and B's checks where given.
  public func withFindings(a findingsA: [CheckFinding]?, b findingsB: [CheckFinding]?) -> StepperComparison {
    var comparison = self
    if let findingsA { comparison.a = a.withFindings(findingsA) }
    if let findingsB { comparison.b = b.withFindings(findingsB) }
    return comparison
  }

  private static func recordIndexes(_ seqs: [Int], in timeline: Timeline) -> [Int32] {
    seqs.map { Int32(timeline.index(ofSeq: $0) ?? 0) }
  }

  /// The number of aligned rows.
  public var rowCount: Int { rowsA.count }

  /// The number of divergences (hunks).
  public var divergenceCount: Int { hunkStarts.count }

  /// Side `side`'s token on row `row`, nil for a gap.
  func token(_ side: DiffSide, atRow row: Int) -> Int? {
    let v = side == .a ? rowsA[row] : rowsB[row]
    return v >= 0 ? Int(v) : nil
  }

  /// Side `side`'s last token on or before row `row`, nil if it has none yet.
  func lastToken(_ side: DiffSide, atOrBefore row: Int) -> Int? {
    rows.lastToken(side, atOrBefore: row)
  }

  /// The record index side `side` stands at on row `row`: its event on the
  /// row, else its last compared event before the row, else (before its
  /// first compared event) the record right before that event, or its last
  /// record when it has no compared event at all.
  func record(_ side: DiffSide, atRow row: Int) -> Int {
    let records = side == .a ? recordsA : recordsB
    if let token = lastToken(side, atOrBefore: row) { return Int(records[token]) }
    let journal = side == .a ? a : b
    return max(0, (records.first.map(Int.init) ?? journal.count) - 1)
  }

  /// The nearest row after (or before) `row` where either side reaches one of
  /// its `marks` (record indexes, ascending: moves, findings); a mark on an
  /// event that is not compared counts at the side's next compared event.
  func row(nextTo row: Int, forward: Bool, marks: KeyPath<StepperJournal, [Int32]>) -> Int? {
    var best: Int?
    for side in [DiffSide.a, .b] {
      let journal = side == .a ? a : b
      let list = journal[keyPath: marks]
      let records = side == .a ? recordsA : recordsB
      let candidate: Int?
      if forward {
        let reached = lastToken(side, atOrBefore: row).map { Int(records[$0]) } ?? -1
        let k = StepperJournal.upperBound(list, Int32(reached))
        candidate = k < list.count ? firstRow(side, atOrAfterRecord: Int(list[k])) : nil
      } else {
        guard let token = lastToken(side, atOrBefore: row - 1) else { continue }
        let k = StepperJournal.upperBound(list, records[token])
        candidate = k > 0 ? firstRow(side, atOrAfterRecord: Int(list[k - 1])) : nil
      }
      if let candidate, best == nil || (forward ? candidate < best! : candidate > best!) { best = candidate }
    }
    return best
  }

  /// The divergence row `row` is in, nil between divergences.
  func divergence(atRow row: Int) -> Int? {
    let k = StepperJournal.upperBound(hunkStarts, Int32(clamping: row)) - 1
    return k >= 0 && row < Int(hunkEnds[k]) ? k : nil
  }

  /// The number of divergences that start at or before `row`.
  func divergencesThrough(_ row: Int) -> Int {
    StepperJournal.upperBound(hunkStarts, Int32(clamping: row))
  }

  /// The first row whose side-`side` event has record index `index` or later, nil if none.
  func firstRow(_ side: DiffSide, atOrAfterRecord index: Int) -> Int? {
    let records = side == .a ? recordsA : recordsB
    // Tokens on a side are ascending along the rows, and so are their records.
    let token = StepperJournal.upperBound(records, Int32(clamping: index - 1))
    guard token < records.count else { return nil }
    let rows = side == .a ? rowsA : rowsB
    var lo = 0
    var hi = rows.count
    while lo < hi {
      let mid = (lo + hi) / 2
      let v = rows[mid]
      let reached = v >= 0 ? Int(v) : Int(-v - 1)
      if reached < token || (v < 0 && reached == token) { lo = mid + 1 } else { hi = mid }
    }
    return lo < rows.count ? lo : nil
  }
}
