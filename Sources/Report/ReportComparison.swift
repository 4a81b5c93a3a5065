import Journal
import Projection

/// Two runs of one scenario lined up for the report: the project's diff
/// (``DiffReport``) of their compared events, expanded into rows as the
/// stepper's side-by-side view does, with the first divergence and every
/// classified hunk.
///
/// ```swift
/// let a = try ReportRun.read(path: "Journals/bisect/build-07.ndjson", maxEvents: .max).run
/// let b = try ReportRun.read(path: "Journals/bisect/build-08.ndjson", maxEvents: .max).run
/// let comparison = ReportComparison(a, b)
/// comparison.report.hunks.count   // 1
/// var html = ""
/// ReportPage(a: a, b: b, comparison: comparison).write(to: &html)
/// ```
public struct ReportComparison: Sendable {
  /// The diff of the two runs.
  public let report: DiffReport
  /// The data block's `cmp` member.
  let json: [UInt8]

  /// Compares two runs (their whole journals, whatever their windows).
  ///
  /// - Parameters:
  ///   - a: the reference run.
  ///   - b: the run compared with it.
  ///   - options: what is compared and how controllers are matched, as for `diff`.
  /// - Complexity: the diff's alignment, then O(rows + records).
  public init(_ a: ReportRun, _ b: ReportRun, options: DiffOptions = DiffOptions()) {
    func normalize(_ run: ReportRun) -> (NormalizedRun, [Int]) {
      var normalized = NormalizedRun(options: options)
      var recordOfToken: [Int] = []
      for (i, record) in run.records.enumerated() {
        let before = normalized.count
        normalized.append(record, line: run.lines[i])
        if normalized.count > before { recordOfToken.append(i) }
      }
      return (normalized, recordOfToken)
    }
    let (na, tokensA) = normalize(a)
    let (nb, tokensB) = normalize(b)
    let report = DiffReport(na, nb)
    self.report = report
    let rows = report.rows

    var json = JSONBuffer()
    json.htmlSafe = true
    json.open("{")
    json.key("rows")
    json.int(rows.a.count)
    json.member("match", report.matching.used.rawValue)
    json.member("matchText", report.matching.text)
    // Per row, the event each side stands at (an index in its window): its
    // last compared event on or before the row, else the event before its first.
    for (side, run, tokens) in [(DiffSide.a, a, tokensA), (.b, b, tokensB)] {
      var at: [Int] = []
      at.reserveCapacity(rows.a.count)
      for row in 0..<rows.a.count {
        let record: Int
        if let token = rows.lastToken(side, atOrBefore: row) {
          record = tokens[token]
        } else {
          record = max(0, (tokens.first ?? run.records.count) - 1)
        }
        at.append(min(max(record - run.window.lowerBound, 0), max(run.window.count - 1, 0)))
      }
      json.key(side == .a ? "atA" : "atB")
      json.ints(at.indices.map { at[$0] - ($0 > 0 ? at[$0 - 1] : 0) })
    }
    json.key("div")
    if let d = report.firstDivergence, let start = rows.hunkStarts.first {
      json.open("{")
      json.key("row")
      json.int(Int(start))
      for (key, position, run) in [("a", d.a, report.a), ("b", d.b, report.b)] {
        json.key(key)
        json.int(position < run.count ? run.seqs[position] : nil)
        json.key(key + "After")
        json.int(position > 0 ? run.seqs[position - 1] : nil)
      }
      json.close("}")
    } else {
      json.null()
    }
    json.array("hunks") { json in
      for (k, hunk) in report.hunks.enumerated() {
        json.objectElement { json in
          json.member("kind", hunk.kind.rawValue)
          json.member("side", hunk.side?.rawValue)
          json.member("rows", ints: [Int(rows.hunkStarts[k]), Int(rows.hunkEnds[k])])
          for (key, range, run) in [("a", hunk.hunk.a, report.a), ("b", hunk.hunk.b, report.b)] {
            json.object(key) { json in
              json.member("from", range.lowerBound)
              json.member("to", range.upperBound)
              json.member("seqs", ints: range.map { run.seqs[$0] })
              json.member("afterSeq", range.lowerBound > 0 ? run.seqs[range.lowerBound - 1] : nil)
            }
          }
        }
      }
    }
    json.close("}")
    self.json = json.take()
  }
}
