import Dispatch
import Journal
import Projection
import Rendering
import Synchronization

/// `diff A B`: compares two runs of one scenario in the order of the events
/// that matter (lifecycle, move, modal, dealloc, link, unlink), ignoring
/// `seq`, `time` and the header.
struct DiffCommand: Command {
  static let name = "diff"
  static let abstract = "Compare two runs of a scenario: first divergence, classified hunks, summary"
  static let usage = ["spatial-replay diff [options] A B"]
  static let discussion = """
    Compares two journals of the same scenario (e.g. one per build) in the
    order of the events that matter: by default lifecycle, move, modal, dealloc,
    link and unlink (never seq, time or the header). Prints the first
    divergence with the last matching events before it and the move each run
    was in, then every hunk with its seq and line ranges on each side,
    classified as:
      missing        events of A that B does not have
      extra          events of B that A does not have
      duplicated     events one run has twice in a row (says which run)
      reordered      the same events on both sides in another order
      misattributed  the same lifecycle callbacks at the same place, other
                     controllers
      changed        anything else
    and a summary line. '-' reads one of the two from standard input.

    Journal warnings (torn tail, CRLF...) are printed on standard error and do
    not stop the comparison; format errors (malformed lines, seq gaps, no
    header, an empty file...) make a run unusable (exit 2) unless --lenient.
    A warning says so when the two headers name different scenarios or
    sessions of different apps.

    Controllers are matched by id, or by class and order of allocation (the
    n-th NotesViewController of A is the n-th of B). By default (--match
    auto) the runs decide: by class when the ids of both are instance
    counters (CheckoutViewController#115) or memory addresses
    (0x600003a2c000, <NotesViewController: 0x7f8a1c>), all of them or all
    but one in ten, since such ids shift when a build allocates one more
    controller early; by id when either run names its controllers. The
    header line says which was used and why.
    """
  static let contextOption = Option.value(
    "--context", "N", "matching events shown before the first divergence (default 3)")
  static let hunkEvents = Option.value("--hunk-events", "N", "events listed per side of a hunk (default 20, 0 for all)")
  static let budget = Option.value(
    "--budget", "N",
    "comparison steps the alignment may spend (default 200000000); past\nit a segment becomes one replace hunk")
  static let lenient = Option.flag(
    "--lenient", "compare a journal with format errors (bad lines are skipped)\ninstead of refusing it")
  static let gitBisect = Option.flag(
    "--git-bisect",
    "exit 125 instead of 2 when B (the run of the commit under test) is\nunreadable or unusable (an empty or corrupt journal), so that 'git bisect\nrun' skips that commit; exit 128 when A (the baseline) is, so that the\nbisection stops at the mistake instead of skipping every commit"
  )
  static let options =
    [
      Option.include, Option.exclude, Option.match, contextOption, hunkEvents, budget,
      Option.json.help("one JSON document instead of text (shape in docs/diff.md)"), Option.quiet, lenient,
      gitBisect, Option.ascii,
    ] + Option.reading
  static let exitStatus = """
    0 identical, 1 different, 2 unreadable or unusable input (with
    --git-bisect: 125 for B, 128 for A, which aborts 'git bisect run'),
    64 usage error.
    """
  static let examples = [
    "spatial-replay diff Journals/bisect/build-07.ndjson Journals/bisect/build-08.ndjson",
    "spatial-replay diff build-41.ndjson build-42.ndjson   # CheckoutViewController#115 ids: matched by class",
    "spatial-replay diff --match id --exclude link --context 5 old.ndjson new.ndjson",
    "spatial-replay diff --json a.ndjson b.ndjson | jq '.summary'",
    "git bisect run sh -c 'make journal && spatial-replay diff -q --git-bisect good.ndjson run.ndjson'",
    "(see docs/bisect.md)",
  ]

