import Journal

/// `append FILE`: appends events read from stdin through the crash-safe writer.
struct AppendCommand: Command {
  static let name = "append"
  static let abstract = "Append events from stdin to a journal (seq and time assigned, file locked)"
  static let usage = ["spatial-replay append [options] FILE"]
  static let discussion = """
    Reads one JSON object per line from standard input and appends each as an
    event to FILE (created if missing), through the journal writer: under an
    exclusive lock, so several processes may append to one journal at once,
    with seq assigned (any seq in the input is replaced by the next one) and time
    assigned when missing (and never earlier than the journal's last time).
    Unknown keys are kept. A torn tail left by a crashed writer is moved to
    FILE.torn before the first event is appended, with a warning.

    A line that is not a valid event stops the command with an error naming it
    (<stdin>:LINE:COLUMN); the lines before it are appended, none after. The
    journal is opened only once the first event has been read and decoded, so
    when the first line is bad, FILE is left exactly as it was (not created,
    its torn tail not moved).
    """
  static let sync = Option.value(
    "--sync", "POLICY",
    "always: each event is on the storage device before it is acknowledged;\nbatch (default): synced in groups (every 512 events or 100 ms);\nnone: the operating system decides",
    values: .cases(Durability.self))
  static let echo = Option.flag(
    "--echo",
    "print each appended event's line on stdout once it has been appended\n(under --sync always: once it is durable)")
  static let maxLineBytes = Option.value(
    "--max-line-bytes", "N",
    "longest line written (and read from stdin), in bytes (default \(DecodeLimits().maxLineLength),\nthe readers' default): an event whose line would be longer is refused"
  )
  static let options = [sync, echo, maxLineBytes]
  static let exitStatus = """
    0 all appended, 2 a bad input line or a file error, 64 usage error.
    """
  static let examples = [
    #"echo '{"type":"mark","label":"login"}' | spatial-replay append journal.ndjson"#,
    "spatial-replay append --sync always --echo journal.ndjson < events.ndjson",
  ]

  var file: String
  var durability: Durability
  var echo: Bool
  var limits = DecodeLimits()

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
      throw UsageError("append needs exactly one FILE")
    }
    guard file != "-" else { throw UsageError("append reads events from standard input; FILE must be a path") }
    self.file = file
    durability = arguments.choice(Self.sync, as: Durability.self) ?? .batch
    echo = arguments.flag(Self.echo)
    if let bytes = try arguments.int(Self.maxLineBytes, min: 64) { limits.maxLineLength = bytes }
  }

  /// The most events appended in one write.
  static let maximumBatch = 4096

  /// Opens the journal (repairing a torn tail, with a warning).
  private func open(_ context: inout Context) throws -> JournalWriter {
    let writer: JournalWriter
    do {
      writer = try JournalWriter(path: file, durability: durability, limits: limits)
    } catch {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    if let torn = writer.repairedTail {
      context.warning(
        displayText(
          "\(file): torn tail: \(torn.length.counted("byte")) at offset \(torn.offset) moved to \(torn.path)",
          limit: .max))
      context.stderr.flush()
    }
    return writer
  }

  func run(_ context: inout Context) throws -> Int32 {
    // Implementation note: the journal is opened at the first decoded event (or at
    // the end of an empty input, which creates it): a bad first line leaves it untouched.
    var opened: JournalWriter? = nil
    func writer(_ context: inout Context) throws -> JournalWriter {
      if let opened { return opened }
      let writer = try open(&context)
      opened = writer
      return writer
    }
    let input = LineReader(fileDescriptor: 0, name: "<stdin>", maxLineLength: limits.maxLineLength)
    var drafts: [Draft] = []
    var failure: Diagnostic? = nil
    do {
      while true {
        // Implementation note: lines already read are appended in one write;
        // the command only waits for more input once they are acknowledged.
        if !drafts.isEmpty && (drafts.count >= Self.maximumBatch || !input.hasBufferedLine) {
          try append(&drafts, to: writer(&context), context: &context)
        }
        guard let line = input.next() else { break }
        if line.isOverLong {
          failure = Diagnostic(
            rule: .framing, severity: .error, line: line.number, column: input.maxLineLength + 1,
            message: "line is longer than the limit of \(input.maxLineLength) bytes")
          break
        }
        var bytes = line.bytes
        if line.number == 1 && startsWithByteOrderMark(bytes) {
          bytes = UnsafeRawBufferPointer(rebasing: bytes[3...])
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        do {
          drafts.append(try RecordDecoder.decodeDraft(bytes))
        } catch {
          failure = Diagnostic(
            rule: error.rule, severity: .error, line: line.number,
            column: error.offset + 1 + (line.bytes.count - bytes.count),
            message: error.message)
          break
        }
      }
      if !drafts.isEmpty || (failure == nil && input.readError == nil) {
        try append(&drafts, to: writer(&context), context: &context)
      }
      try opened?.close()
    } catch let error as JournalFileError {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    if let failure {
      context.stderr.write(failure, file: "<stdin>")
      return ExitCode.badInput
    }
    if let error = input.readError { throw CommandFailure(displayText(error.description, limit: .max)) }
    return ExitCode.ok
  }

  /// Appends the pending drafts in one write and acknowledges them (`--echo`).
  private func append(_ drafts: inout [Draft], to writer: JournalWriter, context: inout Context) throws {
    guard !drafts.isEmpty else { return }
    let records = try writer.append(contentsOf: drafts)
    drafts.removeAll(keepingCapacity: true)
    guard echo else { return }
    var line: [UInt8] = []
    for record in records {
      line.removeAll(keepingCapacity: true)
      record.encode(into: &line)
      line.append(0x0A)
      context.stdout.write(bytes: line)
    }
    context.stdout.flush()
  }
}
