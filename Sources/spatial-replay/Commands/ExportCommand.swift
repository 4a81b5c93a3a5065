import Journal
import Projection
import Rendering

/// `export FILE... --table T`: one typed table out of many journals, as NDJSON, CSV or Parquet.
struct ExportCommand: Command {
  static let name = "export"
  /// The tables named from ``Table`` (a list written by hand here missed one).
  static let abstract =
    "Export journals as one table (\(Table.allCases.map(\.rawValue).joined(separator: ", "))) in NDJSON, CSV or Parquet"
  static let usage = [
    "spatial-replay export --table TABLE [options] FILE...", "spatial-replay export --schema TABLE",
  ]
  static let discussion = """
    Reads the journals ('-' for standard input) once, streaming, and writes one
    of the tables listed below. Every row starts with session, app, build
    (null when absent) and file (the path given). The columns, their types
    and meaning are listed in docs/tables.md: timestamps are RFC 3339 UTC
    strings with 6 digits, durations are numbers in ms, ids are strings, seq
    and counts are integers, flags are booleans.

    --format parquet writes Apache Parquet (1.0 data pages) with the types of
    --schema: strings (UTF8, dictionary-encoded when that is smaller), int64,
    double, boolean, timestamps as int64 microseconds (TIMESTAMP, UTC), JSON
    objects as JSON-annotated strings and the list column as a LIST of
    strings; nullable columns are OPTIONAL. Row groups hold about 32 MiB of
    values (memory stays about one row group), pages about 1 MiB;
    --compression gzip compresses each page with zlib (GZIP codec).

    The filters keep the rows whose seq (a visit's start_seq) and time (its
    start_time) are in range and that name one of the controllers; --type
    selects rows of the events table.

    --schema TABLE prints the table's columns as JSON: name, type, nullable
    and the DuckDB, Spark and BigQuery types, for engines that read the
    export with an explicit schema.

    Lines that do not decode are left out and reported on stderr (except for
    the findings table, where they are rows). With -o FILE, nothing is written
    when an input cannot be opened or read. With --partition, the journals
    that can be read are written; one that cannot, or whose partition folder
    cannot be made, is reported in one line (exit status 2), and no empty
    folder is left. A value too long for a folder name, or the literal
    __HIVE_DEFAULT_PARTITION__, gets a stable folder name of its own (see
    docs/tables.md); the rows keep the value.

    A progress bar shows on stderr when it is a terminal and the work takes
    more than a second.
    """
  /// The tables, each with what one of its rows is (``Table/rowMeaning``), then the partition keys.
  static var details: String {
    var s = "tables (what one row is):\n"
    for table in Table.allCases {
      let lines = wrap(table.rowMeaning, width: 67)
      s += "  " + table.rawValue.padding(11) + lines[0] + "\n"
      for line in lines.dropFirst() { s += String(repeating: " ", count: 13) + line + "\n" }
    }
    return s + partitionKeys
  }

  static let partitionKeys = """

    partition keys (--partition, one directory level each, in the order given):
      build, app, device, session   the header's field
      date                          the day the session started (its first
                                    event), UTC, YYYY-MM-DD
    """
  static let table = Option.value(
    "--table", "TABLE", "the table to write (required)", values: .cases(Table.self))
  static let format = Option.value(
    "--format", "FORMAT",
    "ndjson (default): one JSON object per line, keys in column order,\narrays and objects as JSON; csv: RFC 4180 with a header line, CRLF\nline ends, arrays and objects as JSON text; parquet: Apache Parquet\nwith the types of --schema (see --compression)",
    values: .cases(TableFormat.self))
  static let compression = Option.value(
    "--compression", "CODEC", "with --format parquet: none (default, UNCOMPRESSED) or gzip (GZIP,\nzlib level 1)",
    values: .cases(ParquetCompression.self))
  static let partition = Option.list(
    "--partition", "KEY[,KEY...]",
    "with -o DIR: one file per partition, DIR/build=B/session=S/part.ndjson\n(or part.csv, part.parquet) for --partition build,session; keys: build, app,\ndevice, session, date; values escaped as Hive does (see docs/tables.md)",
    values: .cases(PartitionKey.self))
  static let schema = Option.value(
    "--schema", "TABLE", "print the table's columns and their types as JSON, and read nothing",
    values: .cases(Table.self))
  static let options =
    [table, format, compression, Option.output, partition, schema, Option.rawCSV] + Option.filters + Option.reading
    + [Option.maxErrors, Option.jobs]
  static let exitStatus = """
    0 fine, 2 a file could not be read, a journal has format errors (its bad
    lines are left out) or the output could not be written, 64 usage error.
    """
  static let examples = [
    "spatial-replay export --table visits Journals/*.ndjson > visits.ndjson",
    "spatial-replay export --table moves --format csv -o moves.csv a.ndjson b.ndjson",
    "spatial-replay export --table events -o lake/events --partition session day1/*.ndjson",
    "spatial-replay export --table sessions -o lake/sessions --partition build,date fleet/",
    "spatial-replay export --table events --format parquet --compression gzip -o events.parquet fleet/",
    "spatial-replay export --schema visits",
    "spatial-replay export --table visits --controller compose --since 2026-11-29T09:00:10Z journal.ndjson",
    "duckdb -c \"select controller, sum(dwell_ms) from read_ndjson('visits.ndjson') group by 1\"",
  ]

