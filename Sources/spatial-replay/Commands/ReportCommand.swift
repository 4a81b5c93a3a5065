import Journal
import Projection
import Rendering
import Report

/// `report FILE` / `report A B`: one self-contained HTML page with the map,
/// the state, the log, the lifecycle lanes and the findings (and, for two
/// runs, their divergence and hunks). The page is computed by ``ReportRun``,
/// ``ReportComparison`` and ``ReportPage`` in the library.
struct ReportCommand: Command {
  static let name = "report"
  static let abstract = "Write an HTML page: map, scrubber, state, log, lifecycle lanes, findings; two runs"
  static let usage = [
    "spatial-replay report [options] FILE [-o OUT.html]", "spatial-replay report [options] A B [-o OUT.html]",
  ]
  static let discussion = """
    Writes one self-contained HTML page (inline style and script, no network
    access, works offline from file://) about a journal: its header and
    findings by rule, the map as 'map' draws it (a double line where a pan
    needs two fingers), a scrubber over the events (keys: ← → one event,
    Shift+← → one move, Home/End, ] [ next/previous finding, / search; the
    URL fragment #seq=N opens the page at seq N), the state after the cursor's
    event as 'at' prints it, the log around it, every controller's lifecycle
    as a lane, and the findings 'check' reports, sortable and filterable.
    With two journals A and B (two runs of one scenario), both runs side by
    side along the alignment 'diff' computes, with the first divergence and
    every hunk; the cursor moves both. Their controllers are matched as
    'diff' matches them (--match: by default by class and order of allocation
    when the ids of both runs are instance counters or addresses, else by id).

    Without -o the page goes to standard output, unless that is a terminal.
    --from/--to (seq) and --since/--until (time) choose the events shown (one
    journal file; a time window costs one more read of it); --type and --controller
    choose the events the log lists and the keys stop at, and --controller the
    lanes shown (the state is still the fold of every event). Findings do not
    change the exit status.

    With --trace the page also carries a 'download trace' link that saves the
    Chrome trace of the same journals, the bytes of 'trace --format chrome'
    with the same --from/--to, --since/--until and --controller (and, when the
    page shows an automatic window, --to its last seq), gzip-compressed in the
    page (about a fifth more page, and about twice the time to write it).
    Without it (or with --no-trace, the default's explicit spelling) the page
    has no trace and stays smaller than the journal and cheap to write.
    """
  static let maxEvents = Option.value(
    "--max-events", "N",
    "at most N events on the page (default 250000); a larger\nselection shows its first N with a note")
  static let model = Option.model.help(
    "also compare the recording with the reference model of PROFILE\n(intended, the default, or legacy): its model-divergence findings\nare on the page with the others, as 'check --model'"
  )
  static let trace = Option.flag(
    "--trace",
    "also carry the Chrome trace of the same journals in the page, with\na 'download trace' link that saves it (a larger page, about\ntwice the time to write)"
  )
  static let noTrace = Option.flag(
    "--no-trace", "no trace and no 'download trace' link (the default)")
  static let options =
    [Option.output, fleet] + Option.filters + [maxEvents, model, trace, noTrace, Option.match] + Option.reading
    + [Option.maxErrors]
  static let exitStatus = """
    0 written, 2 a file could not be read, has format errors or --from/--to
    (--since/--until) select no event, 64 usage error.
    """
  static let examples = [
    "spatial-replay report Journals/notes.legacy.ndjson -o notes.html",
    "spatial-replay report Journals/bisect/build-07.ndjson Journals/bisect/build-08.ndjson -o bisect.html",
    "spatial-replay report --match class old.ndjson new.ndjson -o compare.html",
    "spatial-replay report --from 5000 --to 9000 big.ndjson > window.html",
    "spatial-replay report --since 2026-11-29T09:00:10Z --until 2026-11-29T09:00:12Z notes.ndjson -o t.html",
    "spatial-replay report --trace Journals/notes.legacy.ndjson -o notes-with-trace.html",
    "spatial-replay report fleet/ -o fleet.html",
  ]

