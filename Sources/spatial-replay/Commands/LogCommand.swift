import Journal
import Projection

/// `log FILE`: the events of a journal as readable lines.
struct LogCommand: Command {
  static let name = "log"
  static let abstract = "List events as readable lines (time, seq, sentence), filtered"
  static let help = """
    usage: spatial-replay log [--from SEQ] [--to SEQ] [--type T]... [--controller ID]... [--json] FILE

    Prints each event of the journal ('-' for standard input) as one line: the
    time of day (UTC, milliseconds), the seq and a sentence, e.g.
      10:00:01.000 #10 home → notes (left, pan, animated)
      10:00:01.250 #13 home: didDisappear
    On a terminal the time is dim and events are coloured by type (never with
    NO_COLOR or TERM=dumb). Findings about the journal go to stderr.

    options:
      --from SEQ         first seq to list (default: the first)
      --to SEQ           last seq to list, inclusive (default: the last)
      --type T           only events of type T (move, lifecycle, pan, ...); repeatable
      --controller ID    only events that name controller ID; repeatable
      --json             the selected events as NDJSON, each line exactly as in the journal

    exit status: 0 fine, 2 the file could not be read or the journal has errors,
    64 usage error.

    examples:
      spatial-replay log --type move --type pan Journals/notes.intended.ndjson
      spatial-replay log --controller compose --from 20 --to 80 journal.ndjson

    """
  static let spec = ArgumentSpec(flags: ["--json"], options: ["--from", "--to", "--type", "--controller"])

  var file: String
  var from: Int
  var to: Int
  var types: Set<String>
  var controllers: Set<ControllerID>
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else {
      throw UsageError("log needs exactly one FILE ('-' for standard input)")
    }
    file = arguments.positionals[0]
    from = try arguments.int("--from", min: 0) ?? 0
    to = try arguments.int("--to", min: 0) ?? Int.max
    guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
    types = Set(arguments.values("--type"))
    controllers = Set(arguments.values("--controller").map { ControllerID($0) })
    json = arguments.flag("--json")
  }

  func run(_ context: inout Context) throws -> Int32 {
    let name = JournalInput.displayName(file)
    let reader: JournalReader
    do {
      reader = try JournalReader(path: file)
    } catch {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    let color = context.useColor
    var errors = false
    while let item = reader.next() {
      switch item {
      case .record(let record, _, _):
        guard selects(record) else { continue }
        if json {
          reader.withCurrentLine { line in context.stdout.write(bytes: line) }
          context.stdout.write("\n")
        } else {
          LogLine.write(record, color: color, to: &context.stdout)
        }
      case .diagnostic(let diagnostic):
        if diagnostic.severity == .error { errors = true }
        context.stderr.write(diagnostic, file: name)
      }
    }
    if let error = reader.readError {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    return errors ? ExitCode.badInput : ExitCode.ok
  }

  /// Whether the filters let `record` through.
  func selects(_ record: Record) -> Bool {
    guard record.seq >= from && record.seq <= to else { return false }
    guard types.isEmpty || types.contains(record.event.typeName) else { return false }
    guard controllers.isEmpty || record.event.controllers.contains(where: controllers.contains) else { return false }
    return true
  }
}
