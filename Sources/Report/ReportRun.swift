import Journal
import Projection

/// One journal prepared for the HTML report: every event of a window of it
/// folded once, with what the page shows after each event encoded as data the
/// page only has to apply.
///
/// The page never re-runs the model. For every event the fold's result is
/// kept as a *delta* from the state after the event before it (the rows of the
/// controllers it changed, the focus, the transition in flight, the map's
/// layout when it changed), and as a whole *keyframe* (the alive controllers'
/// rows) whenever the deltas since the last keyframe outweigh one; the page
/// seeks by taking the keyframe at or before the cursor and applying the
/// deltas after it. Layouts are ``MapLayout``'s placements (the ones `map` and
/// `at` draw), the detached controllers and the links, written as what changed,
/// and whole when the changes since the last whole layout outweigh it. Every
/// string is written once, in one table. The page's size is linear in the
/// events whatever the number of controllers. Lifecycle lanes, log sentences
/// and findings come from the same pass.
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
  /// The findings of `check` (the reader's and the lifecycle rules'), in line order, for the whole journal;
  /// of each format rule only the first ``maxFindingsPerFormatRule`` (the page says how many more there were).
  public let findings: [CheckFinding]
  /// The data block for the page (one JSON object, safe inside `<script>`), in pieces to write one after the other.
  let json: [[UInt8]]
  /// The journal's name as shown.
  public let name: String
  /// The journal's records and their lines (for a comparison of two runs).
  let records: [Record]
  let lines: [Int]

  /// The number of events the report shows.
  public var eventCount: Int { window.count }

  /// The largest window written when none is asked for: past it the page would
  /// outgrow the journal's size budget and the browser's comfortable memory.
  public static let defaultMaxEvents = 250_000
  /// The findings of one format rule the page lists: a journal of fifty million
  /// blank lines keeps its first ones and the count of the others, not one each.
  public static let maxFindingsPerFormatRule = 1_000

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
  /// - Complexity: one fold of every record before the window's end; a walk
  ///   of the placed controllers (O(placed)) after each event that can move
  ///   one (a root, a link touching a placed controller, a placed one's dealloc).
  public init(
    name: String, records: [Record], lines: [Int], findings: [CheckFinding], seqs: ClosedRange<Int>? = nil,
    maxEvents: Int = ReportRun.defaultMaxEvents, filter: EventSelection = EventSelection()
  ) {
    self.init(
      name: name, records: records, lines: lines, findings: findings, seqs: seqs, maxEvents: maxEvents,
      filter: filter, totalEvents: records.count, selectedEvents: nil, lineAfterRecords: nil, unlisted: [],
      streamed: nil)
  }

  /// - Parameters:
  ///   - totalEvents: the records of the journal (`records` may stop after the window).
  ///   - selectedEvents: the records `seqs` selects in the whole journal, nil to count them in `records`.
  ///   - lineAfterRecords: the line of the first record not in `records`, nil when they are all there.
  ///   - unlisted: findings left out of `findings`, per rule (``maxFindingsPerFormatRule``).
  ///   - streamed: a builder that has already stepped through the window's events, and the state
  ///     after the window's last one (``read(path:name:options:seqs:maxEvents:filter:shown:model:trace:)``),
  ///     nil to fold `records` here.
  init(
    name: String, records: [Record], lines: [Int], findings: [CheckFinding], seqs: ClosedRange<Int>?,
    maxEvents: Int, filter: EventSelection, totalEvents: Int, selectedEvents: Int?, lineAfterRecords: Int?,
    unlisted: [(rule: FormatRule, count: Int)], streamed: (builder: ReportRunBuilder, state: State)?
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
    if !unlisted.isEmpty {
      let count = unlisted.reduce(0) { $0 + $1.count }
      let byRule = unlisted.map { "\($0.rule) \($0.count.grouped)" }.joined(separator: ", ")
      let more =
        "\(count.counted("more format finding")) not listed (\(byRule)): the first "
        + "\(Self.maxFindingsPerFormatRule.grouped) of each rule are; 'spatial-replay check' lists them all."
      note = note.map { $0 + " " + more } ?? more
    }
    if var builder = streamed?.builder, let state = streamed?.state {
      json = builder.finish(
        state, records: records, lines: lines, window: window, name: name, findings: findings, note: note,
        totalEvents: totalEvents, lineAfterRecords: lineAfterRecords)
    } else {
      var builder = ReportRunBuilder(filter: filter, events: window.count)
      json = builder.build(
        records: records, lines: lines, window: window, name: name, findings: findings, note: note,
        totalEvents: totalEvents, lineAfterRecords: lineAfterRecords)
    }
  }

  /// Reads a journal and runs `check`'s rules over it in the same pass (with `model`,
  /// `check --model`'s comparison with the reference model of that profile too).
  ///
  /// - Parameters:
  ///   - shown: which of the reader's findings to return (to print); it counts the others.
  ///   - trace: also writes the journal, as the next run, into the page's Chrome trace; with
  ///     an automatic window (more than `maxEvents` events), the trace ends with the window too.
  /// - Returns: the run, the findings of the reader alone that `shown` admitted, and
  ///   `shown` with the count of those it did not (``DiagnosticLimit/omissions(file:)``).
  /// - Throws: ``JournalFileError`` if the file cannot be opened or read.
  /// - Complexity: memory is the records kept (the window) and their findings, plus at
  ///   most ``maxFindingsPerFormatRule`` findings of each format rule.
  public static func read(
    path: String, name: String? = nil, options: ReadOptions = .init(), seqs: ClosedRange<Int>? = nil,
    maxEvents: Int = ReportRun.defaultMaxEvents, filter: EventSelection = EventSelection(),
    shown: DiagnosticLimit = DiagnosticLimit(), model: Profile? = nil, trace: ReportTrace? = nil
  ) throws(JournalFileError) -> (run: ReportRun, readerFindings: [Diagnostic], shown: DiagnosticLimit) {
    let reader = try JournalReader(path: path, options: options)
    return try Self.read(
      name: name ?? path, seqs: seqs, maxEvents: maxEvents, filter: filter, shown: shown, model: model, trace: trace
    ) { (checking, take) throws(JournalFileError) in
      var pass = checking
      var items = JournalBatch()
      items.items.reserveCapacity(batchSize)
      func flush() {
        let checked = pass.check(&items)
        take(&items, checked)
        items.items.removeAll(keepingCapacity: true)
        items.items.reserveCapacity(batchSize)
      }
      while let item = reader.next() {
        items.append(consume item)
        if items.count == batchSize { flush() }
      }
      flush()
      if let error = reader.readError { throw error }
      return (pass.finish(), pass.state, pass.folding)
    }
  }

  /// The bytes the records of a page's window hold at most (``Record/heldBytes``): a window
  /// of `maxEvents` records ends sooner, with the same note, once its records hold this
  /// much (marks with long labels would otherwise hold gigabytes; the page shows each shortened).
  public static let maxWindowBytes = 64 << 20

  /// Items per batch when ``read(path:name:options:seqs:maxEvents:filter:shown:model:trace:)`` reads them itself.
  static let batchSize = 4096

  /// What the checker's pass leaves at the end of a journal: its last findings
  /// (``CheckerPass/finish()``), its state and its ``CheckerPass/folding``.
  public typealias PassEnd = (findings: [Finding], state: State?, folding: (any FoldConsumer)?)

  /// ``read(path:name:options:seqs:maxEvents:filter:shown:model:trace:)`` of
  /// items read and checked elsewhere, batch by batch: `batches` checks the
  /// journal's items with the ``CheckerPass`` it is given (every rule, `model`,
  /// and the page's builder stepping through its fold), hands each batch, in
  /// file order, with what the pass found in it, to `take` (which may keep the
  /// items: with a trace, it leaves the batch empty), and returns what
  /// the pass left at the end (a ``JournalPass``'s ``JournalPass/finalFindings``,
  /// ``JournalPass/finalState`` and ``JournalPass/finalFolding``). The command
  /// reads, decodes and checks (and steps the page's builder) on other threads
  /// while this one merges the findings and keeps the window's records; a read
  /// error is the caller's to throw.
  ///
  /// ```swift
  /// let reader = try JournalReader(path: "Journals/notes.legacy.ndjson")
  /// let (run, _, _) = ReportRun.read(name: "notes") { checking, take in
  ///   var pass = checking
  ///   var items = JournalBatch()
  ///   while let item = reader.next() { items.append(item) }
  ///   let checked = pass.check(&items)
  ///   take(&items, checked)
  ///   return (pass.finish(), pass.state, pass.folding)
  /// }
  /// ```
  public static func read<E: Error>(
    name: String, seqs: ClosedRange<Int>? = nil, maxEvents: Int = ReportRun.defaultMaxEvents,
    filter: EventSelection = EventSelection(), shown: DiagnosticLimit = DiagnosticLimit(), model: Profile? = nil,
    trace: ReportTrace? = nil,
    batches: (_ checking: CheckerPass, _ take: (inout JournalBatch, CheckedBatch) -> Void) throws(E) -> PassEnd
  ) throws(E) -> (run: ReportRun, readerFindings: [Diagnostic], shown: DiagnosticLimit) {
    // Implementation note: the records after the window are checked, counted
    // and dropped (a 1M-event journal shown as its first 250,000 keeps those).
    // The checker's pass folds every record once, and the page's builder
    // steps through that fold on the checker's thread (``ReportFold``); this
    // one merges the findings, keeps the window's records and feeds the trace.
    var records: [Record] = []
    var lines: [Int] = []
    var check = JournalCheck(rules: .all, model: model)
    var found: [CheckFinding] = []
    var listed: [CheckFinding] = []
    var perRule: [FormatRule: Int] = [:]
    var unlisted: [(rule: FormatRule, count: Int)] = []
    func list(_ findings: inout [CheckFinding]) {
      for finding in findings {
        guard case .format(let diagnostic) = finding else {
          listed.append(finding)
          continue
        }
        let rule = diagnostic.rule
        let count = perRule[rule, default: 0]
        perRule[rule] = count + 1
        if count < maxFindingsPerFormatRule {
          listed.append(finding)
        } else if let i = unlisted.firstIndex(where: { $0.rule == rule }) {
          unlisted[i].count += 1
        } else {
          unlisted.append((rule, 1))
        }
      }
      findings.removeAll(keepingCapacity: true)
    }
    var shown = shown
    var readerFindings: [Diagnostic] = []
    var window = ReportWindow(seqs: seqs, maxEvents: maxEvents)
    var lineAfterRecords: Int? = nil
    /// The seq of the window's last event so far, and whether the automatic window ended the trace there.
    var lastShown: Int? = nil
    var cut = false
    // Room for a full window up front: memory that is reserved but never written costs no page,
    // and growing by doubling copied the records and faulted in about twice their pages.
    let room = min(maxEvents, defaultMaxEvents)
    records.reserveCapacity(room)
    lines.reserveCapacity(room)
    let fold = ReportFold(window: window, builder: ReportRunBuilder(filter: filter, events: room))
    let checking = CheckerPass(rules: .all, model: model, facts: trace != nil, folding: fold)
    trace?.beginRun(file: name)
    let end = try batches(checking) { items, checked in
      /// The item at which the automatic window ended the trace, in this batch.
      var cutAt: Int? = nil
      for i in 0..<items.count {
        switch items.items[i] {
        case .record(let record, let line, _):
          let taken = window.take(record)
          if taken.kept {
            records.append(record)
            lines.append(line)
            if taken.shown { lastShown = record.seq }
          } else if lineAfterRecords == nil {
            lineAfterRecords = line
          }
          if !cut && window.isCut && lastShown != nil {
            cut = true
            cutAt = i
          }
          check.consume(&items.items[i], at: i, checked: checked, into: &found)
        case .diagnostic(let diagnostic):
          if shown.admit(diagnostic) { readerFindings.append(diagnostic) }
          check.consume(&items.items[i], at: i, checked: checked, into: &found)
        }
        if !found.isEmpty { list(&found) }
      }
      if let trace, let cutAt, let lastShown {
        // Split there: the trace draws nothing past the window from that item on, as it would item by item.
        var before = JournalBatch(Array(items.items[..<cutAt]))
        var after = JournalBatch(Array(items.items[cutAt...]))
        trace.consume(&before, checked: checked.slice(0..<cutAt))
        trace.drawNothing(after: lastShown)
        trace.consume(&after, checked: checked.slice(cutAt..<items.count))
      } else {
        // The batch goes to the trace's thread (the caller does not read it again).
        trace?.consume(&items, checked: checked)
      }
    }
    trace?.endRun(checked: end.findings)
    check.finish(checked: end.findings, into: &found)
    list(&found)
    // Without the page's builder back (a caller that checked with a pass of its own), the page
    // folds its records itself.
    var streamed: (builder: ReportRunBuilder, state: State)? = nil
    if let fold = end.folding as? ReportFold, fold.begun, let state = fold.stateAfterWindow ?? end.state {
      streamed = (fold.builder, state)
    }
    let run = ReportRun(
      name: name, records: records, lines: lines, findings: listed, seqs: seqs,
      maxEvents: window.limit, filter: filter, totalEvents: window.total, selectedEvents: window.selected,
      lineAfterRecords: lineAfterRecords, unlisted: unlisted, streamed: streamed)
    return (run, readerFindings, shown)
  }
}