  var files: [String]
  var output: String?
  var seqs: ClosedRange<Int>?
  var maxEvents: Int
  var selection: EventSelection
  /// `--controller`, to check that an event names each id given (the page's filters are in `selection`).
  var controllers = EventFilter()
  /// `--since`/`--until`: turned into a seq window by a first read (time never goes backwards in a sound journal).
  var times: (since: Timestamp?, until: Timestamp?)
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit
  /// `report DIR` or `--fleet`: the journals of the fleet page.
  var fleetFiles: [String]?
  var model: Profile?
  /// What the page's Chrome trace draws (`trace`'s selection of the same options); nil without `--trace`.
  var traceSelection: TraceSelection?
  /// `--match`: how the controllers of two runs are matched.
  var matching: DiffOptions.Matching = .auto

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = arguments.positionals
    if Self.wantsFleet(arguments) {
      guard Option.filters.allSatisfy({ arguments.values($0).isEmpty }),
        arguments.value(Self.maxEvents) == nil
      else {
        throw UsageError("the fleet page (a folder or --fleet) takes no filter or --max-events: it reads every event")
      }
      if arguments.flag(Self.trace) { throw UsageError("--trace: the fleet page has no trace") }
      if arguments.value(Option.match) != nil { throw UsageError("--match lines up two runs A B, not a fleet") }
      let fleetFiles = try JournalInput.paths(arguments, command: Self.name)
      self.fleetFiles = fleetFiles
      output = arguments.value(Option.output)
      if output == "-" { output = nil }
      if let output { try InputFiles(fleetFiles).refuse(output) }
      limit = try DiagnosticLimit(arguments)
      maxEvents = ReportRun.defaultMaxEvents
      selection = EventSelection(types: [], controllers: [])
      reading = try ReadOptions(arguments)
      return
    }
    guard files.count == 1 || files.count == 2 else {
      throw UsageError("report needs one FILE, or two runs A and B ('-' for standard input), got \(files.count)")
    }
    guard !(files.count == 2 && files[0] == "-" && files[1] == "-") else {
      throw UsageError("only one of A and B can be '-'")
    }
    try JournalInput.refuseDirectories(
      files, command: Self.name, reads: "two runs A and B as journals (a folder alone is the fleet page)")
    output = arguments.value(Option.output)
    if output == "-" { output = nil }
    if let output { try InputFiles(files).refuse(output) }
    if files.count == 1 && arguments.value(Option.match) != nil {
      throw UsageError("--match lines up two runs A B; one journal has nothing to match")
    }
    matching = DiffOptions.Matching(arguments)
    model = arguments.flag(Self.model) ? arguments.value(Self.model).flatMap(Profile.init(rawValue:)) ?? .intended : nil
    let filter = try EventFilter(arguments)
    controllers.controllers = filter.controllers
    times = (filter.since, filter.until)
    if filter.since != nil || filter.until != nil {
      guard files.count == 1, !JournalInput.isStream(files[0]) else {
        throw UsageError(
          "--since and --until apply to one journal file (read twice, so not standard input nor a FIFO); "
            + "two runs are shown whole")
      }
    }
    if filter.from > 0 || filter.to < Int.max {
      guard files.count == 1 else { throw UsageError("--from and --to apply to one journal; two runs are shown whole") }
      seqs = filter.from...filter.to
    }
    maxEvents = try arguments.int(Self.maxEvents, min: 1) ?? ReportRun.defaultMaxEvents
    selection = EventSelection(types: filter.types, controllers: filter.controllers)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
    if arguments.flag(Self.trace) && arguments.flag(Self.noTrace) {
      throw UsageError("--trace and --no-trace: choose one")
    }
    if arguments.flag(Self.trace) {
      // As `trace` reads the same options (it has no --type: a trace draws every type).
      traceSelection = TraceSelection(
        seqs: filter.from...filter.to, since: filter.since, until: filter.until, controllers: filter.controllers)
    }
  }

  func run(_ context: inout Context) throws -> Int32 {
    if let fleetFiles { return try runFleet(&context, paths: fleetFiles) }
    if output == nil && context.stdoutIsTerminal {
      throw UsageError("the report is an HTML page: write it to a file with -o OUT.html (or redirect standard output)")
    }
    var verdict = Verdict()
    var runs: [ReportRun] = []
    let trace = traceSelection.map { ReportTrace(selection: $0) }
    var seqs = self.seqs
    var controllers = self.controllers
    if times.since != nil || times.until != nil {
      seqs = try Self.window(files[0], times, within: seqs ?? 0...Int.max)
    }
    for path in files {
      let name = JournalInput.displayName(path)
      let run: ReportRun
      let readerFindings: [Diagnostic]
      let shown: DiagnosticLimit
      // Read, decoded, checked and folded into the page's data on other threads while this one
      // merges the findings.
      (run, readerFindings, shown) = try ReportRun.read(
        name: name, seqs: seqs, maxEvents: files.count == 2 ? .max : maxEvents, filter: selection, shown: limit,
        model: model, trace: trace
      ) { (checking, take) throws(CommandFailure) in
        let reader: JournalPass
        do throws(JournalFileError) {
          reader = try JournalPass(path: path, options: reading, checking: checking)
        } catch {
          throw CommandFailure(displayText(error.description, limit: .max))
        }
        while var batch = reader.next() {
          if !controllers.controllers.isEmpty {
            for case .record(let record, _, _) in batch.items.items { controllers.noteSeen(record.event.controllers) }
          }
          take(&batch.items, batch.checked)
        }
        if let error = reader.readError {
          throw CommandFailure(displayText(error.description, limit: .max))
        }
        return (reader.finalFindings, reader.finalState, reader.finalFolding)
      }
      for finding in readerFindings {
        verdict.note(finding)
        context.stderr.write(finding, file: name)
      }
      for line in shown.omissions(file: displayText(name, limit: .max)) { context.stderr.write(line + "\n") }
      if let note = run.windowNote { context.warning(note) }
      if let seqs, run.eventCount == 0, run.totalEvents > 0 {
        throw CommandFailure(
          "\(displayText(name, limit: .max)) has no event with seq in \(seqs.lowerBound)…"
            + (seqs.upperBound == .max ? "" : "\(seqs.upperBound)"))
      }
      runs.append(run)
    }
    // An id that no event of either run names selects nothing: a usage error with a suggestion, not an empty page.
    try controllers.checkControllersSeen()
    trace?.finish()
    let page: ReportPage
    if runs.count == 2 {
      page = ReportPage(
        a: runs[0], b: runs[1],
        comparison: ReportComparison(runs[0], runs[1], options: DiffOptions(matching: matching)),
        trace: trace)
    } else {
      page = ReportPage(run: runs[0], trace: trace)
    }
    try write(page, &context)
    return verdict.status
  }

  /// Writes a page to `-o` (atomically) or to standard output, piece by piece.
  func write(_ page: ReportPage, _ context: inout Context) throws {
    if let output {
      let file = try AtomicFile(path: output)
      do {
        try page.write { (piece) throws(CommandFailure) in try file.write(piece) }
        try file.commit()
      } catch {
        file.abandon()
        throw error
      }
    } else {
      page.write { context.stdout.write(bytes: $0) }
    }
  }

  /// Writes a page's bytes to `-o` (atomically) or to standard output.
  func write(_ bytes: [UInt8], _ context: inout Context) throws {
    if let output {
      try AtomicFile.replace(output, with: bytes)
    } else {
      context.stdout.write(bytes: bytes)
    }
  }

  /// The seqs of the events in the time window (and in `seqs`): the first and the last one in it.
  static func window(
    _ path: String, _ times: (since: Timestamp?, until: Timestamp?), within seqs: ClosedRange<Int>
  ) throws(CommandFailure) -> ClosedRange<Int> {
    let reader: JournalReader
    do {
      reader = try JournalReader(path: path)
    } catch {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    var first: Int?
    var last: Int?
    while let item = reader.next() {
      guard case .record(let record, _, _) = item, seqs.contains(record.seq) else { continue }
      if let since = times.since, record.time < since { continue }
      if let until = times.until, record.time > until { continue }
      first = first ?? record.seq
      last = record.seq
    }
    guard let first, let last else {
      throw CommandFailure("\(displayText(path, limit: .max)) has no event in the time window")
    }
    return first...last
  }
}
