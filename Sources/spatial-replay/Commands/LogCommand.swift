import Journal
import Projection
import Rendering

/// `log FILE`: the events of a journal as readable lines.
struct LogCommand: Command {
  static let name = "log"
  static let abstract = "List events as readable lines (time, seq, sentence), filtered"
  static let usage = ["spatial-replay log [options] FILE"]
  static let discussion = """
    Prints each event of the journal ('-' for standard input) that the filters
    select as one line: the time of day (UTC, milliseconds), the seq and a
    sentence, e.g.
      10:00:01.000 #10 home → notes (left, pan, animated)
      10:00:01.250 #13 home: didDisappear
    On a terminal the time is dim and events are coloured by type (see
    --color). Findings about the journal go to stderr.
    """
  static let options =
    Option.filters + [
      Option.json.help("the selected events as NDJSON, each line exactly as in the journal"), Option.ascii,
    ] + Option.reading + [Option.maxErrors]
  static let exitStatus = """
    0 fine, 2 the file could not be read or the journal has format errors,
    64 usage error.
    """
  static let examples = [
    "spatial-replay log --type move,pan Journals/notes.intended.ndjson",
    "spatial-replay log --controller compose --from 20 --to 80 journal.ndjson",
  ]

  var file: String
  var filter: EventFilter
  var json: Bool
  var glyphs: Glyphs
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    file = try arguments.singleJournal(Self.name)
    filter = try EventFilter(arguments)
    json = arguments.flag(Option.json)
    glyphs = Glyphs(ascii: arguments.flag(Option.ascii))
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let name = JournalInput.displayName(file)
    let reader: JournalReader
    do {
      reader = try JournalReader(path: file, options: reading)
    } catch {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    let color = context.useColor
    var verdict = Verdict()
    var filter = self.filter
    var shown = ShownFindings(name: name, limit: limit)
    while let item = reader.next() {
      switch item {
      case .record(let record, _, _):
        guard filter.selects(record) else { continue }
        if json {
          reader.withCurrentLine { line in context.stdout.write(bytes: line) }
          context.stdout.write("\n")
        } else {
          LogLine.write(record, color: color, glyphs: glyphs, to: &context.stdout)
        }
      case .diagnostic(let diagnostic):
        verdict.note(diagnostic)
        shown.write(diagnostic, &context.stderr)
      }
    }
    shown.end(&context.stderr)
    if let error = reader.readError {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    try filter.checkControllersSeen()
    return verdict.status
  }
}
