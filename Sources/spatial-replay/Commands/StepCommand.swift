import Dispatch
import Journal
import Projection
import Rendering
import Stepper

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `step FILE` / `step A B`: the interactive replay, one event at a time.
struct StepCommand: Command {
  static let name = "step"
  static let abstract = "Step through a journal (or two side by side) event by event, full screen"
  static let usage = ["spatial-replay step [options] FILE", "spatial-replay step [options] A B"]
  static let discussion = """
    A full-screen view of one journal at one event: the map (focus
    highlighted), the move the event belongs to, the events around it, the
    transition in flight, every controller's appearance phase, the findings of
    'check' at or before it, and a status line with the position and the total
    (seq 1,234 / 1,000,000). With two journals, the runs stand side by side,
    aligned as 'diff' aligns them (their controllers matched as --match
    says, by default as 'diff' matches them), and the keys jump between
    divergences.

    The filters (--from/--to, --since/--until, --type, --controller) choose
    the events that l, h, PgDn, PgUp, g and G stop at; the state shown is
    always the whole journal's, and the other keys still reach every event.
    """
  /// The keys, written from the stepper's one table of them, then how keys are read.
  static var details: String {
    let one = StepperBinding.lines(comparison: false, glyphs: .unicode)
    let two = StepperBinding.lines(StepperBinding.table.filter { $0.scope == .twoJournals }, glyphs: .unicode)
    return "keys:\n" + one.map { "  " + $0 + "\n" }.joined()
      + "  with two journals A B (instead of the search keys):\n" + two.map { "    " + $0 + "\n" }.joined()
      + "  '?' opens the backward search, so the help is H, F1, or '?' followed\n"
      + "  by Enter with nothing typed. Esc cancels a prompt, any key closes the\n"
      + "  help, q and Ctrl-C quit (the terminal is restored either way).\n\n" + readingKeys
  }

  static let readingKeys = """
    On a terminal (standard input and output both, TERM not 'dumb') the view
    takes the whole window and follows its size. Otherwise, or with --keys,
    step reads key names from standard input (several per line, separated by
    spaces) or from --keys, and prints the screen after each one, preceded by
    a line '--- frame N (KEY) ---' (frame 0 is the first screen): scriptable
    and testable. Key names: a character (l h ] [ g G n N f F d D q ...),
    Right Left Up Down PgUp PgDn Home End Enter Esc Backspace Space F1, and
    whole prompts :1234 /didAppear ?willAppear ('?' alone shows the help).
    Findings about the journal are shown in the view, not printed.
    """
  static let keys = Option.value("--keys", "KEYS", "press these keys (scripted, even on a terminal)")
  static let size = Option.value("--size", "WxH", "the screen size when scripted (default 80x24)")
  static let model = Option.model.help(
    "also compare the recording with the reference model of PROFILE\n(intended, the default, or legacy), as 'check --model'"
  )
  static let options =
    [keys, size, Option.ascii, model, Option.include, Option.exclude, Option.match] + Option.filters
    + Option.reading
  static let exitStatus = """
    0 quit or keys done, 2 a file could not be read or has format errors
    (shown in the view), 64 usage error.
    """
  static let examples = [
    "spatial-replay step Journals/notes.legacy.ndjson",
    "spatial-replay step Journals/notes.intended.ndjson Journals/notes.legacy.ndjson",
    #"spatial-replay step --keys "G f f :12 /didAppear n q" --size 100x30 journal.ndjson"#,
    #"echo "l l ] PgDn" | spatial-replay step journal.ndjson"#,
  ]

  /// The smallest scripted screen.
  static let minimumSize = (width: 20, height: 1)

