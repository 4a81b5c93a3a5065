import Journal
import Projection
import Rendering

/// `script JOURNAL`: the scenario script of a journal's inputs, which `record` turns back into the journal.
struct ScriptCommand: Command {
  static let name = "script"
  static let abstract = "Write the scenario script of a journal's inputs (record turns it back into the journal)"
  static let usage = ["spatial-replay script [options] JOURNAL"]
  static let discussion = """
    Writes the scenario script (the language of 'record', docs/model.md) of the
    journal's inputs: its session (id, app, build, device, start), controllers,
    root, links, unlinks, touches, pans, moves, modals, goToRoot walks,
    deallocs and marks, with the waits that put each command at its time.
    Lifecycle callbacks are outputs, not inputs: no line says them. For a
    journal the model recorded, 'record --profile P' of the script (named
    SCENARIO.scenario, after the header's scenario) gives the same journal
    byte for byte; the journal's profile is the header's, else --profile, else
    the one under which more of the journal comes out as recorded.

    A pan whose recorded outcome depends on a snapping threshold that the
    journal does not hold gets a 'threshold' line before it. For a journal an
    app wrote, the script says the same inputs with the app's ids; an input
    the model refuses (a move without its pan, a link to a deallocated
    controller...) or that a script cannot say (a line feed in an id) becomes
    a comment '# line N: ...' and a note on standard error naming the
    journal's line.
    """
  static let options =
    [
      Option.profile.help(
        "the profile to replay with when the header names none: intended\nor legacy (default: the one that explains more of the journal)"
      ),
      Option.output,
    ] + Option.reading
  static let exitStatus = """
    0 every input written as a command, 1 the script was written but some
    inputs are comments (notes on standard error) or its recording would
    differ from the journal, 2 the journal cannot be read or has format
    errors (nothing written), 64 usage error.
    """
  static let examples = [
    "spatial-replay script Journals/notes.legacy.ndjson -o notes.scenario",
    "spatial-replay record --profile legacy notes.scenario | cmp - Journals/notes.legacy.ndjson",
    "spatial-replay simulate --events 2000 --profile legacy | spatial-replay script -",
  ]

  let file: String
  let profile: Profile?
  let output: String?
  let reading: ReadOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    file = try arguments.singleJournal(Self.name)
    profile = arguments.choice(Option.profile, as: Profile.self)
    output = arguments.value(Option.output).flatMap { $0 == "-" ? nil : $0 }
    if output == "" { throw UsageError("-o needs a path") }
    reading = try ReadOptions(arguments)
    if let output { try InputFiles([file]).refuse(output) }
  }

  func run(_ context: inout Context) throws -> Int32 {
    let journal = try LoadedJournal.read(file, options: reading, context: &context)
    let script = JournalScript(journal.records, lines: journal.lines, profile: profile)
    let name = JournalInput.displayName(file)
    for note in script.notes {
      context.stderr.write("spatial-replay: note: \(displayText(name, limit: .max)):\(note.line): \(note.message)\n")
    }
    if script.notes.isEmpty, let line = script.firstDifference {
      context.stderr.write(
        "spatial-replay: note: \(displayText(name, limit: .max)):\(line): from this event on, the script's "
          + "recording differs from the journal (the journal was not written by the \(script.profile) model)\n")
    }
    let bytes = Array(script.text.utf8)
    if let output {
      try AtomicFile.replace(output, with: bytes)
    } else {
      context.stdout.write(bytes: bytes)
    }
    return script.reproduces ? ExitCode.ok : ExitCode.findings
  }
}

/// A whole journal in memory: its records and their lines, for `script` and `shrink`.
struct LoadedJournal {
  var records: [Record] = []
  var lines: [Int] = []

  /// Reads a journal; its format errors (and warnings, with --strict) are written as `check`
  /// writes them and end the command with status 2.
  static func read(_ path: String, options: ReadOptions, context: inout Context) throws(CommandFailure)
    -> LoadedJournal
  {
    let reader: JournalReader
    if path == "-" {
      reader = JournalReader(fileDescriptor: 0, name: "<stdin>", options: options)
    } else {
      do {
        reader = try JournalReader(path: path, options: options)
      } catch {
        throw CommandFailure("cannot read '\(displayText(path, limit: .max))': \(error)")
      }
    }
    return try read(reader, name: JournalInput.displayName(path), options: options, context: &context)
  }

  /// Reads a journal held in memory (`shrink` reads its input before it knows what it is).
  static func read(bytes: [UInt8], name: String, options: ReadOptions, context: inout Context) throws(CommandFailure)
    -> LoadedJournal
  {
    let reader = JournalReader(bytes: bytes, name: name, options: options)
    return try read(reader, name: JournalInput.displayName(name), options: options, context: &context)
  }

  private static func read(_ reader: JournalReader, name: String, options: ReadOptions, context: inout Context)
    throws(CommandFailure) -> LoadedJournal
  {
    let path = name
    var journal = LoadedJournal()
    var errors = 0
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, _):
        journal.records.append(record)
        journal.lines.append(line)
      case .diagnostic(let diagnostic):
        guard diagnostic.severity == .error || options.strict else { continue }
        errors += 1
        if errors <= 10 { context.stderr.write(diagnostic, file: name) }
      }
    }
    if let error = reader.readError {
      throw CommandFailure("cannot read '\(displayText(path, limit: .max))': \(error)")
    }
    guard errors == 0 else {
      throw CommandFailure(
        "\(displayText(name, limit: .max)): \(errors) format error\(errors == 1 ? "" : "s"): "
          + "not a journal to take inputs from ('spatial-replay check' lists them)")
    }
    guard let first = journal.records.first, case .session = first.event else {
      throw CommandFailure("\(displayText(name, limit: .max)): no session header: not a journal")
    }
    return journal
  }
}
