import Journal
import Projection

/// `latency FILE|DIR...`: time to screen and time on screen, per screen and group.
struct LatencyCommand: Command {
  static let name = "latency"
  static let abstract = "Time to screen and time on screen per screen: count, p50, p90, p99, max"
  static let usage = ["spatial-replay latency [options] FILE|DIR..."]
  static let discussion = """
    Per screen (and per group of journals with --group), three measures in
    milliseconds, each as count, p50, p90, p99 and max (percentiles by
    nearest rank: the value of rank ceil(n*p/100), as DuckDB's quantile_disc):
      - appearance: a controller's willAppear to its didAppear in the same
        transition (a didAppear without a willAppear since the transition
        began is not timed);
      - first arrival: from the journal's first event to the first time the
        screen became the focus, one value per journal;
      - dwell: its visits, didAppear to the next willDisappear or dealloc (a
        visit open at the end lasts to the last event), as the visits table.
    Screens are listed by group (builds in version order: 9.2 < 9.10 < 10.0),
    then by name.
    """
  static let group = Option.list(
    "--group", "KEY",
    "per group of journals by these header fields (comma-separated):\n"
      + StatsKey.allCases.map(\.rawValue).joined(separator: ", "),
    values: .oneOf(StatsKey.allCases.map(\.rawValue)))
  static let format = Option.value(
    "--format", "FORMAT",
    "text (default); json: as --json; csv: one row per group, screen and\nmeasure (KEY...,screen,measure,count,p50_ms,p90_ms,p99_ms,max_ms)",
    values: .oneOf(["text", "json", "csv"]))
  static let options =
    [
      NavigationInput.screenKey, group,
      Option.json.help(
        "{\"group\":[KEY...],\"screens\":[{\"key\":{...},\"screen\":\"A\",\"appearance\":{\"count\":N,\n\"p50\":ms,\"p90\":ms,\"p99\":ms,\"max\":ms},\"firstArrival\":{...},\"dwell\":{...}}, ...]}"
      ),
      format,
    ] + NavigationInput.readingOptions
  static let exitStatus = NavigationInput.exitStatus
  static let examples = [
    "spatial-replay latency Journals/notes.intended.ndjson",
    "spatial-replay latency --group build --format csv fleet/ > latency.csv",
    "spatial-replay latency --by controller --json day1/*.ndjson | jq '.screens[0]'",
  ]

