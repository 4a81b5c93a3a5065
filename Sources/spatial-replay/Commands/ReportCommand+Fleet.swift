import Journal
import Projection
import Report

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `report DIR` (or `report --fleet FILE|DIR...`): the fleet page over many journals.
extension ReportCommand {
  static let fleet = Option.flag(
    "--fleet",
    "one page over many journals (implied by a folder): findings per rule\nper build, top paths, latency per screen per build"
  )

  /// Screens in the fleet page's latency table, the most visited first.
  static let fleetLatencyScreens = 40
  /// Paths of two screens in the fleet page's flow.
  static let fleetPaths = 24

  /// Whether these positionals ask for the fleet page: `--fleet`, or a single folder.
  static func wantsFleet(_ arguments: ParsedArguments) -> Bool {
    if arguments.flag(fleet) { return true }
    guard arguments.positionals.count == 1, arguments.positionals[0] != "-" else { return false }
    var info = stat()
    return stat(arguments.positionals[0], &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// One journal's part of the page.
  struct FleetJournal: Sendable {
    var build: String?
    var session: String
    var stats: SessionStats
    var paths: [([String], Int)]
    var latency: [ExactText: LatencyBuilder.Screen]
    /// The session's own report beside the journal, if one was written there.
    var report: String?
  }

  func runFleet(_ context: inout Context, paths: [String]) throws -> Int32 {
    if output == nil && context.stdoutIsTerminal {
      throw UsageError("the report is an HTML page: write it to a file with -o OUT.html (or redirect standard output)")
    }
    let reading = reading
    var verdict = Verdict()
    // Keyed by bytes (``ExactText``): canonically equivalent builds and screens are not merged.
    var builds: [ExactText?: FleetPage.Build] = [:]
    var totals = PathTotals()
    var latency: [ExactText?: [ExactText: LatencyBuilder.Screen]] = [:]
    var visits: [ExactText: Int] = [:]
    let runner = FleetRunner(jobs: FleetRunner.cores)
    try runner.run(paths, context: &context) { path, context, progress in
      Self.fleetJournal(path, options: reading, &context, &progress)
    } deliver: { _, journal, _ in
      guard let journal else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(journal.stats.formatErrors)
      let buildKey = journal.build.map(ExactText.init)
      var build = builds[buildKey] ?? FleetPage.Build(name: journal.build)
      build.journals += 1
      build.findingsByRule.merge(journal.stats.findingsByRule, uniquingKeysWith: +)
      if let report = journal.report { build.reports.append((journal.session, report)) }
      builds[buildKey] = build
      totals.add(journal.paths.map { (path: $0.0, count: $0.1) }, session: journal.session)
      for (screen, values) in journal.latency {
        latency[buildKey, default: [:]][screen, default: .init()].merge(values)
        visits[screen, default: 0] += values.dwell.count
      }
    }
    let shown = Set(
      visits.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.fleetLatencyScreens)
        .map(\.key))
    var rows: [FleetPage.Latency] = []
    for (build, screens) in latency {
      for (screen, values) in screens where shown.contains(screen) {
        rows.append(
          FleetPage.Latency(
            build: build?.text, screen: screen.text, appearance: values.appearance, firstArrival: values.firstArrival,
            dwell: values.dwell))
      }
    }
    rows.sort { a, b in
      a.screen != b.screen
        ? Array(a.screen.utf8).lexicographicallyPrecedes(Array(b.screen.utf8))
        : VersionOrder.precedes(a.build, b.build)
    }
    let usedRules = Set(builds.values.flatMap { $0.findingsByRule.keys })
    let rules = StatsReport.ruleOrder.filter(usedRules.contains) + usedRules.subtracting(StatsReport.ruleOrder).sorted()
    let page = FleetPage(
      builds: Array(builds.values), rules: rules, paths: totals.ranked(top: Self.fleetPaths), latency: rows,
      latencyScreensLeftOut: max(0, visits.count - shown.count))
    try write(page.bytes(), &context)
    return verdict.status
  }

  /// Reads one journal once for the fleet page; nil (reported) when it cannot be read.
  static func fleetJournal(
    _ path: String, options: ReadOptions, _ context: inout Context, _ progress: inout FileProgress
  ) -> FleetJournal? {
    guard let reader = JournalPass.open(path, options: options, progress: &progress, context: &context) else {
      return nil
    }
    let name = JournalInput.displayName(path)
    var stats = StatsBuilder(file: name)
    var tracker = ScreenTracker()
    var counter = PathCounter(steps: 2, key: .class)
    var latency = LatencyBuilder(key: .class)
    var header: SessionHeader?
    while let batch = reader.next() {
      for item in batch.items.items {
        stats.consume(item)
        guard case .record(let record, _, _) = item else { continue }
        if header == nil, case .session(let h) = record.event { header = h }
        if case .step(let step) = tracker.consume(record) { counter.add(step) }
        latency.consume(record)
      }
      progress.update(reader.bytesRead, &context.stderr)
    }
    guard reader.readToTheEnd(progress: &progress, context: &context) else { return nil }
    latency.finish()
    return FleetJournal(
      build: header?.build, session: header?.session ?? name, stats: stats.finish(),
      paths: counter.paths.map { ($0.path, $0.count) }, latency: latency.screens, report: Self.reportBeside(path))
  }

  /// `j.html` beside `j.ndjson` (or `j.ndjson.html`), if it exists.
  static func reportBeside(_ path: String) -> String? {
    guard path != "-" else { return nil }
    var stem = path
    for suffix in JournalInput.journalSuffixes where stem.hasSuffix(suffix) {
      stem.removeLast(suffix.count)
      break
    }
    for candidate in [stem + ".html", path + ".html"] where access(candidate, R_OK) == 0 { return candidate }
    return nil
  }
}