  let pathA: String
  let pathB: String
  let loader: DiffRunLoader
  let context: Int
  let hunkEvents: Int
  let json: Bool
  let quiet: Bool
  let gitBisect: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let files = arguments.positionals
    guard files.count == 2 else {
      throw UsageError("diff takes two journals A and B, got \(files.count)")
    }
    guard !(files[0] == "-" && files[1] == "-") else { throw UsageError("only one of A and B can be '-'") }
    try JournalInput.refuseDirectories(files, command: Self.name, reads: "two journals, A and B")
    pathA = files[0]
    pathB = files[1]
    loader = try DiffRunLoader(arguments)
    context = try arguments.int(Self.contextOption, min: 0) ?? 3
    hunkEvents = try arguments.int(Self.hunkEvents, min: 0) ?? 20
    json = arguments.flag(Option.json)
    quiet = arguments.flag(Option.quiet)
    gitBisect = arguments.flag(Self.gitBisect)
  }

  /// What `git bisect run` reads from `--git-bisect`: 125 skips the commit under test, 128
  /// (128 to 255: abort) stops the bisection, since a bad baseline makes every commit unusable.
  static let gitBisectSkip: Int32 = 125
  static let gitBisectAbort: Int32 = 128

  func run(_ context: inout Context) throws -> Int32 {
    let a: DiffRunLoader.Loaded
    let b: DiffRunLoader.Loaded
    do {
      (a, b) = try loader.loadPair(pathA, pathB, context: &context)
    } catch {
      guard gitBisect else { throw CommandFailure(error.message, exitCode: ExitCode.badInput) }
      if error.side == .a {
        throw CommandFailure(
          error.message
            + "\nthe baseline A is unusable: stopping the bisection (exit 128) rather than skipping every commit",
          exitCode: Self.gitBisectAbort)
      }
      throw CommandFailure(error.message, exitCode: Self.gitBisectSkip)
    }
    for warning in Self.headerWarnings(a, b) { context.warning(warning) }
    let report = DiffReport(a.run, b.run, context: self.context)
    if !quiet {
      if json {
        context.stdout.write(report.json(nameA: a.name, nameB: b.name, hunkEvents: hunkEvents))
        context.stdout.write("\n")
      } else {
        report.write(
          to: &context.stdout, nameA: a.name, nameB: b.name, hunkEvents: hunkEvents, color: context.useColor,
          glyphs: loader.glyphs)
      }
    }
    return report.isIdentical ? ExitCode.ok : ExitCode.findings
  }
}

extension DiffCommand {
  /// What the two headers say against comparing the runs: another scenario, another app.
  static func headerWarnings(_ a: DiffRunLoader.Loaded, _ b: DiffRunLoader.Loaded) -> [String] {
    guard let ha = a.header, let hb = b.header else { return [] }
    var warnings: [String] = []
    for (field, va, vb) in [("scenario", ha.scenario, hb.scenario), ("app", ha.app, hb.app)] {
      guard let va, let vb, va != vb else { continue }
      warnings.append(
        "the runs are of different \(field)s: \(displayText(a.name)) has '\(displayText(va))', "
          + "\(displayText(b.name)) has '\(displayText(vb))'; the comparison may mean little")
    }
    return warnings
  }
}

/// Reads journals into normalised runs for `diff` and `bisect`: the options
/// that decide what is compared, and how journal findings are handled.
struct DiffRunLoader: Sendable {

  /// A journal read and normalised.
  struct Loaded: Sendable {
    /// The name shown in messages.
    var name: String
    var run: NormalizedRun
    /// Errors and warnings the reader (and, with `check`, the checks) reported.
    var errors: Int
    var warnings: Int
    /// The first findings, in file order (see ``keep``).
    var findings: [CheckFinding]
    /// The session header, when the journal has one.
    var header: SessionHeader? = nil
  }

  /// Why a journal cannot be compared.
  struct Failure: Error, Sendable {
    /// Which journal of a pair (``loadPair(_:_:context:)``) it was.
    enum Side: Sendable { case a, b }

    var message: String
    var side: Side? = nil
  }

  var options: DiffOptions
  var reading: ReadOptions
  var lenient: Bool
  /// The arrows and marks of the text: the findings' messages, the report.
  var glyphs: Glyphs
  /// Findings printed (diff) or kept (bisect --check) per journal before `… and N more`.
  var keep = 20

  init(_ arguments: ParsedArguments) throws(UsageError) {
    options = try DiffOptions(arguments)
    if let budget = try arguments.int(DiffCommand.budget, min: 1) { options.budget.maxWork = budget }
    reading = try ReadOptions(arguments)
    lenient = arguments.flag(DiffCommand.lenient)
    glyphs = Glyphs(ascii: arguments.flag(Option.ascii))
  }

