import Journal

/// `cat FILE...`: copies the events of journals through, optionally filtered.
struct CatCommand: Command {
  static let name = "cat"
  static let abstract = "Copy events of journals to stdout, filtered by seq range and type"
  static let help = """
    usage: spatial-replay cat [--from SEQ] [--to SEQ] [--type TYPE]... FILE...

    Copies every event of the journals ('-' for standard input) whose seq is in
    [--from, --to] and whose type is one of the --type values (all types when
    none is given) to stdout, byte for byte: unknown keys and unknown types
    survive. Lines that do not decode are left out and reported on stderr, with
    every other finding about the journals (as 'check' prints them).

    options:
      --from SEQ     first seq to copy (default: the first)
      --to SEQ       last seq to copy, inclusive (default: the last)
      --type TYPE    copy only events of this type; repeat for several types

    A progress bar shows on stderr when it is a terminal, standard output is
    not, and the work takes more than a second.

    exit status: 0 fine (warnings alone are fine), 1 a journal had errors,
    2 a file could not be read, 64 usage error.

    examples:
      spatial-replay cat --from 100 --to 199 journal.ndjson > slice.ndjson
      spatial-replay cat --type move --type pan journal.ndjson
      spatial-replay cat part1.ndjson part2.ndjson | spatial-replay check -

    """
  static let spec = ArgumentSpec(options: ["--from", "--to", "--type"])

  var files: [String]
  var from: Int
  var to: Int
  var types: Set<String>

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = arguments.positionals
    guard !files.isEmpty else { throw UsageError("cat needs at least one FILE ('-' for standard input)") }
    from = try arguments.int("--from", min: 0) ?? 0
    to = try arguments.int("--to", min: 0) ?? Int.max
    guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
    types = Set(arguments.values("--type"))
  }

  func run(_ context: inout Context) throws -> Int32 {
    var unreadable = false
    var errors = false
    // The bar only when the lines go elsewhere than the terminal (`cat big | gzip > x`).
    var progress = Progress(
      total: InputSize.total(files), enabled: context.showProgress && !context.stdoutIsTerminal)
    var done: Int64 = 0
    for path in files {
      let name = JournalInput.displayName(path)
      let reader: JournalReader
      do {
        reader = try JournalReader(path: path)
      } catch {
        progress.finish(&context.stderr)
        context.error(displayText(error.description, limit: .max))
        unreadable = true
        continue
      }
      while let item = reader.next() {
        switch item {
        case .record(let record, _, _):
          guard record.seq >= from && record.seq <= to else { continue }
          guard types.isEmpty || types.contains(record.event.typeName) else { continue }
          reader.withCurrentLine { line in context.stdout.write(bytes: line) }
          context.stdout.write("\n")
        case .diagnostic(let diagnostic):
          if diagnostic.severity == .error { errors = true }
          progress.finish(&context.stderr)
          context.stderr.write(diagnostic, file: name)
        }
        progress.update(done + reader.bytesRead, &context.stderr)
      }
      done += reader.bytesRead
      progress.finish(&context.stderr)
      if let error = reader.readError {
        context.error(displayText(error.description, limit: .max))
        unreadable = true
      }
    }
    if unreadable { return ExitCode.badInput }
    return errors ? ExitCode.findings : ExitCode.ok
  }
}