  var files: [String]
  var keys: [(name: String, keys: [StepperKey])]?
  var size: (width: Int, height: Int)
  var options: Stepper.Options
  var reading: ReadOptions
  var model: Profile?
  var diffOptions: DiffOptions
  var filter: EventFilter

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try arguments.oneOrTwoJournals(Self.name, needs: "takes one journal FILE, or two journals A B")
    try JournalInput.checkStandardInputOnce(files)
    if let text = arguments.value(Self.keys) { keys = try Self.keys(text) }
    size = (80, 24)
    if let text = arguments.value(Self.size) { size = try Self.size(text) }
    options = Stepper.Options(glyphs: Glyphs(ascii: arguments.flag(Option.ascii)))
    reading = try ReadOptions(arguments)
    model = arguments.flag(Self.model) ? arguments.value(Self.model).flatMap(Profile.init(rawValue:)) ?? .intended : nil
    diffOptions = try DiffOptions(arguments)
    filter = try EventFilter(arguments)
    if filter.isActive && files.count == 2 {
      throw UsageError("the filters select events of one journal; step A B moves along the diff's rows")
    }
  }

  /// Key names separated by spaces, each checked.
  static func keys(_ text: String, line: Int? = nil) throws(UsageError) -> [(name: String, keys: [StepperKey])] {
    var out: [(name: String, keys: [StepperKey])] = []
    for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      let name = String(token)
      guard let keys = StepperKey.sequence(named: name) else {
        let place = line.map { "line \($0): " } ?? ""
        throw UsageError(
          "\(place)unknown key '\(displayText(name))' (a character, Right Left Up Down PgUp PgDn Home End "
            + "Enter Esc Backspace Space F1, or :SEQ /TEXT ?TEXT)")
      }
      out.append((name, keys))
    }
    return out
  }

  /// `WxH`, e.g. `80x24`.
  static func size(_ text: String) throws(UsageError) -> (width: Int, height: Int) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= minimumSize.width,
      height >= minimumSize.height, width <= 10_000, height <= 10_000
    else {
      throw UsageError(
        "--size takes WIDTHxHEIGHT, at least \(minimumSize.width)x\(minimumSize.height), e.g. 80x24, got '\(displayText(text))'"
      )
    }
    return (width, height)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let scripted =
      keys != nil || !context.stdinIsTerminal || !context.stdoutIsTerminal || context.environment["TERM"] == "dumb"
    if scripted && keys == nil && files.contains("-") {
      throw UsageError("with a journal on standard input, give the keys with --keys")
    }
    guard scripted else {
      var opened: [PendingCheck] = []
      _ = try InteractiveLoop.run(context: &context, reading: files) { whenChecked throws(CommandFailure) in
        let (stepper, checks) = try open(whenChecked: whenChecked, onTerminal: true)
        opened = checks
        return (stepper, checks)
      }
      return Self.status(opened)
    }
    let (pending, checks) = try open(whenChecked: {})
    let stepper = pending.withFindings(checks[0].wait(), b: checks.count > 1 ? checks[1].wait() : nil)
    defer { Self.leaveToTheExit(stepper) }
    var state = stepper.start()
    var frame = 0
    func show(_ label: String, _ context: inout Context) {
      context.stdout.write("--- frame \(frame) (\(displayText(label))) ---\n")
      for line in stepper.render(state, size: size) { context.stdout.write(line + "\n") }
      frame += 1
    }
    show("start", &context)
    /// Presses the keys of one token; false once `q` was pressed.
    func press(_ token: (name: String, keys: [StepperKey]), _ context: inout Context) -> Bool {
      for key in token.keys {
        state = stepper.handle(key, in: state)
        if state.quit { return false }
      }
      show(token.name, &context)
      return true
    }
    if let keys {
      for token in keys where !press(token, &context) { break }
      return Self.status(checks)
    }
    context.stdout.flush()
    var line = 0
    while let text = readLine(strippingNewline: true) {
      line += 1
      for token in try Self.keys(text, line: line) where !press(token, &context) { return Self.status(checks) }
      context.stdout.flush()
    }
    return Self.status(checks)
  }

  /// Keeps the stepper's journals until the process exits, instead of freeing
  /// them when the command returns: the process ends right after the last
  /// screen, and freeing a large journal (each record's strings, the
  /// snapshots) would delay the exit for nothing. Only large journals are kept;
  /// the small ones of the in-process tests are freed.
  private static func leaveToTheExit(_ stepper: Stepper) {
    let events =
      switch stepper.source {
      case .journal(let journal): journal.count
      case .comparison(let comparison): comparison.a.count + comparison.b.count
      }
    guard events >= 1 << 16 else { return }
    _ = Unmanaged.passRetained(KeptUntilExit(stepper))
  }

  /// A stepper no one frees (``leaveToTheExit(_:)``).
  private final class KeptUntilExit: Sendable {
    let stepper: Stepper
    init(_ stepper: Stepper) { self.stepper = stepper }
  }

  /// The exit status: 2 when a journal has format errors (they are shown in the view), else 0.
  static func status(_ checks: [PendingCheck]) -> Int32 {
    var verdict = Verdict()
    for check in checks { verdict.noteFormatErrors(check.formatErrors) }
    return verdict.status
  }

  /// Reads one journal, decoding on every core while this thread folds the
  /// records decoded (``StepperJournal/Loader``). With `checkAsRead` (scripted:
  /// the first screen waits for the findings anyway) it checks them too, the
  /// timeline's snapshots taken from the check's fold; else (on a terminal:
  /// the screen comes first) the check starts on another thread once the
  /// journal is read, and calls `whenChecked` when it is done.
  ///
  /// Implementation note: decoding on other threads, and folding once for both
  /// the timeline and the check, brings the first screen of a large journal
  /// sooner than reading on one thread and checking afterwards would.
  static func load(
    _ path: String, reading: ReadOptions, model: Profile?, checkAsRead: Bool,
    whenChecked: @escaping @Sendable () -> Void
  ) throws(JournalFileError) -> (StepperJournal, PendingCheck) {
    let reader = try JournalPass(path: path, options: reading)
    var loader = StepperJournal.Loader(
      model: model, expectedRecords: expectedRecords(path), checkAsRead: checkAsRead)
    while var batch = reader.next() {
      // Each item is moved out of the batch into the loader: reversed in
      // place by moving the items' bytes, then taken from the end (popLast
      // moves). Borrowed instead, each record would be copied into the journal
      // and the batch's copy destroyed; `reverse()` would copy the items it swaps.
      batch.items.items.withUnsafeMutableBufferPointer { items in
        guard var low = items.baseAddress, items.count > 1 else { return }
        var high = low + (items.count - 1)
        while low < high {
          let item = low.move()
          low.moveInitialize(from: high, count: 1)
          high.initialize(to: item)
          low += 1
          high -= 1
        }
      }
      while let item = batch.items.items.popLast() { loader.consume(item) }
    }
    if let error = reader.readError { throw error }
    return loader.finish(name: path == "-" ? "<stdin>" : path, whenChecked: whenChecked)
  }

  /// Room for the records of a journal file, guessed from its size: lines of
  /// journals are rarely shorter than 80 bytes (about 120 in the bundled ones
  /// and the simulator's). Reserved and never written, the rest of the room
  /// costs address space, not memory; growing by doubling instead would copy
  /// a large journal's records several times over, page faults included.
  static func expectedRecords(_ path: String) -> Int {
    InputSize.of(path).map { min(Int($0) / 80, 1 << 24) } ?? 0
  }

  /// Reads the journal (or both) and builds the stepper. Scripted, each is
  /// checked as it is read; `onTerminal`, the checks go on in the background
  /// and call `whenChecked` when each is done, and one journal's search index
  /// is built in the background too, so that even the first search answers at once.
  private func open(
    whenChecked: @escaping @Sendable () -> Void, onTerminal: Bool = false
  ) throws(CommandFailure) -> (stepper: Stepper, checks: [PendingCheck]) {
    var journals: [StepperJournal] = []
    var checks: [PendingCheck] = []
    for file in files {
      do {
        let (journal, check) = try Self.load(
          file, reading: reading, model: model, checkAsRead: !onTerminal,
          whenChecked: whenChecked)
        journals.append(journal)
        checks.append(check)
      } catch {
        throw CommandFailure(displayText(error.description, limit: .max))
      }
    }
    if journals.count == 2 {
      let comparison = StepperComparison(journals[0], journals[1], options: diffOptions)
      return (Stepper(comparison: comparison, options: options), checks)
    }
    if onTerminal {
      let journal = journals[0]
      DispatchQueue.global(qos: .utility).async { journal.prepareSearch() }
    }
    var selection: [Int]? = nil
    if filter.isActive {
      var filter = self.filter
      selection = journals[0].records.indices.filter { filter.selects(journals[0].records[$0]) }
      do {
        try filter.checkControllersSeen()
      } catch {
        throw CommandFailure(error.message, exitCode: ExitCode.usage)
      }
      if selection?.isEmpty == true { throw CommandFailure("no event passes the filters", exitCode: ExitCode.usage) }
    }
    return (Stepper(journal: journals[0], options: options, selection: selection), checks)
  }
}
