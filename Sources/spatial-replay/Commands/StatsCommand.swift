import Journal
import Projection

/// `stats FILE...`: counts, visits, dwell times, modals and findings per session and overall.
struct StatsCommand: Command {
  static let name = "stats"
  static let abstract = "Statistics per session and overall: events, moves, pans, visits, dwell, modals, findings"
  static let help = """
    usage: spatial-replay stats [--json] FILE...

    Reads each journal ('-' for standard input) once, streaming, and reports per
    session and, for several journals, overall:
      - events by type;
      - moves by direction and by trigger, and how many were animated;
      - pans by outcome;
      - visits and dwell time per controller: a visit runs from a didAppear to
        the controller's next willDisappear (or its dealloc); a visit still open
        at the end counts up to the journal's last event and is flagged open;
      - modals presented, deallocated, leaked (never deallocated by the end),
        and modal-leak findings;
      - findings by rule, as 'check' reports them (integrity and lifecycle).
    Overall merges controllers by id and sums their dwell.

    options:
      --json                 one JSON document: {"sessions":[...],"overall":{...}}
                             (every key is described in docs/tables.md)
      --strict               count every warning as an error
      --max-line-bytes N     longest line accepted, in bytes (default 1048576)
      --max-depth N          deepest JSON nesting accepted (default 64)

    A progress bar shows on stderr when it is a terminal and the work takes
    more than a second.

    exit status: 0 fine (findings are reported, not judged), 2 a file could not
    be read, 64 usage error.

    examples:
      spatial-replay stats Journals/demo.intended.ndjson
      spatial-replay stats --json day1/*.ndjson | jq '.overall.controllers'

    """
  static let spec = ArgumentSpec(
    flags: JournalInput.flagNames.union(["--json"]), options: JournalInput.optionNames)

  var files: [String]
  var options: ReadOptions
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = arguments.positionals
    guard !files.isEmpty else { throw UsageError("stats needs at least one FILE ('-' for standard input)") }
    guard files.filter({ $0 == "-" }).count <= 1 else { throw UsageError("'-' (standard input) can be read only once") }
    options = try JournalInput.readOptions(arguments)
    json = arguments.flag("--json")
  }

  func run(_ context: inout Context) throws -> Int32 {
    var progress = Progress(total: InputSize.total(files), enabled: context.showProgress, callsPerCheck: 1)
    var done: Int64 = 0
    var sessions: [SessionStats] = []
    var unreadable = false
    for path in files {
      guard let reader = PrefetchingReader.open(path, options: options, progress: &progress, context: &context) else {
        unreadable = true
        continue
      }
      var builder = StatsBuilder(file: path)
      while let batch = reader.nextBatch() {
        batch.withUnsafeBufferPointer { items in
          for i in items.indices { builder.consume(items[i]) }
        }
        progress.update(done + reader.bytesRead, &context.stderr)
      }
      done += reader.bytesRead
      guard reader.readToTheEnd(progress: &progress, context: &context) else {
        unreadable = true
        continue
      }
      sessions.append(builder.finish())
    }
    progress.finish(&context.stderr)
    let report = StatsReport(sessions: sessions)
    if json {
      context.stdout.write(report.json)
      context.stdout.write("\n")
    } else {
      report.writeText(to: &context.stdout)
    }
    return unreadable ? ExitCode.badInput : ExitCode.ok
  }
}