  var files: [String]
  var options: ReadOptions
  var key: ScreenKey
  var keys: [StatsKey]
  var format: String
  var runner: FleetRunner
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try JournalInput.paths(arguments, command: Self.name)
    options = try ReadOptions(arguments)
    key = NavigationInput.key(arguments)
    let keys = arguments.values(Self.group).compactMap(StatsKey.init(rawValue:))
    if let twice = keys.first(where: { key in keys.filter { $0 == key }.count > 1 }) {
      throw UsageError("--group names \(twice.rawValue) twice")
    }
    self.keys = keys
    format = try Self.outputFormat(arguments, format: Self.format)
    runner = try FleetRunner(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  /// A group's values (nil: the header has no such field) and a screen.
  struct Row: Hashable {
    var group: [String?]
    var screen: String
  }

  func run(_ context: inout Context) throws -> Int32 {
    var rows: [Row: LatencyBuilder.Screen] = [:]
    var verdict = Verdict()
    let (options, limit, key, keys) = (options, limit, key, keys)
    try runner.run(files, context: &context) { path, context, progress in
      var builder = LatencyBuilder(key: key)
      guard
        let read = NavigationInput.read(
          path, options: options, limit: limit, &context, &progress, fold: &builder, { $0.consume($1) })
      else { return nil as NavigationInput.Read<[String: LatencyBuilder.Screen]>? }
      builder.finish()
      return NavigationInput.Read(
        session: read.session, header: read.header, formatErrors: read.formatErrors, result: builder.screens)
    } deliver: { _, read, _ in
      guard let read else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(read.formatErrors)
      let group = keys.map { $0.value(in: read.header) }
      for (screen, values) in read.result { rows[Row(group: group, screen: screen), default: .init()].merge(values) }
    }
    let ordered = rows.sorted { a, b in
      if a.key.group != b.key.group { return Self.precedes(a.key.group, b.key.group) }
      return Array(a.key.screen.utf8).lexicographicallyPrecedes(Array(b.key.screen.utf8))
    }
    let measures: [(name: String, json: String, get: (LatencyBuilder.Screen) -> Distribution)] = [
      ("appearance", "appearance", { $0.appearance }), ("first_arrival", "firstArrival", { $0.firstArrival }),
      ("dwell", "dwell", { $0.dwell }),
    ]
    switch format {
    case "json":
      var out = JSONBuffer()
      out.object { out in
        out.member("group", strings: keys.map(\.rawValue))
        out.array("screens") { out in
          for (row, screen) in ordered {
            out.objectElement { out in
              out.object("key") { out in
                for (k, value) in zip(keys, row.group) { out.member(k.rawValue, value) }
              }
              out.member("screen", row.screen)
              for measure in measures {
                out.key(measure.json)
                Self.write(measure.get(screen), to: &out)
              }
            }
          }
        }
      }
      out.raw("\n")
      context.stdout.write(bytes: out.take())
    case "csv":
      var csv =
        (keys.map(\.rawValue) + ["screen", "measure", "count", "p50_ms", "p90_ms", "p99_ms", "max_ms"])
        .joined(separator: ",") + "\n"
      for (row, screen) in ordered {
        for measure in measures {
          let cells = Self.cells(measure.get(screen))
          csv +=
            (row.group.map { $0.map(CSV.field) ?? "" } + [CSV.field(row.screen), measure.name] + cells)
            .joined(separator: ",") + "\n"
        }
      }
      context.stdout.write(csv)
    default:
      var lastGroup: [String?]? = nil
      for (row, screen) in ordered {
        if !keys.isEmpty, row.group != lastGroup {
          let label = zip(keys, row.group).map { "\($0.rawValue) \($1.map { displayText($0, limit: .max) } ?? "-")" }
          context.stdout.write((lastGroup == nil ? "" : "\n") + "== " + label.joined(separator: ", ") + "\n")
          lastGroup = row.group
        }
        context.stdout.write(displayText(row.screen, limit: .max) + "\n")
        for measure in measures {
          let c = Self.cells(measure.get(screen))
          context.stdout.write(
            "  " + measure.name.padding(13) + " n " + c[0].leftPadded(to: 6) + "  p50 " + c[1].leftPadded(to: 11)
              + "  p90 " + c[2].leftPadded(to: 11) + "  p99 " + c[3].leftPadded(to: 11) + "  max "
              + c[4].leftPadded(to: 11) + "\n")
        }
      }
      if ordered.isEmpty { context.stdout.write("no screen was displayed\n") }
    }
    return verdict.status
  }

  /// count, p50, p90, p99, max (milliseconds with three decimals; empty when there are no values).
  static func cells(_ values: Distribution) -> [String] {
    let s = values.summary
    guard s.count > 0 else { return ["0", "", "", "", ""] }
    return [String(s.count)] + [s.p50, s.p90, s.p99, s.max].map(Distribution.milliseconds)
  }

  static func write(_ values: Distribution, to out: inout JSONBuffer) {
    let c = cells(values)
    out.object { out in
      out.key("count")
      out.raw(c[0])
      for (name, cell) in zip(["p50", "p90", "p99", "max"], c.dropFirst()) {
        out.key(name)
        out.raw(cell.isEmpty ? "null" : cell)
      }
    }
  }

  /// Groups by their values field by field, in version order (`9.2 < 9.10`), nil last.
  static func precedes(_ a: [String?], _ b: [String?]) -> Bool {
    zip(a, b).first { $0 != $1 }.map { VersionOrder.precedes($0, $1) } ?? false
  }
}

extension String {
  func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
