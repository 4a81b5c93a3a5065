import Journal
import Projection

/// `cat FILE...`: copies the events of journals through, optionally filtered.
struct CatCommand: Command {
  static let name = "cat"
  static let abstract = "Copy events of journals to stdout, filtered by seq range and type"
  static let usage = ["spatial-replay cat [options] FILE..."]
  static let discussion = """
    Copies every event of the journals ('-' for standard input) that the
    filters select (all of them when none is given) to stdout, byte for byte:
    unknown keys and unknown types survive. Lines that do not decode are left
    out and reported on stderr, with every other finding about the journals
    (as 'check' prints them).

    The copy is a piece of a journal: a slice has no header and names
    controllers allocated before it, and two journals give two headers and
    repeated seqs, so 'check' refuses it. With --replayable the output is a
    journal of its own that 'check' reads without format errors: the first
    header, then events that rebuild the state where the slice starts (the
    controllers alive, their loads and phases, the root and the focus, the
    modals, links and minimum touches), a mark 'replayable.start' with the
    source's seq there, then the slice, renumbered from 0 with each event's
    seq in the source kept under "sourceSeq". Several journals are read as
    one session in order (the later headers are left out). A slice that
    starts while a transition is in flight starts at the move that began
    it, and one that ends in a transition ends where the transition does
    (its last callback, or the next move). With --type or --controller, the allocs and deallocs inside the
    range are kept too, so that every id the slice names is allocated.
    See docs/cli.md.

    A progress bar shows on stderr when it is a terminal, standard output is
    not, and the work takes more than a second.
    """
  static let replayable = Option.flag(
    "--replayable",
    "write a journal that replays on its own: the header, the events that\nrebuild the state at the slice's start, then the slice renumbered\n(the source's seq in \"sourceSeq\")"
  )
  static let options = [replayable] + Option.filters + Option.reading + [Option.maxErrors]
  static let exitStatus = """
    0 fine (warnings alone are fine), 2 a file could not be read or a journal
    has format errors (its bad lines are left out), 64 usage error.
    """
  static let examples = [
    "spatial-replay cat --from 100 --to 199 journal.ndjson > slice.ndjson",
    "spatial-replay cat --type move,pan journal.ndjson",
    "spatial-replay cat --since 2026-01-01T10:00:00Z --controller compose journal.ndjson",
    "spatial-replay cat --replayable --from 40 --to 90 journal.ndjson | spatial-replay check -",
    "spatial-replay cat --replayable part1.ndjson part2.ndjson > whole.ndjson",
  ]

  var files: [String]
  var filter: EventFilter
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit
  var replayable: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try JournalInput.paths(arguments, command: Self.name)
    filter = try EventFilter(arguments)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
    replayable = arguments.flag(Self.replayable)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var verdict = Verdict()
    var filter = self.filter
    // The bar only when the lines go elsewhere than the terminal (`cat big | gzip > x`).
    var progress = Progress(
      total: InputSize.total(files), enabled: context.showProgress && !context.stdoutIsTerminal)
    var done: Int64 = 0
    var slice = ReplayableSlice()
    var sliced: [Record] = []
    var line: [UInt8] = []
    for path in files {
      let name = JournalInput.displayName(path)
      let reader: JournalReader
      do {
        reader = try JournalReader(path: path, options: reading, decodingThreads: JournalReader.availableThreads)
      } catch {
        progress.finish(&context.stderr)
        context.error(displayText(error.description, limit: .max))
        verdict.noteUnreadable()
        continue
      }
      var shown = ShownFindings(name: name, limit: limit)
      while let item = reader.next() {
        switch item {
        case .record(let record, _, _):
          if replayable {
            let keep: ReplayableSlice.Keep =
              filter.selects(record)
              ? .event
              : filter.inRange(record)
                ? (filter.selectsEvents ? .lifecycleOfIDs : .none)
                : filter.isAfterRange(record) ? .afterRange : .none
            slice.consume(record, keep: keep, into: &sliced)
            try write(&sliced, &line, &context)
            continue
          }
          guard filter.selects(record) else { continue }
          reader.withCurrentLine { line in context.stdout.write(bytes: line) }
          context.stdout.write("\n")
        case .diagnostic(let diagnostic):
          verdict.note(diagnostic)
          progress.finish(&context.stderr)
          shown.write(diagnostic, &context.stderr)
        }
        progress.update(done + reader.bytesRead, &context.stderr)
      }
      shown.end(&context.stderr)
      done += reader.bytesRead
      progress.finish(&context.stderr)
      if let error = reader.readError {
        context.error(displayText(error.description, limit: .max))
        verdict.noteUnreadable()
      }
    }
    if replayable {
      slice.finish(into: &sliced)
      try write(&sliced, &line, &context)
    }
    try filter.checkControllersSeen()
    return verdict.status
  }

  /// Writes the records of a replayable slice as lines, and empties the list.
  /// - Throws: ``CommandFailure`` (status 2), before writing it, for a line longer than its
  ///   readers' limit (`--max-line-bytes`): renumbered, a line of the input at the limit
  ///   grows past it, and every reader of the slice would refuse it (`framing`).
  private func write(_ records: inout [Record], _ line: inout [UInt8], _ context: inout Context)
    throws(CommandFailure)
  {
    let limit = reading.limits.maxLineLength
    for record in records {
      line.removeAll(keepingCapacity: true)
      record.encode(into: &line)
      guard line.count <= limit else {
        throw CommandFailure(
          "cannot write seq \(record.seq) of the replayable slice: its line would be \(line.count) bytes, "
            + "longer than the readers' limit of \(limit) (--max-line-bytes)")
      }
      line.append(UInt8(ascii: "\n"))
      context.stdout.write(bytes: line)
    }
    records.removeAll(keepingCapacity: true)
  }
}
