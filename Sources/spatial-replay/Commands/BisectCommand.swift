import Journal
import Projection
import Rendering

/// `bisect RUN...`: the runs in order (one per build), the first one good;
/// finds the first run that differs from it (or has check errors) with a
/// binary search, then shows its diff against the last good run.
struct BisectCommand: Command {
  static let name = "bisect"
  static let abstract = "Find the first run (of a series, one per build) that differs from the first"
  static let usage = ["spatial-replay bisect [options] RUN..."]
  static let discussion = """
    The runs are journals of one scenario in order (e.g. one per build); the
    first is good. Finds the first run whose ordering of the events that matter
    differs from the first run's (as 'diff' compares them), assuming that once
    a run is bad every later one is too, in at most ⌈log2 N⌉ probes. Prints
    each probe as it goes, then the first bad run and its diff against the
    last good one.

    When the names of the runs are equal apart from their numbers
    (build-1.ndjson ... build-10.ndjson), the runs are taken in the order of
    those numbers, whatever order they were given in (a shell's glob puts
    build-10 before build-2), and a line on standard error says so;
    --keep-order takes them as given. When every journal's header has a
    build that is a version number and those disagree with the order taken, a
    warning says so.

    Controllers are matched as 'diff' matches them (--match): by default by
    class and order of allocation when the ids of both runs are instance
    counters (CheckoutViewController#115) or addresses, so that a build that
    allocates one more controller early, and renumbers every later one, is
    not taken for the bad one.

    To bisect commits rather than recorded runs, use 'diff' as the script of
    'git bisect run' (exit 0 good, 1 bad, 125 skip): see docs/bisect.md.
    """
  static let check = Option.flag(
    "--check",
    "a run is bad when 'check' finds errors in it instead (every rule\n'check' runs: format, graph and lifecycle rules such as\nmodal-leak or will-repeated); with --strict, warnings count as errors"
  )
  static let options =
    [
      check, Option.include, Option.exclude, Option.match, keepOrder, DiffCommand.budget,
      DiffCommand.contextOption, DiffCommand.hunkEvents,
      Option.json.help(
        "one JSON document: runs (in the order taken), order, probes, first\nbad and last good run, comparisons, findings (--check) and the\nfinal diff as 'diff --json'"
      ),
      Option.quiet, DiffCommand.lenient, Option.ascii,
    ] + Option.reading
  static let exitStatus = """
    0 every run is good, 1 a first bad run was found, 2 a run could not be
    read (or has format errors, without --check or --lenient), 64 usage error.
    """
  static let examples = [
    "spatial-replay bisect Journals/bisect/build-*.ndjson",
    "spatial-replay bisect runs/build-*.ndjson    # build-1 ... build-10, in that order",
    "spatial-replay bisect --match class --exclude link runs/*.ndjson",
    "spatial-replay bisect --check --json nightly-*.ndjson",
  ]

  /// The runs in the order probed: as given, or in build order (``buildOrder(_:)``).
  let paths: [String]
  /// Whether ``paths`` are in build order rather than as given.
  let reordered: Bool
  let loader: DiffRunLoader
  let check: Bool
  let json: Bool
  let quiet: Bool
  let context: Int
  let hunkEvents: Int

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("bisect needs the runs in order, the first one good")
    }
    let given = try JournalInput.paths(arguments, command: Self.name)
    try JournalInput.checkStandardInputOnce(given)
    let inBuildOrder = arguments.flag(Self.keepOrder) ? nil : Self.buildOrder(given)
    paths = inBuildOrder ?? given
    reordered = inBuildOrder != nil
    loader = try DiffRunLoader(arguments)
    check = arguments.flag(Self.check)
    json = arguments.flag(Option.json)
    quiet = arguments.flag(Option.quiet)
    context = try arguments.int(DiffCommand.contextOption, min: 0) ?? 3
    hunkEvents = try arguments.int(DiffCommand.hunkEvents, min: 0) ?? 20
  }

  func run(_ context: inout Context) throws -> Int32 {
    if reordered, let first = paths.first, let last = paths.last {
      context.stderr.write(
        "bisect: runs taken in build order (\(displayText(first, limit: 256)) \(loader.glyphs.more) "
          + "\(displayText(last, limit: 256))), not the order given (--keep-order keeps it)\n")
    }
    if !paths.contains(where: JournalInput.isStream) {
      let builds = paths.map { Self.build(of: $0, reading: loader.reading) }
      if let warning = Self.buildWarning(builds: builds, names: paths.map(JournalInput.displayName)) {
        context.warning(warning)
      }
    }
    var session = BisectSession(command: self)
    do {
      return try session.run(&context)
    } catch {
      throw CommandFailure(error.message)
    }
  }
}

