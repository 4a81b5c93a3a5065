import Journal
import Projection
import Rendering

/// `stats FILE...`: counts, visits, dwell times, modals and findings per session and overall.
struct StatsCommand: Command {
  static let name = "stats"
  static let abstract = "Statistics per session and overall: events, moves, pans, visits, dwell, modals, findings"
  static let usage = ["spatial-replay stats [options] FILE..."]
  static let discussion = """
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
      - findings by rule, as 'check' reports them (format and lifecycle).
    Overall merges controllers by id and sums their dwell.

    A progress bar shows on stderr when it is a terminal and the work takes
    more than a second.
    """
  static let by = Option.list(
    "--by", "KEY",
    "group the journals by these header fields (comma-separated):\n\(StatsKey.allCases.map(\.rawValue).joined(separator: ", ")); per group the same\nstats as overall, instead of one block per journal; class (alone or\nwith fields): the controllers' rows merged by class",
    values: .oneOf(StatsKey.allCases.map(\.rawValue) + ["class"]))
  static let format = AnalysisFormat.option(
    csv:
      " (with --by): one row per group,\nmeasure and item (see docs/tables.md)")
  /// `--json`, or a `--format` other than text.
  static func writesJSON(_ arguments: ParsedArguments) -> Bool {
    arguments.flag(Option.json) || arguments.choice(format).map { $0 != AnalysisFormat.text.rawValue } ?? false
  }
  static let options =
    [
      Option.json.help(
        "one JSON document: {\"sessions\":[...],\"overall\":{...}}, keys in\ncamelCase (every key is described in docs/tables.md); with --by\n{\"by\":[KEY...],\"groups\":[{\"key\":{...},...}],\"overall\":{...}}"
      ),
      format, by, Option.rawCSV,
    ] + Option.reading + [Option.jobs]
  static let exitStatus = """
    0 fine (lifecycle findings are counted, not judged), 2 a file could not be
    read or a journal has format errors, 64 usage error.
    """
  static let examples = [
    "spatial-replay stats Journals/demo.intended.ndjson",
    "spatial-replay stats --json day1/*.ndjson | jq '.overall.controllers'",
    "spatial-replay stats --by build,device --format csv fleet/ > by-build.csv",
    "spatial-replay stats --by build,class fleet/",
  ]

  var files: [String]
  /// `--raw-csv`: CSV text cells as they are.
  var rawCSV = false
  var options: ReadOptions
  var format: AnalysisFormat
  /// `--by`: the fields to group by, none for one block per journal.
  var keys: [StatsKey]
  /// `--by class`: the controllers' rows merged by class.
  var byClass: Bool
  var runner: FleetRunner

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try JournalInput.paths(arguments, command: Self.name)
    rawCSV = arguments.flag(Option.rawCSV)
    options = try ReadOptions(arguments)
    format = try Self.outputFormat(arguments, format: Self.format)
    let names = arguments.values(Self.by)
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      throw UsageError("--by names \(twice) twice")
    }
    let keys = names.compactMap(StatsKey.init(rawValue:))
    self.keys = keys
    byClass = names.contains("class")
    guard format != .csv || !keys.isEmpty else {
      throw UsageError("--format csv is the table of groups: give --by (e.g. --by session for one row set per journal)")
    }
    runner = try FleetRunner(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var sessions: [SessionStats] = []
    var groups = StatsGroups(by: keys)
    var verdict = Verdict()
    let (options, grouped, byClass) = (options, !keys.isEmpty, byClass)
    try runner.run(files, context: &context) { path, context, progress in
      Self.stats(path, options: options, &context, &progress)
    } deliver: { _, session, _ in
      guard var session else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(session.formatErrors)
      if byClass { session = session.mergedByClass() }
      // Grouped, only the groups are kept: memory follows the groups, not the journals.
      if grouped { groups.add(session) } else { sessions.append(session) }
    }
    if grouped {
      switch format {
      case .json: context.stdout.write(groups.json + "\n")
      case .csv:
        var bytes: [UInt8] = []
        groups.writeCSV(guardingFormulas: !rawCSV, to: &bytes)
        context.stdout.write(bytes: bytes)
      case .text: groups.writeText(to: &context.stdout)
      }
      return verdict.status
    }
    let report = StatsReport(sessions: sessions)
    if format == .json {
      context.stdout.write(report.json)
      context.stdout.write("\n")
    } else {
      report.writeText(to: &context.stdout)
    }
    return verdict.status
  }

  /// One journal's stats; nil (reported on stderr) when it cannot be read.
  private static func stats(
    _ path: String, options: ReadOptions, _ context: inout Context, _ progress: inout FileProgress
  ) -> SessionStats? {
    // The checker on a thread of its own, as for `check`: this one follows the visits.
    let reader: JournalPass
    do {
      reader = try JournalPass(
        path: path, options: options, checking: CheckerPass(facts: StatsBuilder.readsFacts))
    } catch {
      progress.finish(&context.stderr)
      context.error(displayText(error.description, limit: .max))
      return nil
    }
    var builder = StatsBuilder(file: JournalInput.displayName(path))
    reader.run(&builder) { _ in progress.update(reader.bytesRead, &context.stderr) }
    if let error = reader.readError {
      progress.finish(&context.stderr)
      context.error(displayText(error.description, limit: .max))
      return nil
    }
    guard let state = reader.finalState else { return nil }
    return builder.finish(checked: reader.finalFindings, state: state)
  }
}
