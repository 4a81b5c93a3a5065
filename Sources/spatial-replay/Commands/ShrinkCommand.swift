import Journal
import Projection
import Rendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `shrink JOURNAL|SCRIPT --rule RULE`: the smallest script whose recording still shows RULE.
struct ShrinkCommand: Command {
  static let name = "shrink"
  static let abstract = "Shrink a session to a 1-minimal script that still shows a finding (delta debugging)"
  static let usage = ["spatial-replay shrink [options] --rule RULE JOURNAL|SCRIPT"]
  static let discussion = """
    Finds a small scenario script whose recording still has a finding of
    RULE, by delta debugging over the commands of the session: a journal is
    first turned into its script (as 'script' does), then commands are
    removed, first every command naming one controller at once, then by
    ddmin (halves, quarters, ... of what is left), then one at a time until
    none can go. The result is 1-minimal: removing any one of its commands
    makes the script invalid or loses the finding. The 'session' line is
    kept; the other lines are the input's, in order.

    A candidate is recorded by the reference model and checked as
    'check --rule RULE' checks (model-divergence against the intended
    model); a candidate the model refuses (a command naming a controller
    that was removed) is not interesting. The profile is --profile, else the
    journal header's, else legacy (the intended model's recordings check
    clean). --run CMD puts another runner in the loop, such as an app in a
    simulator: CMD is run by /bin/sh with the candidate script's path as its
    last argument (/bin/sh -c 'CMD "$1"' sh CANDIDATE) and must print the
    journal of that run on standard output; exit status 125 means the
    candidate cannot be tested, any other non-zero status that it does not
    show RULE. Its standard error is shown with --verbose only.

    On a terminal, standard error shows the runs so far and the size of the
    smallest script; a summary line ends the run. Ctrl-C (or SIGTERM) stops
    the search and writes the smallest script found so far.
    """
  static let rule = Option.value(
    "--rule", "RULE", "the finding to keep (a rule of 'check', e.g. modal-leak)",
    values: .suggested(Rule.ids))
  static let runOption = Option.value(
    "--run", "CMD",
    "the runner: a shell command given the candidate script's path as\nits last argument, printing the journal of its run"
  )
  static let verbose = Option.flag("--verbose", short: "-v", "show the runner's standard error")
  static let options =
    [
      rule,
      Option.profile.help("the model's profile: intended or legacy (default: the journal\nheader's, else legacy)"),
      runOption, verbose, Option.output, Option.quiet,
    ] + Option.reading
  static let exitStatus = """
    0 shrunk, 1 the input's recording does not show RULE (nothing written), 2
    the input cannot be read (a journal with format errors, a script error)
    or the output not written, 64 usage error, 130 interrupted (the smallest
    script so far written).
    """
  static let examples = [
    "spatial-replay shrink --rule modal-leak Journals/notes.legacy.ndjson",
    "spatial-replay shrink --rule touches-violated session.scenario -o minimal.scenario",
    #"spatial-replay shrink --rule load-repeated --run 'spatial-replay record --profile legacy' long.scenario"#,
    "spatial-replay shrink --rule misattributed --run ./run-in-simulator.sh app.ndjson",
  ]

