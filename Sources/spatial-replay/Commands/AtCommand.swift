import Journal
import Projection

/// `at FILE SEQ`: the state of the map after one event.
struct AtCommand: Command {
  static let name = "at"
  static let abstract = "Show the state after one event: focus, transition, controllers, the map"
  static let usage = ["spatial-replay at [options] FILE SEQ"]
  static let discussion = """
    Replays the journal ('-' for standard input) up to and including the event
    SEQ and prints the state after it: the root, the focus, the transition (in
    flight, with the callbacks that arrived and those missing), every controller
    with its class, load count, phase, modal and presenter, links and minimum
    touches, then the map (as 'map' draws it). Findings about the journal go to
    stderr; the command works on every event that could be read.
    """
  static let options =
    [
      Option.json.help("the state as one JSON object, with the map's layout under \"map\"")
    ] + MapDrawing.options + Option.reading + [Option.maxErrors]
  static let exitStatus = PointQuery.exitStatus
  static let examples = [
    "spatial-replay at Journals/demo.intended.ndjson 42",
    "spatial-replay at --json journal.ndjson 120 | jq .focus",
  ]

  var file: String
  var seq: Int
  var json: Bool
  var drawing: MapDrawing
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 2 else {
      throw UsageError(
        "at needs a FILE and a SEQ ('-' for standard input), got \(arguments.positionals.count.counted("argument"))")
    }
    file = arguments.positionals[0]
    let text = arguments.positionals[1]
    guard let seq = Int(text), seq >= 0 else { throw UsageError("SEQ takes a whole number ≥ 0, got '\(text)'") }
    self.seq = seq
    json = arguments.flag(Option.json)
    drawing = try MapDrawing(arguments)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let query = try PointQuery.read(file, afterSeq: seq, options: reading, limit: limit, context: &context)
    let state = query.state
    let layout = MapLayout(state: state)
    if json {
      state.writeJSON(to: &context.stdout, map: layout)
      context.stdout.write("\n")
    } else {
      state.writeText(glyphs: drawing.glyphs, to: &context.stdout)
      context.stdout.write("\nmap:\n")
      MapRenderer(options: drawing.rendererOptions(context)).render(layout, to: &context.stdout)
    }
    return query.hadErrors ? ExitCode.badInput : ExitCode.ok
  }
}
