import Journal

/// One journal prepared for the HTML report: every event of a window of it
/// folded once, with what the page shows after each event encoded as data the
/// page only has to apply.
///
/// The page never re-runs the model. For every event the fold's result is
/// kept as a *delta* from the state after the event before it (the rows of the
/// controllers it changed, the focus, the transition in flight, the map's
/// layout when it changed), and every ``keyframeInterval`` events as a whole
/// *keyframe*; the page seeks by taking the keyframe at or before the cursor
/// and applying at most `keyframeInterval - 1` deltas. Layouts are
/// ``MapLayout``s (the placement `map` and `at` draw), stored once per change.
/// Lifecycle lanes, log sentences and findings come from the same pass.
///
/// ```swift
/// let run = try ReportRun.read(path: "Journals/notes.legacy.ndjson")
/// run.eventCount          // 144
/// run.findings.count      // check's findings of the same journal
/// var html = ""
/// ReportPage(run: run).write(to: &html)
/// ```
public struct ReportRun: Sendable {
  /// The events of the journal the report covers (record indexes, half-open).
  public let window: Range<Int>
  /// Records in the journal.
  public let totalEvents: Int
  /// Why the window is smaller than the journal (an automatic window), nil otherwise.
  public let windowNote: String?
  /// The findings of `check` (the reader's and the lifecycle rules'), in line order, for the whole journal.
  public let findings: [Diagnostic]
  /// The data block for the page (one JSON object, safe inside `<script>`).
  let json: [UInt8]
  /// The journal's name as shown.
  public let name: String
  /// The journal's records and their lines (for a comparison of two runs).
  let records: [Record]
  let lines: [Int]

  /// The number of events the report shows.
  public var eventCount: Int { window.count }

  /// Events between two keyframes.
  public static let keyframeInterval = 128
  /// The largest window written when none is asked for: past it the page would
  /// outgrow the journal's size budget and the browser's comfortable memory.
  public static let defaultMaxEvents = 250_000

  /// Prepares a journal's records for the page.
  ///
  /// - Parameters:
  ///   - name: the journal's name as shown.
  ///   - records: its records in file order; `lines[i]` is the line of `records[i]`.
  ///   - findings: `check`'s findings for it (``JournalCheck``), in line order.
  ///   - seqs: show only the events whose seq is in this range (`--from`/`--to`).
  ///   - maxEvents: at most this many events; a larger window is cut after
  ///     its first `maxEvents` events, with a note on the page.
  ///   - filter: the events the log lists and the cursor's keys stop at, and
  ///     with controllers, the lanes shown (the state is always the fold of every event).
  /// - Complexity: one fold of every record before the window's end; a map
  ///   layout (O(controllers)) after each event that changes links, modals,
  ///   touches, the root or the controllers alive.
  public init(
    name: String, records: [Record], lines: [Int], findings: [Diagnostic], seqs: ClosedRange<Int>? = nil,
    maxEvents: Int = ReportRun.defaultMaxEvents, filter: EventSelection = EventSelection()
  ) {
    self.init(
      name: name, records: records, lines: lines, findings: findings, seqs: seqs, maxEvents: maxEvents,
      filter: filter, totalEvents: records.count, selectedEvents: nil, lineAfterRecords: nil)
  }

  /// - Parameters:
  ///   - totalEvents: the records of the journal (`records` may stop after the window).
  ///   - selectedEvents: the records `seqs` selects in the whole journal, nil to count them in `records`.
  ///   - lineAfterRecords: the line of the first record not in `records`, nil when they are all there.
  init(
    name: String, records: [Record], lines: [Int], findings: [Diagnostic], seqs: ClosedRange<Int>?,
    maxEvents: Int, filter: EventSelection, totalEvents: Int, selectedEvents: Int?, lineAfterRecords: Int?
  ) {
    precondition(records.count == lines.count, "one line per record")
    self.name = name
    self.records = records
    self.lines = lines
    self.totalEvents = totalEvents
    self.findings = findings
    var lower = 0
    var upper = records.count
    if let seqs {
      lower = records.firstIndex { $0.seq >= seqs.lowerBound } ?? records.count
      upper = records[lower...].firstIndex { $0.seq > seqs.upperBound } ?? records.count
    }
    var note: String? = nil
    let selected = selectedEvents ?? (upper - lower)
    if selected > maxEvents {
      let shownLast = records[lower + maxEvents - 1].seq
      note =
        "This page shows the \(maxEvents.grouped) events seq \(records[lower].seq.grouped)–\(shownLast.grouped) of the "
        + "\(selected.grouped) "
        + "selected: a larger page would be slow to open. Use --from and --to to choose another window."
      upper = lower + maxEvents
    }
    self.window = lower..<upper
    self.windowNote = note
    var builder = ReportRunBuilder(records: records, lines: lines, window: window, filter: filter)
    json = builder.build(
      name: name, findings: findings, note: note, totalEvents: totalEvents, lineAfterRecords: lineAfterRecords)
  }

  /// Reads a journal and runs `check`'s rules over it in the same pass (with `model`,
  /// `check --model`'s comparison with the reference model of that profile too).
  ///
  /// - Returns: the run, and the findings of the reader alone (to print).
  /// - Throws: ``JournalFileError`` if the file cannot be opened or read.
  public static func read(
    path: String, name: String? = nil, options: ReadOptions = .init(), seqs: ClosedRange<Int>? = nil,
    maxEvents: Int = ReportRun.defaultMaxEvents, filter: EventSelection = EventSelection(), model: Profile? = nil
  ) throws(JournalFileError) -> (run: ReportRun, readerFindings: [Diagnostic]) {
    // Implementation note: the records after the window are checked, counted
    // and dropped (a 1M-event journal shown as its first 250,000 keeps those).
    let reader = try JournalReader(path: path, options: options)
    var records: [Record] = []
    var lines: [Int] = []
    var check = JournalCheck(rules: .all, model: model)
    var found: [CheckFinding] = []
    var readerFindings: [Diagnostic] = []
    var total = 0
    var selected = 0
    var inWindow = false
    var pastWindow = false
    var lineAfterRecords: Int? = nil
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, _):
        total += 1
        if !pastWindow {
          if !inWindow && record.seq >= (seqs?.lowerBound ?? .min) { inWindow = true }
          if inWindow && record.seq > (seqs?.upperBound ?? .max) { pastWindow = true }
        }
        if inWindow && !pastWindow { selected += 1 }
        if !pastWindow && selected <= maxEvents {
          records.append(record)
          lines.append(line)
        } else if lineAfterRecords == nil {
          lineAfterRecords = line
        }
      case .diagnostic(let diagnostic):
        readerFindings.append(diagnostic)
      }
      check.consume(item, into: &found)
    }
    if let error = reader.readError { throw error }
    check.finish(into: &found)
    let run = ReportRun(
      name: name ?? path, records: records, lines: lines, findings: found.map(\.diagnostic), seqs: seqs,
      maxEvents: maxEvents, filter: filter, totalEvents: total, selectedEvents: selected,
      lineAfterRecords: lineAfterRecords)
    return (run, readerFindings)
  }
}