  /// Reads and normalises two journals at once (one thread each, unless one
  /// is standard input), then reports their findings as ``load(_:context:)`` does, A first.
  ///
  /// Implementation note: decoding dominates a diff of large runs and each
  /// file is read by one core, so two threads halve the wall time.
  func loadPair(_ pathA: String, _ pathB: String, context: inout Context) throws(Failure) -> (Loaded, Loaded) {
    let results = Mutex<[Result<Loaded, Failure>?]>([nil, nil])
    let paths = [pathA, pathB]
    let loader = self
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      let result = Result { () throws(Failure) -> Loaded in try loader.read(paths[i], check: false) }
      results.withLock { $0[i] = result }
    }
    let (ra, rb) = results.withLock { ($0[0], $0[1]) }
    guard let ra, let rb else { preconditionFailure("concurrentPerform ran both iterations") }
    func onSide(_ side: Failure.Side, _ body: () throws(Failure) -> Loaded) throws(Failure) -> Loaded {
      do { return try body() } catch {
        var failure = error
        failure.side = side
        throw failure
      }
    }
    let a = try onSide(.a) { () throws(Failure) in try accept(ra.get(), context: &context) }
    let b = try onSide(.b) { () throws(Failure) in try accept(rb.get(), context: &context) }
    return (a, b)
  }

  /// Reads and normalises one journal, printing the reader's findings on
  /// standard error (the first ``keep`` of them).
  ///
  /// - Throws: ``Failure`` when the file cannot be read, or has errors and
  ///   the loader is not lenient.
  func load(_ path: String, context: inout Context) throws(Failure) -> Loaded {
    try accept(read(path, check: false), context: &context)
  }

  /// Prints a loaded journal's findings and refuses it when it has errors (unless lenient).
  private func accept(_ loaded: Loaded, context: inout Context) throws(Failure) -> Loaded {
    for d in loaded.findings { context.stderr.write(d, file: loaded.name, glyphs: glyphs) }
    let total = loaded.errors + loaded.warnings
    if total > loaded.findings.count {
      context.stderr.write(
        "\(displayText(loaded.name, limit: .max)): \(glyphs.more) and \((total - loaded.findings.count).grouped) more findings\n"
      )
    }
    if loaded.errors > 0 && !lenient {
      throw Failure(
        message: "\(displayText(loaded.name, limit: .max)): unusable for comparing: "
          + "\(loaded.errors.counted("journal error")) (--lenient compares the events that were read)")
    }
    return loaded
  }

  /// Reads and normalises one journal, keeping its first findings.
  ///
  /// - Parameters:
  ///   - path: the journal, `-` for standard input.
  ///   - check: count the findings of every rule `check` runs (``JournalCheck``:
  ///     the reader's integrity findings and the lifecycle rules), not only the reader's.
  /// - Throws: ``Failure`` when the file cannot be opened or read.
  func read(_ path: String, check: Bool) throws(Failure) -> Loaded {
    let name = JournalInput.displayName(path)
    let reader: JournalReader
    do {
      reader = try JournalReader(path: path, options: reading)
    } catch {
      throw Failure(message: displayText(error.description, limit: .max))
    }
    var run = NormalizedRun(options: options)
    var loaded = Loaded(name: name, run: NormalizedRun(options: options), errors: 0, warnings: 0, findings: [])
    func note(_ d: CheckFinding) {
      switch d.severity {
      case .error: loaded.errors += 1
      case .warning: loaded.warnings += 1
      }
      if loaded.findings.count < keep { loaded.findings.append(d) }
    }
    // Implementation note: two loops, so that the plain one (diff) carries no
    // checker state: every record of a large journal passes through it.
    if check {
      var checks = JournalCheck(rules: .all)
      var found: [CheckFinding] = []
      while let item = reader.next() {
        checks.consume(item, into: &found)
        for finding in found { note(finding) }
        found.removeAll(keepingCapacity: true)
        if case .record(let record, let line, _) = item {
          if case .session(let header) = record.event, loaded.header == nil { loaded.header = header }
          run.append(record, line: line)
        }
      }
      checks.finish(into: &found)
      for finding in found { note(finding) }
    } else {
      while let item = reader.next() {
        switch item {
        case .record(let record, let line, _):
          if case .session(let header) = record.event, loaded.header == nil { loaded.header = header }
          run.append(record, line: line)
        case .diagnostic(let d): note(.format(d))
        }
      }
    }
    if let error = reader.readError { throw Failure(message: displayText(error.description, limit: .max)) }
    loaded.run = run
    return loaded
  }
}

extension DiffOptions.Matching {
  /// What `--match` says: `auto` (the default), `id` or `class`.
  init(_ arguments: ParsedArguments) {
    self = arguments.choice(Option.match, as: Self.self) ?? .auto
  }
}

extension DiffOptions {
  /// What `--include`, `--exclude` and `--match` say is compared (`diff`, `bisect`, `step A B`).
  init(_ arguments: ParsedArguments) throws(UsageError) {
    self.init(matching: DiffOptions.Matching(arguments))
    let included = try arguments.values(Option.include).map { (t) throws(UsageError) in
      try EventFilter.typeName(t, "--include")
    }
    let excluded = try arguments.values(Option.exclude).map { (t) throws(UsageError) in
      try EventFilter.typeName(t, "--exclude")
    }
    if let both = included.first(where: excluded.contains) {
      throw UsageError("--include \(both) contradicts --exclude \(both)")
    }
    for type in included {
      guard !DiffOptions.excludedTypes.contains(type) else {
        throw UsageError("--include \(type): the header is never compared")
      }
      include(type)
    }
    for type in excluded { exclude(type) }
  }
}
