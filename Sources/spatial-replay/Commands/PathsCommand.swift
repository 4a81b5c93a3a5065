import Journal
import Projection

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
  static let format = Option.value(
    "--format", "FORMAT",
    "text (default); json: as --json; csv: count,sessions,step_1..step_K\n(KEY...,count,... with header fields in --by: the groups' rows)",
    values: .oneOf(["text", "json", "csv"]))
  static let options =
    [
      steps, NavigationInput.screenKey, top, Option.rawCSV,
      Option.json.help(
        "{\"paths\":[{\"path\":[...],\"count\":N,\"sessions\":M}, ...]}; with header\nfields in --by {\"by\":[KEY...],\"groups\":[{\"key\":{...},\"sessions\":N,\n\"paths\":[...]}, ...],\"overall\":{\"sessions\":N,\"paths\":[...]}}"
      ),
      format,
    ] + NavigationInput.readingOptions
  static let exitStatus = NavigationInput.exitStatus
  static let examples = [
    "spatial-replay paths Journals/notes.intended.ndjson",
    "spatial-replay paths --steps 4 --top 10 --json fleet/",
    "spatial-replay paths --by controller --format csv day1/*.ndjson > paths.csv",
    "spatial-replay paths --by build,device --steps 2 fleet/",
  ]

  var files: [String]
  /// `--raw-csv`: CSV text cells as they are.
  var rawCSV = false
  var options: ReadOptions
  var length: Int
  var key: ScreenKey
  /// `--by`'s header fields: the groups the results are split by (none: one result).
  var fields: [StatsKey]
  /// `--top`: the first paths only (nil: all).
  var top: Int?
  var format: String
  var runner: FleetRunner
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try JournalInput.paths(arguments, command: Self.name)
    rawCSV = arguments.flag(Option.rawCSV)
    options = try ReadOptions(arguments)
    length = try arguments.int(Self.steps, min: 1) ?? 3
    (key, fields) = try NavigationInput.by(arguments)
    let first = try arguments.int(Self.top, min: 0) ?? 20
    top = first == 0 ? nil : first
    format = try Self.outputFormat(arguments, format: Self.format)
    runner = try FleetRunner(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var overall = PathTotals()
    var groups = HeaderGroups(by: fields, empty: PathTotals())
    var verdict = Verdict()
    let (options, limit, length, key, grouped) = (options, limit, length, key, !fields.isEmpty)
    try runner.run(files, context: &context) { path, context, progress in
      var counter = PathCounter(steps: length, key: key)
      var tracker = ScreenTracker()
      guard
        let read = NavigationInput.read(
          path, options: options, limit: limit, &context, &progress, fold: &counter,
          { counter, record in
            if case .step(let step) = tracker.consume(record) { counter.add(step) }
          })
      else { return nil as NavigationInput.Read<PathCounter>? }
      return NavigationInput.Read(
        session: read.session, header: read.header, formatErrors: read.formatErrors, result: counter)
    } deliver: { _, read, _ in
      guard let read else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(read.formatErrors)
      overall.add(read.result, session: read.session)
      if grouped { groups.update(groups.key(of: read.header)) { $0.add(read.result, session: read.session) } }
    }
    switch format {
    case "json":
      var json = JSONBuffer()
      json.object { json in
        guard grouped else { return write(overall, to: &json) }
        json.member("by", strings: fields.map(\.rawValue))
        json.array("groups") { json in
          for group in groups.groups {
            json.objectElement { json in
              groups.writeKey(group.key, to: &json)
              json.member("sessions", group.value.sessions.count)
              write(group.value, to: &json)
            }
          }
        }
        json.object("overall") { json in
          json.member("sessions", overall.sessions.count)
          write(overall, to: &json)
        }
      }
      json.raw("\n")
      context.stdout.write(bytes: json.take())
    case "csv":
      context.stdout.write(
        (fields.map(\.rawValue) + ["count", "sessions"] + (1...length).map { "step_\($0)" }).joined(separator: ",")
          + "\r\n")
      let blocks = grouped ? groups.groups : [(key: [], value: overall)]
      // A record at a time: with --top 0 and a long --steps, all of them would be gigabytes.
      for (group, totals) in blocks {
        totals.forEachRanked(top: top) { entry in
          context.stdout.write(
            (group.map { $0.map { CSV.field($0, guardingFormulas: !rawCSV) } ?? "" } + [
              "\(entry.count)", "\(entry.sessions)",
            ]
              + entry.path.map { CSV.field($0, guardingFormulas: !rawCSV) }).joined(separator: ",") + "\r\n")
        }
      }
    default:
      guard grouped else {
        writeText(overall, to: &context.stdout)
        break
      }
      for group in groups.groups {
        context.stdout.write(groups.title(group.key) + ": " + Self.sessions(group.value.sessions.count) + "\n")
        writeText(group.value, to: &context.stdout)
        context.stdout.write("\n")
      }
      context.stdout.write("overall: " + Self.sessions(overall.sessions.count) + "\n")
      writeText(overall, to: &context.stdout)
    }
    return verdict.status
  }

  /// `"paths":[...]`, the first `--top` paths of `totals`.
  private func write(_ totals: PathTotals, to json: inout JSONBuffer) {
    json.array("paths") { json in
      for entry in totals.ranked(top: top) {
        json.objectElement { json in
          json.member("path", strings: entry.path)
          json.member("count", entry.count)
          json.member("sessions", entry.sessions)
        }
      }
    }
  }

  /// The table of the first `--top` paths of `totals`.
  private func writeText(_ totals: PathTotals, to out: inout some TextOutputStream) {
    let ranked = totals.ranked(top: top)
    guard !ranked.isEmpty else { return out.write("no path of \(length) screens\n") }
    let width = max(5, ranked.map { $0.count.grouped.count }.max() ?? 0)
    out.write("count".leftPadded(to: width) + "  sessions  path\n")
    for entry in ranked {
      out.write(
        entry.count.grouped.leftPadded(to: width) + "  " + entry.sessions.grouped.leftPadded(to: 8) + "  "
          + entry.path.map { displayText($0, limit: .max) }.joined(separator: " → ") + "\n")
    }
  }

  /// `1 session`, `12 sessions`.
  static func sessions(_ count: Int) -> String {
    count == 1 ? "1 session" : "\(count.grouped) sessions"
  }
}

extension Command {
  /// `--json` or `--format json|csv|text`, for the analyses of navigation.
  static func outputFormat(_ arguments: ParsedArguments, format option: Option) throws(UsageError) -> String {
    let named = arguments.choice(option)
    guard arguments.flag(Option.json) else { return named ?? "text" }
    guard named == nil || named == "json" else { throw UsageError("--json contradicts --format \(named!)") }
    return "json"
  }
}

/// A CSV field of the navigation analyses, through the one CSV writer (``TableEncoder``).
enum CSV {
  static func field(_ text: String) -> String { field(text, guardingFormulas: true) }

  static func field(_ text: String, guardingFormulas: Bool) -> String {
    var out: [UInt8] = []
    TableEncoder.appendCSVField(bytes: Array(text.utf8), guardingFormulas: guardingFormulas, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
