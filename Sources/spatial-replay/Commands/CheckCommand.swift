import Journal

/// `check FILE...`: reads journals and reports what is wrong with them.
///
/// Format level: framing, JSON, the envelope, every event's keys and their
/// types, `seq` and `time`, the header. Each file is read once, streaming, and
/// its records pass through ``FileCheck``, where further analyses attach.
struct CheckCommand: Command {
  static let name = "check"
  static let abstract = "Check journals: framing, JSON, envelope, event keys, seq, time, header"
  static let help = """
    usage: spatial-replay check [options] FILE...

    Reads each journal ('-' for standard input) and prints every finding as
    FILE:LINE[:COLUMN]: SEVERITY: MESSAGE [RULE], then one summary line per file
    (and a total line for several files). Columns count bytes from 1.

    options:
      --json                 one JSON object per finding (NDJSON), then a summary object
      --strict               every warning (bom, crlf, blank-line, torn-tail,
                             unknown-type) counts as an error
      --max-line-bytes N     longest line accepted, in bytes (default 1048576)
      --max-depth N          deepest JSON nesting accepted (default 64)

    rules: errors malformed, framing, seq-gap, seq-repeat, time-backwards, no-header;
    warnings bom, crlf, blank-line, torn-tail, unknown-type (once per type).

    exit status: 0 no errors (warnings alone are fine unless --strict), 1 errors found,
    2 a file could not be read, 64 usage error.

    examples:
      spatial-replay check Journals/demo.intended.ndjson
      spatial-replay check --strict --json a.ndjson b.ndjson > findings.ndjson
      gunzip -c big.ndjson.gz | spatial-replay check --max-line-bytes 65536 -

    """
  static let spec = ArgumentSpec(
    flags: JournalInput.flagNames.union(["--json"]), options: JournalInput.optionNames)

  var files: [String]
  var options: ReadOptions
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    files = arguments.positionals
    guard !files.isEmpty else { throw UsageError("check needs at least one FILE ('-' for standard input)") }
    options = try JournalInput.readOptions(arguments)
    json = arguments.flag("--json")
  }

  func run(_ context: inout Context) throws -> Int32 {
    var total = FileCheck.Counts()
    var summaries: [(name: String, counts: FileCheck.Counts?, failure: String?)] = []
    for path in files {
      let name = JournalInput.displayName(path)
      let reader: JournalReader
      do {
        reader = try JournalReader(path: path, options: options)
      } catch {
        context.error(displayText(error.description, limit: .max))
        summaries.append((name, nil, error.message))
        continue
      }
      var check = FileCheck()
      while let item = reader.next() {
        for diagnostic in check.consume(item) {
          if json {
            context.stdout.write(diagnostic.json(file: name))
            context.stdout.write("\n")
          } else {
            context.stdout.write(diagnostic, file: name)
          }
        }
      }
      if let error = reader.readError {
        context.error(displayText(error.description, limit: .max))
        summaries.append((name, nil, error.message))
        continue
      }
      total.add(check.counts)
      summaries.append((name, check.counts, nil))
      if !json { context.stdout.write(displayText(name, limit: .max) + ": " + check.counts.text + "\n") }
    }
    let unreadable = summaries.filter { $0.failure != nil }.count
    if json {
      context.stdout.write(Self.summaryJSON(summaries, total: total, unreadable: unreadable) + "\n")
    } else if files.count > 1 {
      var line = "total: \(files.count.counted("file")), " + total.text
      if unreadable > 0 { line += ", \(unreadable.grouped) unreadable" }
      context.stdout.write(line + "\n")
    }
    if unreadable > 0 { return ExitCode.badInput }
    return total.errors > 0 ? ExitCode.findings : ExitCode.ok
  }

  /// `{"summary":true,"files":[...],"events":N,"errors":N,"warnings":N,"unreadable":N}`.
  static func summaryJSON(
    _ summaries: [(name: String, counts: FileCheck.Counts?, failure: String?)], total: FileCheck.Counts,
    unreadable: Int
  ) -> String {
    var out: [UInt8] = []
    func int(_ key: String, _ value: Int) {
      out.append(contentsOf: ",\"\(key)\":".utf8)
      JSONWriter.appendInt(value, to: &out)
    }
    out.append(contentsOf: #"{"summary":true,"files":["#.utf8)
    for (i, summary) in summaries.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"file":"#.utf8)
      JSONWriter.appendString(summary.name, to: &out)
      if let counts = summary.counts {
        int("events", counts.events)
        int("errors", counts.errors)
        int("warnings", counts.warnings)
      }
      if let failure = summary.failure {
        out.append(contentsOf: #","unreadable":"#.utf8)
        JSONWriter.appendString(failure, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    int("events", total.events)
    int("errors", total.errors)
    int("warnings", total.warnings)
    int("unreadable", unreadable)
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }
}