/// The state of one bisection: the base run, the runs last known good and
/// first known bad (kept so that the final diff reads nothing again), the
/// probes and the number of comparisons made.
private struct BisectSession {
  let command: BisectCommand
  var base: DiffRunLoader.Loaded? = nil
  var good: (index: Int, run: DiffRunLoader.Loaded)? = nil
  var bad: (index: Int, run: DiffRunLoader.Loaded)? = nil
  var comparisons = 0
  var probeLines: [String] = []

  init(command: BisectCommand) { self.command = command }

  var names: [String] { command.paths.map(JournalInput.displayName) }

  mutating func run(_ context: inout Context) throws(DiffRunLoader.Failure) -> Int32 {
    let n = command.paths.count
    let maxProbes = Bisect.maxProbes(runs: n)
    if !command.json && !command.quiet {
      let what = command.check ? "has check errors" : "differs from it"
      context.stdout.write(
        "bisect: \(n.counted("run")), \(shown(0)) is good; looking for the first that \(what) "
          + "(at most \(maxProbes.counted("probe")))\n")
    }
    if !command.check { base = try command.loader.load(command.paths[0], context: &context) }
    var probes = 0
    let result = try Bisect.search(runs: n) { (i: Int) throws(DiffRunLoader.Failure) -> Bool in
      probes += 1
      let (isBad, detail) = try probe(i, context: &context)
      let line =
        "probe \(probes)/\(maxProbes): \(shown(i)) (run \(i + 1) of \(n)): \(isBad ? "bad" : "good") (\(detail))"
      probeLines.append(line)
      if !command.json && !command.quiet {
        context.stdout.write(line + "\n")
        context.stdout.flush()
      }
      return isBad
    }
    var report: DiffReport? = nil
    if let firstBad = result.firstBad, let badRun = bad?.run, bad?.index == firstBad {
      let goodRun = try lastGoodRun(result.lastGood, context: &context)
      report = DiffReport(goodRun.run, badRun.run, context: command.context)
      comparisons += 1
    }
    if command.json {
      context.stdout.write(json(result, report) + "\n")
    } else if !command.quiet {
      writeText(result, report, to: &context)
    }
    return result.firstBad == nil ? ExitCode.ok : ExitCode.findings
  }

  /// Reads run `i` and decides whether it is bad; one comparison.
  private mutating func probe(_ i: Int, context: inout Context) throws(DiffRunLoader.Failure) -> (Bool, String) {
    comparisons += 1
    let loaded: DiffRunLoader.Loaded
    let isBad: Bool
    let detail: String
    if command.check {
      loaded = try command.loader.read(command.paths[i], check: true)
      isBad = loaded.errors > 0
      detail = isBad ? loaded.errors.counted("error") : "no errors"
    } else {
      guard let base else { preconditionFailure("the base run is read first") }
      loaded = try command.loader.load(command.paths[i], context: &context)
      let (a, b) = base.run.unified(with: loaded.run)
      let common = zip(a.tokens, b.tokens).prefix { $0 == $1 }.count
      isBad = a.tokens.count != b.tokens.count || common < a.tokens.count
      if !isBad {
        detail = "identical to \(shown(0))"
      } else if common == 0 {
        detail = "differs from \(shown(0)) from the first event compared"
      } else {
        detail = "differs from \(shown(0)) after seq \(b.seqs[common - 1])"
      }
    }
    if isBad { bad = (i, loaded) } else { good = (i, loaded) }
    return (isBad, detail)
  }

