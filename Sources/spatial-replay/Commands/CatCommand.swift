import Journal

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

    A progress bar shows on stderr when it is a terminal, standard output is
    not, and the work takes more than a second.
    """
  static let options = Option.filters + Option.reading + [Option.maxErrors]
  static let exitStatus = """
    0 fine (warnings alone are fine), 2 a file could not be read or a journal
    has format errors (its bad lines are left out), 64 usage error.
    """
  static let examples = [
    "spatial-replay cat --from 100 --to 199 journal.ndjson > slice.ndjson",
    "spatial-replay cat --type move,pan journal.ndjson",
    "spatial-replay cat --since 2026-01-01T10:00:00Z --controller compose journal.ndjson",
    "spatial-replay cat part1.ndjson part2.ndjson | spatial-replay check -",
  ]

  var files: [String]
  var filter: EventFilter
  var reading: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = try JournalInput.paths(arguments, command: Self.name)
    filter = try EventFilter(arguments)
    reading = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var verdict = Verdict()
    var filter = self.filter
    // The bar only when the lines go elsewhere than the terminal (`cat big | gzip > x`).
    var progress = Progress(
      total: InputSize.total(files), enabled: context.showProgress && !context.stdoutIsTerminal)
    var done: Int64 = 0
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
    try filter.checkControllersSeen()
    return verdict.status
  }
}
