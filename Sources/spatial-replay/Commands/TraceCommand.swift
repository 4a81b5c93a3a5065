import Journal
import Projection
import Rendering

/// `trace FILE [B] --format chrome|otlp`: a journal as a trace for Chrome's
/// tracing and Perfetto, or for an OpenTelemetry collector. The trace is
/// built by ``TraceWriter`` in the library; this file reads, writes and
/// decides the exit status.
struct TraceCommand: Command {
  static let name = "trace"
  static let abstract = "Write a journal as a Chrome/Perfetto trace or as OTLP/JSON spans (OpenTelemetry)"
  static let usage = ["spatial-replay trace --format chrome|otlp [options] FILE [B] [-o OUT]"]
  static let discussion = """
    Reads the journal ('-' for standard input) once, streaming, and writes it
    as a trace. With a second journal B (another run), B is drawn beside the
    first: a second process in a Chrome trace, a second trace in OTLP.

    chrome: the Trace Event Format (JSON, open it in Perfetto UI,
    chrome://tracing or Chrome's Performance panel): one process per run, one
    thread per controller (the root first) with its visits and appearance
    phases as nested slices, every lifecycle callback, move, modal and dealloc
    as an instant, each move a flow arrow to the controller it arrives at, a
    'pans' thread with each pan as a slice, and a 'findings' thread with every
    finding of 'check'. Times are microseconds from the run's first event.

    otlp: OTLP/JSON as OpenTelemetry's file exporter writes it (JSON Lines, one
    TracesData per line) for any OTLP collector: one trace per session (its id
    derived from the session id), a root span for the session and one span per
    visit (the rows of 'export --table visits') with screen.name,
    screen.class, last.screen.name, app.build and device.model.name; callbacks,
    moves, pans and findings are span events, a finding sets its span's status
    to error.

    --from/--to, --since/--until and --controller choose what is drawn (a
    visit or a slice by the event that begins it, as 'export' selects rows);
    the model still reads every event. docs/trace.md describes the mapping.
    Findings do not change the exit status.

    -o OUT replaces OUT atomically once the trace is complete (a reader or a
    killed command never sees part of one); the trace, made again from the
    journal at will, is left to the system to write to the disk, unless
    --durable asks the command to wait for that.
    """
  static let format = Option.value(
    "--format", "FORMAT",
    "chrome: the Trace Event Format (Perfetto, chrome://tracing); otlp:\nOTLP/JSON lines for OpenTelemetry (required)",
    values: .cases(TraceFormat.self))
  static let durable = Option.flag(
    "--durable",
    "with -o: the file is on the disk (fdatasync) before it replaces OUT;\nslower, as fast as the disk writes")
  static let options =
    [format, Option.output, durable] + Option.filters + Option.reading
  static let exitStatus = """
    0 written, 2 a file could not be read or has format errors (the trace is
    still written, from every event that could be read), or the output could
    not be written, 64 usage error.
    """
  static let examples = [
    "spatial-replay trace --format chrome Journals/notes.legacy.ndjson -o notes.trace.json",
    "spatial-replay trace --format chrome Journals/bisect/build-07.ndjson Journals/bisect/build-08.ndjson -o ab.json",
    "spatial-replay trace --format otlp session.ndjson -o spans.jsonl",
    "spatial-replay trace --format otlp --controller compose --from 100 --to 900 session.ndjson",
  ]

  var files: [String]
  var format: TraceFormat
  var output: String?
  var durable: Bool
  var filter: EventFilter
  var reading: ReadOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try arguments.oneOrTwoJournals(
      Self.name, needs: "needs one FILE, or two runs A and B ('-' for standard input)")
    guard !(files.count == 2 && files[0] == "-" && files[1] == "-") else {
      throw UsageError("only one of A and B can be '-'")
    }
    guard let format = arguments.choice(Self.format, as: TraceFormat.self) else {
      throw UsageError("trace needs --format (chrome or otlp)")
    }
    self.format = format
    output = arguments.value(Option.output)
    if output == "" { throw UsageError("-o needs a path") }
    if output == "-" { output = nil }
    if let output { try InputFiles(files).refuse(output) }
    durable = arguments.flag(Self.durable)
    if durable && output == nil { throw UsageError("--durable syncs the file written with -o OUT: give -o") }
    filter = try EventFilter(arguments)
    if !filter.types.isEmpty {
      throw UsageError(
        "--type: a trace draws every type of event (choose with --controller, --from/--to, --since/--until)")
    }
    reading = try ReadOptions(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    if output == nil && context.stdoutIsTerminal {
      throw UsageError("a trace is a data file: write it to a file with -o OUT (or redirect standard output)")
    }
    let selection = TraceSelection(
      seqs: filter.from...filter.to, since: filter.since, until: filter.until, controllers: filter.controllers)
    var trace = TraceWriter(format: format, selection: selection, version: SpatialReplay.version)
    var verdict = Verdict()
    var filter = self.filter
    context.stdout.flush()
    // A file is written (and with --durable synced) on a thread of its own while the trace is made
    // (FileWriterThread).
    let file = try output.map { path throws(CommandFailure) in
      FileWriterThread(try AtomicFile(path: path), sync: durable)
    }
    func write(_ bytes: [UInt8], _ context: inout Context) throws(CommandFailure) {
      if let file {
        try file.write(bytes)
      } else {
        context.stdout.write(bytes: bytes)
        context.stdout.flush()
        if context.stdout.failed {
          throw CommandFailure("cannot write to standard output: \(context.stdout.failureText)")
        }
      }
    }
    do {
      for path in files {
        let name = JournalInput.displayName(path)
        let reader: JournalPass
        do {
          reader = try JournalPass(path: path, options: reading, checking: CheckerPass(facts: TraceWriter.readsFacts))
        } catch {
          throw CommandFailure(displayText(error.description, limit: .max))
        }
        trace.beginRun(file: name)
        while var batch = reader.next() {
          batch.items.forEachItem { _, item in
            if case .diagnostic(let diagnostic) = item {
              verdict.note(diagnostic)
              if diagnostic.severity == .error { context.stderr.write(diagnostic, file: name) }
            } else if !filter.controllers.isEmpty {
              item.withRecord { record, _ in filter.noteSeen(record.event.controllers) }
            }
          }
          trace.consume(&batch.items, checked: batch.checked)
          Disposal.release(consume batch)
          if trace.pendingBytes >= 1 << 19 {
            if let file {
              try file.write(trace.take(leaving: file.spare()))
            } else {
              try trace.drain { (bytes) throws(CommandFailure) in try write(bytes, &context) }
            }
          }
        }
        if let error = reader.readError {
          throw CommandFailure(displayText(error.description, limit: .max))
        }
        trace.endRun(checked: reader.finalFindings)
      }
      try filter.checkControllersSeen()
      trace.finish()
      try trace.drain { (bytes) throws(CommandFailure) in try write(bytes, &context) }
      try file?.commit()
    } catch {
      file?.abandon()
      throw error
    }
    // Its lanes (one per controller drawn, tens of thousands in a large churn journal) let go of
    // on the disposing thread: the trace is written, and the command's status need not wait for
    // them.
    Disposal.release(consume trace)
    return verdict.status
  }
}