  /// The last good run's normalised events: kept from its probe, or run 0 (read now under --check).
  private mutating func lastGoodRun(_ index: Int, context: inout Context) throws(DiffRunLoader.Failure)
    -> DiffRunLoader.Loaded
  {
    if let good, good.index == index { return good.run }
    if let base { return base }
    // --check, and no run after the first was good: read the first run for the diff.
    return try command.loader.read(command.paths[0], check: true)
  }

  private func shown(_ i: Int) -> String { displayText(names[i], limit: 256) }

  private func writeText(_ result: Bisect.Result, _ report: DiffReport?, to context: inout Context) {
    let n = command.paths.count
    guard let firstBad = result.firstBad else {
      let what = command.check ? "has check errors" : "differs from \(shown(0))"
      context.stdout.write("no bad run: none of the \(n.counted("run")) \(what)\n")
      return
    }
    context.stdout.write(
      "first bad run: \(shown(firstBad)) (run \(firstBad + 1) of \(n)); "
        + "last good run: \(shown(result.lastGood)) (run \(result.lastGood + 1))\n")
    context.stdout.write(
      "\(result.probes.count.counted("probe")) and 1 diff: \(comparisons.counted("comparison")) "
        + "(at most \(command.loader.glyphs.ceilingOpen)log2 \(n)\(command.loader.glyphs.ceilingClose) + 1 = \(Bisect.maxProbes(runs: n) + 1))\n"
    )
    if command.check, let bad {
      context.stdout.write("\nfindings in \(shown(firstBad)):\n")
      for d in bad.run.findings { context.stdout.write(d, file: bad.run.name, glyphs: command.loader.glyphs) }
      let total = bad.run.errors + bad.run.warnings
      if total > bad.run.findings.count {
        context.stdout.write("\(command.loader.glyphs.more) and \((total - bad.run.findings.count).grouped) more\n")
      }
    }
    if let report {
      context.stdout.write("\ndiff \(shown(result.lastGood)) \(shown(firstBad)):\n")
      report.write(
        to: &context.stdout, nameA: names[result.lastGood], nameB: names[firstBad], hunkEvents: command.hunkEvents,
        color: context.useColor, glyphs: command.loader.glyphs)
    }
  }

  /// `{"runs":[...],"order":"given","mode":"diff","probes":[{"run":5,"file":"...","bad":false}],
  /// "firstBad":{"run":8,"file":"..."}|null,"lastGood":{...},"comparisons":5,"findings":[...],"diff":{...}|null}`,
  /// runs numbered from 1 in the order taken: `order` is `build` when their
  /// names put them in another order than the one given, else `given`.
  private func json(_ result: Bisect.Result, _ report: DiffReport?) -> String {
    var json = JSONBuffer()
    func run(_ i: Int) {
      json.open("{")
      json.counts([("run", i + 1)])
      json.key("file")
      json.string(names[i])
      json.close("}")
    }
    json.open("{")
    json.key("runs")
    json.strings(names)
    json.member("order", command.reordered ? "build" : "given")
    json.key("mode")
    json.string(command.check ? "check" : "diff")
    json.key("probes")
    json.open("[")
    for p in result.probes {
      json.element()
      json.open("{")
      json.counts([("run", p.run + 1)])
      json.key("file")
      json.string(names[p.run])
      json.key("bad")
      json.bool(p.bad)
      json.close("}")
    }
    json.close("]")
    json.key("firstBad")
    if let firstBad = result.firstBad { run(firstBad) } else { json.null() }
    json.key("lastGood")
    run(result.lastGood)
    json.counts([("comparisons", comparisons)])
    json.key("findings")
    json.open("[")
    if command.check, let bad, bad.index == result.firstBad {
      for d in bad.run.findings {
        json.element()
        json.raw(d.json(file: bad.run.name, ascii: command.loader.glyphs.isASCII))
      }
    }
    json.close("]")
    json.key("diff")
    if let report, let firstBad = result.firstBad {
      json.raw(report.json(nameA: names[result.lastGood], nameB: names[firstBad], hunkEvents: command.hunkEvents))
    } else {
      json.null()
    }
    json.close("}")
    return json.text
  }
}