  var files: [String]
  var table: Table
  var format: TableFormat
  /// CSV text cells guarded against formulas (not with `--raw-csv`).
  var guardsFormulas = true
  /// The Parquet codec (`--compression`).
  var compression: ParquetCompression
  var output: String?
  /// The partition keys, in directory order; empty for one output.
  var partitionKeys: [PartitionKey]
  var options: ReadOptions
  /// `--max-errors`: how many of a journal's findings stderr shows.
  var limit: DiagnosticLimit
  var filter: RowFilter
  var runner: FleetRunner
  /// `--schema`: the table whose schema to print (nothing is read).
  var schemaOnly = false

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let table = arguments.choice(Self.schema, as: Table.self) {
      guard arguments.positionals.isEmpty, arguments.choice(Self.table) == nil else {
        throw UsageError("--schema TABLE prints a schema and reads no journal: give it alone")
      }
      (files, self.table, format, output, partitionKeys, schemaOnly) = ([], table, .ndjson, nil, [], true)
      compression = .none
      options = try ReadOptions(arguments)
      limit = try DiagnosticLimit(arguments)
      filter = try RowFilter(EventFilter(arguments), table: table)
      runner = try FleetRunner(arguments)
      return
    }
    files = try JournalInput.paths(arguments, command: Self.name)
    guard let table = arguments.choice(Self.table, as: Table.self) else {
      throw UsageError("export needs --table (one of \(Table.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    self.table = table
    format = arguments.choice(Self.format, as: TableFormat.self) ?? .ndjson
    guardsFormulas = !arguments.flag(Option.rawCSV)
    let codec = arguments.choice(Self.compression, as: ParquetCompression.self)
    if codec != nil && format != .parquet { throw UsageError("--compression applies to --format parquet only") }
    compression = codec ?? .none
    output = arguments.value(Option.output)
    if output == "" { throw UsageError("-o needs a path") }
    if output == "-" {
      guard arguments.values(Self.partition).isEmpty else {
        throw UsageError("--partition writes folders: -o DIR, not -")
      }
      output = nil
    }
    partitionKeys = arguments.values(Self.partition).compactMap(PartitionKey.init(rawValue:))
    if !partitionKeys.isEmpty && output == nil { throw UsageError("--partition needs -o DIR") }
    if Set(partitionKeys).count != partitionKeys.count {
      throw UsageError("--partition names a key twice: \(partitionKeys.map(\.rawValue).joined(separator: ","))")
    }
    if let output {
      let inputs = InputFiles(files)
      try inputs.refuse(output)
      if !partitionKeys.isEmpty { try inputs.refuse(filesNamed: PartitionPath.fileName(format), below: output) }
    }
    options = try ReadOptions(arguments)
    limit = try DiagnosticLimit(arguments)
    filter = try RowFilter(EventFilter(arguments), table: table)
    runner = try FleetRunner(arguments)
  }

  func run(_ context: inout Context) throws -> Int32 {
    if schemaOnly {
      context.stdout.write(table.schemaJSON)
      return ExitCode.ok
    }
    if format == .parquet && output == nil && context.stdoutIsTerminal {
      throw UsageError("--format parquet writes binary data: give -o FILE, or redirect standard output")
    }
    let destination: TableOutput.Destination
    switch (output, partitionKeys.isEmpty) {
    case (nil, _): destination = .standardOutput
    case (let path?, true): destination = .file(path)
    case (let path?, false): destination = .partitions(directory: path, keys: partitionKeys)
    }
    let out = SharedTableOutput(
      try TableOutput(
        table: table, format: format, compression: compression, destination: destination,
        guardsFormulas: guardsFormulas))
    var verdict = Verdict()
    var filter = self.filter
    var state = RowSink(out, filter: filter)
    let (table, format, options, limit, fresh, guardsFormulas) = (
      table, format, options, limit, self.filter, guardsFormulas
    )
    do {
      try runner.run(
        files, context: &context, state: &state,
        fresh: { RowSink(TableEncoder(table: table, format: format, guardsFormulas: guardsFormulas), filter: fresh) },
        work: { path, context, sink, progress in
          Self.export(path, table: table, options: options, limit: limit, into: &sink, &context, &progress)
        },
        deliver: { _, exported, context in
          if exported.unreadable { verdict.noteUnreadable() }
          verdict.noteFormatErrors(exported.formatErrors)
          filter.noteSeen(by: exported.sink.filter)
          if let failure = exported.failure { throw failure }
          try exported.sink.write(to: &out.output, &context.stdout)
        })
      // Nothing, not even a CSV header, when no input could be read (or, with -o FILE, any
      // input); partitioned, the journals that could be read are written.
      if verdict.unreadable > 0 && ((output != nil && partitionKeys.isEmpty) || verdict.unreadable == files.count) {
        out.output.abandon()
        return ExitCode.badInput
      }
      try filter.checkControllersSeen()
      try out.output.finish(&context.stdout)
      // A partition that could not be made lost its journals' rows, not the others'.
      for failure in out.output.failures { context.error(failure.message()) }
      if !out.output.failures.isEmpty { return ExitCode.badInput }
    } catch {
      out.output.abandon()
      throw error
    }
    return verdict.status
  }

  /// What exporting one journal gave.
  struct Exported: Sendable {
    var sink: RowSink
    var unreadable = false
    var formatErrors = 0
    /// The output could not be written (with one job).
    var failure: CommandFailure?
  }

  /// Reads one journal and sends its rows, with their common columns, to `sink`; its
  /// format errors go to stderr (except for the findings table, where they are rows).
  private static func export(
    _ path: String, table: Table, options: ReadOptions, limit: DiagnosticLimit, into sink: inout RowSink,
    _ context: inout Context,
    _ progress: inout FileProgress
  ) -> Exported {
    var exported = Exported(sink: sink)
    defer { sink = exported.sink }
    let name = JournalInput.displayName(path)
    guard let reader = JournalPass.open(path, options: options, progress: &progress, context: &context) else {
      exported.unreadable = true
      return exported
    }
    var shown = ShownFindings(name: name, limit: limit)
    defer { shown.end(&context.stderr) }
    var rows: [TableRow] = []
    var builder = TableBuilder(table: table, file: path)
    do throws(CommandFailure) {
      try exported.sink.setContext(builder.context, &context.stdout)
      while var batch = reader.next() {
        try batch.items.items.withUnsafeMutableBufferPointer { (items) throws(CommandFailure) in
          guard let slots = items.baseAddress else { return }
          for i in items.indices {
            // Taken out of its slot and put back as it was: read through the subscript, each item
            // would be copied (its strings retained) and the copy destroyed.
            let item = (slots + i).move()
            defer { (slots + i).initialize(to: item) }
            if case .diagnostic(let diagnostic) = item, diagnostic.severity == .error {
              exported.formatErrors += 1
              if table != .findings {
                progress.finish(&context.stderr)
                shown.write(diagnostic, &context.stderr)
              }
            }
            let changes = builder.contextChanges
            let before = rows.count
            builder.consume(item, into: &rows)
            if builder.contextChanges != changes && before > 0 {
              // The header changed the common columns: the rows before it keep the old ones.
              let after = Array(rows[before...])
              rows.removeSubrange(before...)
              try exported.sink.append(rows, &context.stdout)
              rows = after
              try exported.sink.setContext(builder.context, &context.stdout)
            }
          }
        }
        if !rows.isEmpty {
          try exported.sink.setContext(builder.context, &context.stdout)
          try exported.sink.append(rows, &context.stdout)
          rows.removeAll(keepingCapacity: true)
        }
        progress.update(reader.bytesRead, &context.stderr)
      }
      if !reader.readToTheEnd(progress: &progress, context: &context) { exported.unreadable = true }
      builder.finish(into: &rows)
      if !rows.isEmpty {
        try exported.sink.setContext(builder.context, &context.stdout)
        try exported.sink.append(rows, &context.stdout)
      }
    } catch {
      exported.failure = error
    }
    return exported
  }
}