  let file: String
  let rule: Rule
  let profile: Profile?
  let run: String?
  let verbose: Bool
  let quiet: Bool
  let output: String?
  let reading: ReadOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else {
      throw UsageError(arguments.positionals.isEmpty ? "shrink needs a JOURNAL or SCRIPT" : "shrink takes one input")
    }
    file = arguments.positionals[0]
    try JournalInput.refuseDirectories([file], command: Self.name)
    guard let rule = arguments.value(Self.rule) else { throw UsageError("shrink needs --rule RULE") }
    guard let known = Rule(id: rule) else { throw UsageError(UnknownRuleError(id: rule).description) }
    self.rule = known
    profile = arguments.choice(Option.profile, as: Profile.self)
    run = arguments.value(Self.runOption)
    if run?.allSatisfy({ $0 == " " }) == true { throw UsageError("--run needs a command") }
    verbose = arguments.flag(Self.verbose)
    quiet = arguments.flag(Option.quiet)
    output = arguments.value(Option.output).flatMap { $0 == "-" ? nil : $0 }
    if output == "" { throw UsageError("-o needs a path") }
    reading = try ReadOptions(arguments)
    if let output { try InputFiles([file]).refuse(output) }
  }

  func run(_ context: inout Context) throws -> Int32 {
    let input = try ShrinkInput.read(file, reading: reading, profile: profile, context: &context)
    let commands = input.scenario.lines.dropFirst(input.hasSession ? 1 : 0).map(\.command)
    let runner = run.map {
      ScriptRunner(
        command: $0, rule: rule, name: input.scenario.name, verbose: verbose, lines: input.lineTexts,
        hasSession: input.hasSession)
    }
    let started = ContinuousClock.now
    var progress = ShrinkProgress(enabled: context.showProgress && !quiet, total: commands.count)

    StopRequest.catchSignals()
    defer { StopRequest.restoreSignals() }

    var runs = 0
    var smallest = commands.count
    let test = { (kept: [Int], stderr: inout FileOutput) -> Shrinker.Answer in
      guard !StopRequest.isRequested else { return .stop }
      runs += 1
      let shows: Bool
      if let runner {
        shows = runner.shows(kept)
      } else {
        shows = ScenarioShrink.shows(rule, input.scenario, keeping: kept, profile: input.profile)
      }
      // A runner killed by the Ctrl-C that stops the search says nothing of the candidate.
      guard !StopRequest.isRequested else { return .stop }
      if shows { smallest = min(smallest, kept.count) }
      progress.update(runs: runs, smallest: smallest, &stderr)
      return shows ? .interesting : .not
    }
    let all = Array(0..<commands.count)
    guard test(all, &context.stderr) == .interesting else {
      progress.finish(&context.stderr)
      if StopRequest.isRequested {
        context.stderr.write("shrink: interrupted before the first run ended: nothing written\n")
        return 130
      }
      context.error(
        "the recording of \(displayText(JournalInput.displayName(file), limit: .max)) "
          + "(\(run == nil ? "\(input.profile) model" : "--run")) has no finding of \(rule): nothing to shrink")
      return ExitCode.findings
    }
    var shrinker = Shrinker(count: commands.count)
    let result = shrinker.run(groups: ScenarioShrink.groups(commands)) { kept in test(kept, &context.stderr) }
    progress.finish(&context.stderr)

    let text = input.script(keeping: result.kept, rule: rule, original: commands.count)
    if let output {
      try AtomicFile.replace(output, with: Array(text.utf8))
    } else {
      context.stdout.write(text)
    }
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let percent = commands.isEmpty ? 100 : Double(result.kept.count) * 100 / Double(commands.count)
    if !quiet {
      let summary =
        "shrink: \(commands.count) → \(result.kept.count) commands (\(Self.format(percent)) %), "
        + "\(runs) runs, \(Self.format(seconds)) s"
      if result.stopped {
        context.stderr.write(
          summary + "; interrupted: the smallest script found so far (not known to be 1-minimal) "
            + (output == nil ? "written to standard output" : "written to \(displayText(output ?? "", limit: .max))")
            + "\n")
      } else {
        context.stderr.write(summary + "; 1-minimal for \(rule)\n")
      }
    }
    return result.stopped ? 130 : ExitCode.ok
  }

  static func format(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
  }
}

/// The input of `shrink`, as a parsed script and its lines' text.
private struct ShrinkInput {
  var scenario: Scenario
  var profile: Profile
  var hasSession: Bool
  /// The text of each command line (the `session` line first when there is one), as in the script.
  var lineTexts: [String]

