import Journal
import Projection
import Rendering

/// `latency FILE|DIR...`: time to screen and time on screen, per screen and group.
struct LatencyCommand: Command {
  static let name = "latency"
  static let abstract = "Time to screen and time on screen per screen: count, p50, p90, p99 (or --percentiles), max"
  static let usage = ["spatial-replay latency [options] FILE|DIR..."]
  static let discussion = """
    Per screen (and per group of journals with --group, or header fields in
    --by), three measures in milliseconds, each as count, p50, p90, p99 and
    max, or the percentiles of --percentiles and max (percentiles by nearest
    rank: the value of rank ceil(n*p/100), at least 1, as DuckDB's
    quantile_disc):
      - appearance: a controller's willAppear to its didAppear in the same
        transition (a didAppear without a willAppear since the transition
        began is not timed);
      - first arrival: from the journal's first event to the first time the
        screen became the focus, one value per journal;
      - dwell: its visits, didAppear to the next willDisappear or dealloc (a
        visit open at the end lasts to the last event), as the visits table.
    Screens are listed by group (builds in version order: 9.2 < 9.10 < 10.0),
    then by name. --group build and --by build are the same split.
    """
  static let group = Option.list(
    "--group", "KEY",
    "per group of journals by these header fields (comma-separated):\n"
      + StatsKey.allCases.map(\.rawValue).joined(separator: ", "),
    values: .cases(StatsKey.self))
  static let format = AnalysisFormat.option(
    csv:
      ": one row per group, screen and\nmeasure (KEY...,screen,measure,count,p50_ms,p90_ms,p99_ms,max_ms;\na pP_ms column per percentile of --percentiles)"
  )
  static let percentiles = Option.list(
    "--percentiles", "P",
    "the percentiles shown, each 0 to 100 with at most three decimals\n(comma-separated: 50,95,99 or 99.9; default 50,90,99); max is\nalways shown"
  )
  static let options = NavigationInput.options(
    [NavigationInput.screenKey, group, percentiles, Option.rawCSV],
    json:
      "{\"group\":[KEY...],\"screens\":[{\"key\":{...},\"screen\":\"A\",\"appearance\":{\"count\":N,\n\"p50\":ms,\"p90\":ms,\"p99\":ms,\"max\":ms},\"firstArrival\":{...},\"dwell\":{...}}, ...]}\n(a \"pP\" key per percentile of --percentiles)",
    format: format)
  static let exitStatus = NavigationInput.exitStatus
  static let examples = [
    "spatial-replay latency Journals/notes.intended.ndjson",
    "spatial-replay latency --group build --format csv fleet/ > latency.csv",
    "spatial-replay latency --by controller --json day1/*.ndjson | jq '.screens[0]'",
    "spatial-replay latency --percentiles 50,95,99 --by build,device fleet/",
  ]

  var input: NavigationInput.Journals
  /// `--raw-csv`: CSV text cells as they are.
  var rawCSV = false
  var keys: [StatsKey]
  /// `--percentiles`, in the order given (p50, p90, p99 by default).
  var percentiles: [Percentile]
  var format: AnalysisFormat

  init(_ arguments: ParsedArguments) throws(UsageError) {
    input = try NavigationInput.Journals(arguments, command: Self.name)
    rawCSV = arguments.flag(Option.rawCSV)
    let grouped = arguments.values(Self.group).compactMap(StatsKey.init(rawValue:))
    if let twice = grouped.first(where: { key in grouped.filter { $0 == key }.count > 1 }) {
      throw UsageError("--group names \(twice.rawValue) twice")
    }
    if let both = grouped.first(where: input.fields.contains) {
      throw UsageError("--group and --by both name \(both.rawValue): give it once")
    }
    keys = grouped + input.fields
    percentiles = try Self.percentiles(arguments)
    format = try Self.outputFormat(arguments, format: Self.format)
  }

  /// A group's values (nil: the header has no such field) and a screen.
  /// A screen of a group, compared and hashed by the bytes of its texts (``ExactText``).
  struct Row: Hashable {
    var group: [String?]
    var screen: String

    var exact: [ExactText?] { group.map { $0.map(ExactText.init) } + [ExactText(screen)] }
    static func == (a: Row, b: Row) -> Bool { a.exact == b.exact }
    func hash(into hasher: inout Hasher) { hasher.combine(exact) }
  }

  /// `--percentiles`: each 0 to 100, none twice; p50, p90 and p99 when not given.
  static func percentiles(_ arguments: ParsedArguments) throws(UsageError) -> [Percentile] {
    let texts = arguments.values(percentiles)
    guard !texts.isEmpty else { return Percentile.standard }
    var chosen: [Percentile] = []
    for text in texts {
      guard let p = Percentile(text) else {
        throw UsageError(
          "--percentiles takes numbers from 0 to 100 (at most three decimals: 99.9), got '\(displayText(text))'")
      }
      guard !chosen.contains(p) else { throw UsageError("--percentiles names \(p) twice") }
      chosen.append(p)
    }
    return chosen
  }

  func run(_ context: inout Context) throws -> Int32 {
    var rows: [Row: LatencyBuilder.Screen] = [:]
    var verdict = Verdict()
    let (options, limit, key, keys) = (input.options, input.limit, input.key, keys)
    try input.runner.run(input.files, context: &context) { path, context, progress in
      var builder = LatencyBuilder(key: key)
      guard
        let read = NavigationInput.read(
          path, options: options, limit: limit, &context, &progress, fold: &builder, { $0.consume($1) })
      else { return nil as NavigationInput.Read<[ExactText: LatencyBuilder.Screen]>? }
      builder.finish()
      return NavigationInput.Read(read, result: builder.screens)
    } deliver: { _, read, _ in
      guard let read else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(read.formatErrors)
      let group = keys.map { $0.value(in: read.header) }
      for (screen, values) in read.result {
        rows[Row(group: group, screen: screen.text), default: .init()].merge(values)
      }
    }
    let ordered = rows.sorted { a, b in
      if a.key.exact.dropLast() != b.key.exact.dropLast() {
        return HeaderGroups<Row>.precedes(a.key.group, b.key.group)
      }
      return Array(a.key.screen.utf8).lexicographicallyPrecedes(Array(b.key.screen.utf8))
    }.map { LatencyTable.Row(group: $0.key.group, screen: $0.key.screen, times: $0.value) }
    let table = LatencyTable(keys: keys, percentiles: percentiles, guardsFormulas: !rawCSV)
    switch format {
    case .json: context.stdout.write(bytes: table.json(ordered))
    case .csv: context.stdout.write(table.csv(ordered))
    case .text: table.writeText(ordered, to: &context.stdout)
    }
    return verdict.status
  }
}
