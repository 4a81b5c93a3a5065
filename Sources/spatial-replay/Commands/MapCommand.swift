import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    of id, cutting an id at its start so that its end shows (…troller#12)
    and never two alike, and what still does not fit is cropped around the
    focus. Findings about the journal go to stderr.
    """
  static let at = Option.value("--at", "SEQ", "the map after the event SEQ (default: after the last event)")
  static let options = [at, Option.ascii, Option.width] + Option.reading + [Option.maxErrors]
  static let exitStatus = """
    0 fine, 2 the file could not be read, the journal has format errors or
    no event with SEQ (a gap), 64 usage error (SEQ beyond the journal's
    range included).
    """
  static let examples = [
    "spatial-replay map Journals/demo.intended.ndjson",
    "spatial-replay map --at 40 --ascii --width 120 journal.ndjson",
  ]

  /// The narrowest `--width` accepted.
  static let minimumWidth = 10

  var file: String
  var seq: Int?
  var ascii: Bool
  var width: Int?
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else {
      throw UsageError("map needs exactly one FILE ('-' for standard input)")
    }
    file = arguments.positionals[0]
    seq = try arguments.int(Self.at, min: 0)
    ascii = arguments.flag(Option.ascii)
    width = try arguments.int(Option.width, min: Self.minimumWidth)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let query = try PointQuery.read(file, afterSeq: seq, options: reading, limit: limit, context: &context)
    let options = MapRenderer.Options(
      width: width ?? Self.defaultWidth(context), glyphs: Glyphs(ascii: ascii), color: context.useColor)
    MapRenderer(options: options).render(MapLayout(state: query.state), to: &context.stdout)
    return query.hadErrors ? ExitCode.badInput : ExitCode.ok
  }

  /// The terminal's width when stdout is one, else 80.
  static func defaultWidth(_ context: Context) -> Int {
    guard context.stdoutIsTerminal else { return 80 }
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= UInt16(minimumWidth) else { return 80 }
    return Int(size.ws_col)
  }
}
