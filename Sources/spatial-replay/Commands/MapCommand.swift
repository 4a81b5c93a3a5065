import Journal
import Projection
import Rendering

/// `map FILE`: draws the map at the end of a journal, or after one event.
struct MapCommand: Command {
  static let name = "map"
  static let abstract = "Draw the map of controllers and links, at the end or after one event"
  static let usage = ["spatial-replay map [options] FILE"]
  static let discussion = """
    Replays the journal ('-' for standard input) and draws its map: every
    controller reachable from the root, placed by a breadth-first walk (up,
    left, down, right), with its links (a double line where either side needs
    two or more fingers), the focus as [id] in a double frame, modals with a *.
    Controllers on one cell and links longer than one step are listed as
    collisions; controllers the walk does not reach as detached (a long list
    is cut to what fits in a few lines, with a count). Ids are drawn whole;
    when the map would not fit the width, boxes narrow down to 12 columns
    of id, shortening an id in the middle so that the start of its class
    and its instance number show (Notes…ler#12), never two alike, and
    what still does not fit is cropped around the focus. Findings about the
    journal go to stderr.
    """
  static let at = Option.value("--at", "SEQ", "the map after the event SEQ (default: after the last event)")
  static let options = [at] + MapOptions.options + Option.reading + [Option.maxErrors]
  static let exitStatus = PointQuery.exitStatus
  static let examples = [
    "spatial-replay map Journals/demo.intended.ndjson",
    "spatial-replay map --at 40 --ascii --width 120 journal.ndjson",
  ]

  var file: String
  var seq: Int?
  var drawing: MapOptions
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    file = try arguments.singleJournal(Self.name)
    seq = try arguments.int(Self.at, min: 0)
    drawing = try MapOptions(arguments)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let query = try PointQuery.read(file, afterSeq: seq, options: reading, limit: limit, context: &context)
    MapRenderer(options: drawing.rendererOptions(context)).render(MapLayout(state: query.state), to: &context.stdout)
    return query.hadErrors ? ExitCode.badInput : ExitCode.ok
  }
}