  static func read(_ path: String, reading: ReadOptions, profile: Profile?, context: inout Context)
    throws(CommandFailure)
    -> ShrinkInput
  {
    let bytes = try readInput(path, nameLimit: .max)
    var text: [UInt8]
    var scriptName = path
    var headerProfile: Profile? = nil
    let gzip = bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    if gzip
      || bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t") })
        == UInt8(ascii: "{")
    {
      let journal =
        gzip && path != "-"
        ? try LoadedJournal.read(path, options: reading, context: &context)
        : try LoadedJournal.read(bytes: bytes, name: path, options: reading, context: &context)
      let script = JournalScript(journal.records, lines: journal.lines, profile: profile)
      for note in script.notes {
        context.stderr.write(
          "spatial-replay: note: \(displayText(JournalInput.displayName(path), limit: .max)):\(note.line): "
            + "\(note.message)\n")
      }
      text = Array(script.text.utf8)
      headerProfile = script.profile
      scriptName = (script.scenarioName ?? ScenarioParser.scenarioName(forScript: path)) + ".scenario"
    } else {
      text = bytes
    }
    let scenario: Scenario
    do {
      scenario = try ScenarioParser.parse(text, script: scriptName == "-" ? "-" : scriptName)
    } catch {
      throw CommandFailure("\(error)")
    }
    let chosen = profile ?? headerProfile ?? .legacy
    // The whole script must run: a script error is the input's, not a candidate's.
    do {
      _ = try ScenarioCompiler.run(scenario, profile: chosen)
    } catch {
      throw CommandFailure("\(error)")
    }
    let hasSession = scenario.session != nil
    let all = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let lineTexts = scenario.lines.map { line -> String in
      var bytes = all[line.number - 1]
      if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
      return String(decoding: bytes, as: UTF8.self)
    }
    return ShrinkInput(
      scenario: scenario, profile: chosen, hasSession: hasSession,
      lineTexts: lineTexts)
  }

  /// The shrunk script: a comment, the `session` line, then the kept commands' lines.
  func script(keeping kept: [Int], rule: Rule, original: Int) -> String {
    var out = "# spatial-replay shrink --rule \(rule): \(kept.count) of \(original) commands (profile \(profile))\n"
    if hasSession { out += lineTexts[0] + "\n" }
    let offset = hasSession ? 1 : 0
    for k in kept { out += lineTexts[k + offset] + "\n" }
    return out
  }
}

/// `--run CMD`: writes each candidate to a file and runs CMD on it.
private struct ScriptRunner {
  let command: String
  let rule: Rule
  let name: String
  let verbose: Bool
  let lines: [String]
  let hasSession: Bool

  /// Whether the journal CMD prints for the candidate has a finding of the rule.
  func shows(_ kept: [Int]) -> Bool {
    var template = Array((Context.temporaryDirectory + "/spatial-replay-shrink.XXXXXX").utf8CString)
    guard let dir = mkdtemp(&template) else { return false }
    let directory = String(cString: dir)
    let path = directory + "/" + (name.isEmpty ? "candidate" : name) + ".scenario"
    defer {
      unlink(path)
      rmdir(directory)
    }
    var text = ""
    if hasSession { text += lines[0] + "\n" }
    for k in kept { text += lines[k + (hasSession ? 1 : 0)] + "\n" }
    guard (try? AtomicFile.replace(path, with: Array(text.utf8))) != nil else { return false }
    guard let (status, journal) = spawn(["/bin/sh", "-c", command + " \"$1\"", "sh", path]), status == 0 else {
      return false
    }
    let (records, diagnostics) = JournalReader.readAll(bytes: journal)
    guard !records.isEmpty else { return false }
    var items: [JournalItem] = diagnostics.map { .diagnostic($0) }
    items += records.enumerated().map { JournalItem.record($1, line: $0 + 1, offset: 0) }
    return ScenarioShrink.findings(of: rule, in: items) > 0
  }

  /// Runs a process, its standard output read to the end: its exit status (128 + the signal) and output.
  private func spawn(_ arguments: [String]) -> (Int32, [UInt8])? {
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if !verbose { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
    close(pipeFDs[1])
    guard spawned == 0 else {
      close(pipeFDs[0])
      return nil
    }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      output += chunk[..<n]
    }
    close(pipeFDs[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (code, output)
  }
}

/// The progress line of `shrink` on a terminal: runs so far and the smallest script.
private struct ShrinkProgress {
  let enabled: Bool
  let total: Int
  private var last: ContinuousClock.Instant?
  private var drawn = false

  init(enabled: Bool, total: Int) {
    self.enabled = enabled
    self.total = total
  }

  mutating func update(runs: Int, smallest: Int, _ stderr: inout FileOutput) {
    guard enabled else { return }
    let now = ContinuousClock.now
    if let last, now - last < .milliseconds(100) { return }
    last = now
    stderr.write("\r\u{1B}[Kshrink: \(runs) runs, smallest \(smallest) of \(total) commands")
    stderr.flush()
    drawn = true
  }

  mutating func finish(_ stderr: inout FileOutput) {
    guard drawn else { return }
    stderr.write("\r\u{1B}[K")
    stderr.flush()
    drawn = false
  }
}
