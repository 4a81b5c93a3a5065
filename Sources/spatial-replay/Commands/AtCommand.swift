import Journal
import Projection
import Rendering

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

    The list holds every controller allocated so far, the deallocated ones
    too: thousands on a long session. --controller lists only the ids given
    and --alive only the controllers alive after SEQ (both: the ids given
    that are alive); the count line says how many were listed, and the rest
    of the state and the map stay whole. An id the journal never allocates is
    a usage error with a suggestion; one it allocates after SEQ is listed as
    not allocated yet (with --json, a warning on stderr says so).
    """
  static let controller = Option.controller.help(
    "list only these controllers (comma-separated, repeatable); an id\nthe journal never allocates is a usage error")
  static let alive = Option.flag("--alive", "list only the controllers alive after SEQ")
  static let options =
    [
      Option.json.help("the state as one JSON object, with the map's layout under \"map\""), controller, alive,
    ] + MapOptions.options + Option.reading + [Option.maxErrors]
  static let exitStatus = PointQuery.exitStatus
  static let examples = [
    "spatial-replay at Journals/demo.intended.ndjson 42",
    "spatial-replay at --json journal.ndjson 120 | jq .focus",
    "spatial-replay at --alive --controller compose,editor Journals/notes.legacy.ndjson 60",
  ]

  var file: String
  var seq: Int
  var json: Bool
  /// `--controller` and `--alive`: the controllers listed.
  var listing: ControllerSelection
  var drawing: MapOptions
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 2 else {
      throw UsageError(
        "at needs a FILE and a SEQ ('-' for standard input), got \(arguments.positionals.count.counted("argument"))")
    }
    file = arguments.positionals[0]
    try JournalInput.refuseDirectories([file], command: Self.name)
    let text = arguments.positionals[1]
    guard let seq = Int(text), seq >= 0 else { throw UsageError("SEQ takes a whole number ≥ 0, got '\(text)'") }
    self.seq = seq
    json = arguments.flag(Option.json)
    let ids = arguments.values(Self.controller)
    if let empty = ids.firstIndex(of: "") { throw UsageError("--controller has an empty id at position \(empty + 1)") }
    listing = ControllerSelection(
      ids: ids.isEmpty ? nil : Set(ids.map { ControllerID($0) }), aliveOnly: arguments.flag(Self.alive))
    drawing = try MapOptions(arguments)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let query = try PointQuery.read(
      file, afterSeq: seq, options: reading, limit: limit, final: listing.ids != nil, context: &context)
    let state = query.state
    // The ids given that have no state after SEQ: allocated later (listed as such), or never (a usage error).
    var later: [ControllerState] = []
    for id in (listing.ids ?? []).sorted(by: { $0.rawValue < $1.rawValue }) where state[controller: id] == nil {
      if let final = query.final?[controller: id] {
        later.append(final)
        continue
      }
      let known = (query.final ?? state).controllers
      // A class given for an id: its controllers' ids are what was meant.
      let ofClass = known.filter { $0.className == id.rawValue }.map(\.id.rawValue)
      let error = UsageError(
        "--controller: \(displayText(JournalInput.displayName(file), limit: .max)) allocates no controller "
          + "'\(displayText(id.rawValue))'"
          + (ofClass.isEmpty
            ? NameSuggestion.text(for: id.rawValue, among: known.lazy.map(\.id.rawValue))
            : " (a class; did you mean its \(ofClass.count == 1 ? "controller" : "controllers") "
              + NameSuggestion.list(ofClass) + "?)"))
      // A journal with format errors keeps its status (2): the id may be on a line that did not decode.
      guard query.hadErrors else { throw error }
      context.warning(error.message)
    }
    let layout = MapLayout(state: state)
    if json {
      state.writeJSON(to: &context.stdout, map: layout, listing: listing)
      context.stdout.write("\n")
      for controller in later {
        context.warning(
          "--controller: '\(displayText(controller.id.rawValue))' is not allocated yet after seq \(seq) "
            + "(it is at seq \(controller.allocatedAt))")
      }
    } else {
      state.writeText(glyphs: drawing.glyphs, listing: listing, to: &context.stdout)
      for controller in later {
        context.stdout.write(
          "  \(drawing.glyphs.id(controller.id)): not allocated yet (allocated at seq \(controller.allocatedAt))\n")
      }
      context.stdout.write("\nmap:\n")
      MapRenderer(options: drawing.rendererOptions(context)).render(layout, to: &context.stdout)
    }
    return query.hadErrors ? ExitCode.badInput : ExitCode.ok
  }
}
