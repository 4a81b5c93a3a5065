import Journal
import Projection
import Rendering

/// `paths FILE|DIR...`: the most frequent runs of K consecutive screens.
struct PathsCommand: Command {
  static let name = "paths"
  static let abstract = "The most frequent paths: runs of K consecutive screens of the screen sequence"
  static let usage = ["spatial-replay paths [options] FILE|DIR..."]
  static let discussion = """
    A session's screen sequence is its focus each time it changes, from the
    initial display on (as 'at' shows the focus). A path of K steps is K
    consecutive entries of it. For each path: count, how many times it
    occurs (overlapping runs included), and sessions, how many sessions (by
    the header's session id) hold it at least once. Paths are listed by
    count, then sessions (both descending), then by their screens.

    With --by class (the default) a screen is a controller's class, so that
    the instances of one class (ComposeViewController#1, #2, ...) are one
    screen; --by controller uses the ids. Header fields in --by (--by
    build,device) split the journals into groups by their values, as stats
    --by does: the paths of each group (builds in version order, a journal
    without the field in the group "(none)", last), then overall.
    """
  static let steps = Option.value("--steps", "K", "screens per path, at least 1 (default 3)")
  static let top = Option.value("--top", "N", "the first N paths only (default 20; 0 for all)")
  static let format = AnalysisFormat.option(
    csv:
      ": count,sessions,step_1..step_K\n(KEY...,count,... with header fields in --by: the groups' rows)")
  static let options = NavigationInput.options(
    [steps, NavigationInput.screenKey, top, Option.rawCSV],
    json:
      "{\"paths\":[{\"path\":[...],\"count\":N,\"sessions\":M}, ...]}; with header\nfields in --by {\"by\":[KEY...],\"groups\":[{\"key\":{...},\"sessions\":N,\n\"paths\":[...]}, ...],\"overall\":{\"sessions\":N,\"paths\":[...]}}",
    format: format)
  static let exitStatus = NavigationInput.exitStatus
  static let examples = [
    "spatial-replay paths Journals/notes.intended.ndjson",
    "spatial-replay paths --steps 4 --top 10 --json fleet/",
    "spatial-replay paths --by controller --format csv day1/*.ndjson > paths.csv",
    "spatial-replay paths --by build,device --steps 2 fleet/",
  ]

  var input: NavigationInput.Journals
  /// `--raw-csv`: CSV text cells as they are.
  var rawCSV = false
  var length: Int
  /// `--top`: the first paths only (nil: all).
  var top: Int?
  var format: AnalysisFormat

  init(_ arguments: ParsedArguments) throws(UsageError) {
    input = try NavigationInput.Journals(arguments, command: Self.name)
    rawCSV = arguments.flag(Option.rawCSV)
    length = try arguments.int(Self.steps, min: 1) ?? 3
    let first = try arguments.int(Self.top, min: 0) ?? 20
    top = first == 0 ? nil : first
    format = try Self.outputFormat(arguments, format: Self.format)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var overall = PathTotals()
    var groups = HeaderGroups(by: input.fields, empty: PathTotals())
    var verdict = Verdict()
    let (options, limit, length, key, grouped) = (input.options, input.limit, length, input.key, !input.fields.isEmpty)
    try input.runner.run(input.files, context: &context) { path, context, progress in
      var counter = PathCounter(steps: length, key: key)
      var tracker = ScreenTracker()
      guard
        let read = NavigationInput.read(
          path, options: options, limit: limit, &context, &progress, fold: &counter,
          { counter, record in
            if case .step(let step) = tracker.consume(record) { counter.add(step) }
          })
      else { return nil as NavigationInput.Read<PathCounter>? }
      return NavigationInput.Read(read, result: counter)
    } deliver: { _, read, _ in
      guard let read else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(read.formatErrors)
      overall.add(read.result, session: read.session)
      if grouped { groups.update(groups.key(of: read.header)) { $0.add(read.result, session: read.session) } }
    }
    let table = PathsTable(steps: length, top: top, guardsFormulas: !rawCSV)
    switch format {
    case .json: context.stdout.write(bytes: table.json(groups, overall: overall))
    case .csv: table.writeCSV(groups, overall: overall, to: &context.stdout)
    case .text: table.writeText(groups, overall: overall, to: &context.stdout)
    }
    return verdict.status
  }
}
