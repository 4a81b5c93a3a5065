import Journal
import Projection
import Rendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tail [-n N] [--follow] FILE`: the last events of a journal, then (with `--follow`)
/// every event appended, and the findings of the lifecycle checker as they occur.
struct TailCommand: Command {
  static let name = "tail"
  static let abstract = "Print the last events of a journal and, with --follow, events as they are appended"
  static let usage = ["spatial-replay tail [options] FILE"]
  static let discussion = """
    Prints the last N events of the journal ('-' for standard input, read to
    its end) that the filters select as readable lines (as 'log' does), then
    with --follow keeps printing every event appended to it, like 'tail -f'.
    The lifecycle checker runs over the whole journal as it grows: its
    findings, and lines that do not decode, are printed on stderr as 'check'
    prints them (FILE:LINE: SEVERITY: MESSAGE [RULE]) as they occur. 'check'
    gives the full report, with the format rules (seq, time, header).

    Following polls the file every 100 ms. Only complete lines are printed: a
    line still being written, or a torn tail that a writer later cuts off and
    appends after (the file shrinks), never shows. A file rewritten in place
    (truncated below what was printed, or whose lines before that point
    changed: copytruncate rotation) and a file replaced by another are read
    again from their start, with a message and the checker started afresh; a
    file that does not exist yet is waited for.
    SIGINT (Ctrl-C) and SIGTERM stop it cleanly.
    """
  static let lines = Option.value(
    "--lines", "N", short: "-n", "events to print from the end first (default 10; 0 for none)")
  static let follow = Option.flag("--follow", short: "-f", "keep printing events as they are appended")
  static let timeout = Option.value(
    "--timeout", "S", "with --follow, stop after S seconds without new lines (a decimal number\nup to 1,000,000,000)")
  static let options =
    [lines, follow, Option.json.help("print each event's line exactly as in the journal"), timeout, Option.ascii]
    + Option.filters + Option.reading
  static let exitStatus = """
    0 fine (also when stopped by a signal or --timeout), 2 the file could not
    be read (without --follow: does not exist) or has format errors,
    64 usage error.
    """
  static let examples = [
    "spatial-replay tail -n 20 journal.ndjson",
    "spatial-replay tail -f journal.ndjson",
    "spatial-replay tail -f --json -n 0 --type move journal.ndjson | jq -c .to",
    "gunzip -c old.ndjson.gz | spatial-replay tail -n 5 -",
  ]

  /// How often the file is polled.
  static let pollInterval: UInt32 = 100_000

  var file: String
  var count: Int
  var follow: Bool
  var json: Bool
  var glyphs: Glyphs
  var timeout: Double?
  /// The longest `--timeout`, about 31 years: its milliseconds fit the clock's arithmetic.
  static let maxTimeout = 1_000_000_000.0
  var filter: EventFilter
  var reading: ReadOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else { throw UsageError("tail needs exactly one FILE") }
    file = arguments.positionals[0]
    try JournalInput.refuseDirectories([file], command: Self.name)
    count = try arguments.int(Self.lines, min: 0) ?? 10
    follow = arguments.flag(Self.follow)
    guard !(follow && JournalInput.isStream(file)) else {
      throw UsageError(
        file == "-"
          ? "--follow needs a file; standard input cannot be followed"
          : "--follow needs a file; \(displayText(file, limit: .max)) is a FIFO or a device, read once as standard input is, and cannot be followed"
      )
    }
    json = arguments.flag(Option.json)
    glyphs = Glyphs(ascii: arguments.flag(Option.ascii))
    filter = try EventFilter(arguments)
    reading = try ReadOptions(arguments)
    if let text = arguments.value(Self.timeout) {
      guard let seconds = Double(text), seconds >= 0, seconds <= Self.maxTimeout else {
        throw UsageError("--timeout takes a number of seconds from 0 to 1,000,000,000, got '\(text)'")
      }
      guard follow else { throw UsageError("--timeout only applies with --follow") }
      timeout = seconds
    }
  }

  func run(_ context: inout Context) throws -> Int32 {
    var session = TailSession(
      file: JournalInput.displayName(file), json: json, color: context.useColor, glyphs: glyphs, filter: filter,
      reading: reading)
    let follower = JournalFollower(path: try Self.followablePath(file), maxLineLength: reading.limits.maxLineLength)
    try follower.poll { session.remember($0, keeping: count) }
    guard follower.isOpen || follow else {
      throw CommandFailure("\(displayText(file, limit: .max)): cannot open: No such file or directory")
    }
    session.printRemembered(&context)
    context.flush()
    guard follow else {
      if follower.unterminatedBytes > 0 {
        // As `check` reports it: the line it would be, the rule.
        let length = follower.unterminatedBytes
        context.stderr.write(
          Diagnostic(
            rule: .tornTail, severity: reading.strict ? .error : .warning,
            line: follower.lineNumber + 1, offset: follower.consumed,
            length: Int(length),
            message: "torn tail: \(length) \(length == 1 ? "byte" : "bytes") at offset \(follower.consumed) "
              + "without a line end"),
          file: session.name)
        if reading.strict { session.verdict.noteFormatErrors(1) }
      }
      session.end(&context)
      try session.filter.checkControllersSeen()
      return session.verdict.status
    }
    StopRequest.catchSignals()
    defer { StopRequest.restoreSignals() }
    var lastActivity = ContinuousClock.now
    while !StopRequest.isRequested {
      usleep(Self.pollInterval)
      if StopRequest.isRequested { break }
      let changed = try follower.poll { session.handle($0, &context) }
      context.flush()
      if changed {
        lastActivity = .now
      } else if let timeout, ContinuousClock.now - lastActivity >= .milliseconds(Int64(timeout * 1000)) {
        break
      }
    }
    context.flush()
    try session.filter.checkControllersSeen()
    return session.verdict.status
  }

  /// A path the follower can poll: the file, or for `-` standard input (and
  /// a FIFO, read as standard input is: ``JournalInput/isStream(_:)``) copied
  /// to an unlinked temporary file (a pipe has no size to poll).
  static func followablePath(_ path: String) throws(CommandFailure) -> String {
    guard JournalInput.isStream(path) else { return path }
    let input = path == "-" ? 0 : systemOpen(path, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw CommandFailure("\(displayText(path, limit: .max)): cannot open: \(errorText())") }
    defer { if input != 0 { systemClose(input) } }
    let what = path == "-" ? "standard input" : displayText(path, limit: .max)
    var template = Array((Context.temporaryDirectory + "/spatial-replay-tail-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw CommandFailure("cannot copy \(what): \(errorText())") }
    unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = read(input, &buffer, buffer.count)
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw CommandFailure("cannot read \(what): \(errorText())") }
      if n == 0 { break }
      let error = buffer.withUnsafeBytes { writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<n])) }
      guard error == 0 else { throw CommandFailure("cannot copy \(what): \(String(cString: strerror(error)))") }
    }
    return "/proc/self/fd/\(fd)"
  }
}

/// What `tail` prints for each change of the followed file, and the checker it runs.
struct TailSession {
  let name: String
  let json: Bool
  let color: Bool
  let glyphs: Glyphs
  var filter: EventFilter
  let reading: ReadOptions
  /// What the exit status reports: format errors met.
  var verdict = Verdict()
  private var integrity: IntegrityTracker
  private var checker: Checker
  private var found: [CheckFinding] = []
  /// The checker's findings of the line being decoded.
  private var checked: [Finding] = []
  /// The last lines of the initial read: decoded record (nil when it did not decode) and bytes.
  private var recent: [(number: Int, record: Record?, bytes: [UInt8])] = []
  /// Findings of the initial read about its last lines.
  private var recentFindings: [CheckFinding] = []
  /// The number of the last line read.
  private var lastLine = 0
  /// Format errors printed so far.
  private var shownFormatErrors = 0

  init(file: String, json: Bool, color: Bool, glyphs: Glyphs, filter: EventFilter, reading: ReadOptions) {
    self.name = displayText(file, limit: .max)
    self.json = json
    self.color = color
    self.glyphs = glyphs
    checker = Checker()
    self.filter = filter
    self.reading = reading
    integrity = IntegrityTracker(strict: reading.strict)
  }

  /// At the end of a read without --follow: a journal with no event has no header.
  mutating func end(_ context: inout Context) {
    guard let finding = integrity.missingHeaderAtEnd(lastLine: lastLine, lastOffset: 0) else { return }
    verdict.note(finding)
    printFinding(.format(finding), &context)
  }

  /// Initial read: checks every line, keeps the last `keeping` and their findings.
  mutating func remember(_ change: JournalFollower.Change, keeping: Int) {
    let (record, number, bytes) = decode(change)
    if let number, record.map({ filter.selects($0) }) ?? true {
      if keeping > 0 {
        recent.append((number, record, bytes))
        // Subtracted, not multiplied: `keeping` may be any count a user asks for (`-n` of 2^62).
        if recent.count - keeping > keeping + 64 { recent.removeFirst(recent.count - keeping) }
      }
      if recent.count > keeping { recent.removeFirst(recent.count - keeping) }
    }
    recentFindings.append(contentsOf: found)
    found.removeAll(keepingCapacity: true)
    let first = recent.first?.number ?? Int.max
    if recentFindings.count > 256 { recentFindings.removeAll { $0.line < first } }
  }

  /// Prints the lines the initial read kept, each followed by its findings.
  mutating func printRemembered(_ context: inout Context) {
    let first = recent.first?.number ?? Int.max
    let findings = recentFindings.filter { $0.line >= first }
    var next = 0
    for line in recent {
      if let record = line.record { printEvent(record, bytes: line.bytes, &context) }
      while next < findings.count, findings[next].line <= line.number {
        printFinding(findings[next], &context)
        next += 1
      }
    }
    for finding in findings[next...] { printFinding(finding, &context) }
    recent = []
    recentFindings = []
    // Format errors on lines before those shown still decide the status: say so.
    let unshown = verdict.formatErrors - shownFormatErrors
    if unshown > 0 {
      context.stderr.write(
        "\(name): \(unshown.counted("format error")) on earlier lines ('spatial-replay check' lists them)\n")
    }
  }

  /// While following: prints the change and the findings it brings.
  mutating func handle(_ change: JournalFollower.Change, _ context: inout Context) {
    switch change {
    case .rewritten(let size, let shrank):
      let how = shrank ? "truncated to \(size) bytes" : "rewritten (its lines before the point read changed)"
      context.warning("\(name): \(how); reading it again from its start")
      checker = Checker()
      integrity = IntegrityTracker(strict: reading.strict)
    case .replaced:
      context.warning("\(name): replaced by a new file; following it from its start")
      checker = Checker()
      integrity = IntegrityTracker(strict: reading.strict)
    default:
      break
    }
    let (record, _, bytes) = decode(change)
    if let record { printEvent(record, bytes: bytes, &context) }
    for finding in found { printFinding(finding, &context) }
    found.removeAll(keepingCapacity: true)
  }

  /// Decodes a line and runs the checker on it; findings go to `found`.
  private mutating func decode(_ change: JournalFollower.Change) -> (Record?, Int?, [UInt8]) {
    switch change {
    case .line(let bytes, let number, let offset, let crlf):
      lastLine = number
      let limits = reading.limits
      let result = bytes.withUnsafeBytes { raw -> Result<Record, DecodeError>? in
        // The reader's checks of a line before it is decoded: bom, crlf, blank-line.
        let framed = integrity.frame(line: number, offset: offset, bytes: raw, terminated: true, crlf: crlf) {
          verdict.note($0)
          found.append(.format($0))
        }
        guard let (line, shift) = framed else { return nil }
        return Result { () throws(DecodeError) in try RecordDecoder.decode(line, limits: limits) }
          .mapError { DecodeError(rule: $0.rule, offset: $0.offset + shift, message: $0.message) }
      }
      switch result {
      case nil:
        return (nil, number, bytes)
      case .success(let record):
        integrity.check(record, line: number, offset: offset) { finding in
          verdict.note(finding)
          found.append(.format(finding))
        }
        checker.check(record, line: number, into: &checked)
        for finding in checked { found.append(.rule(finding)) }
        checked.removeAll(keepingCapacity: true)
        return (record, number, bytes)
      case .failure(let error):
        integrity.noteUndecodedLine()
        verdict.noteFormatErrors(1)
        found.append(
          .format(
            Diagnostic(
              rule: error.rule, severity: .error, line: number, column: error.offset + 1, offset: offset,
              message: error.message)))
        return (nil, number, bytes)
      }
    case .overLong(let number, let offset, let length):
      lastLine = number
      integrity.noteUndecodedLine()
      verdict.noteFormatErrors(1)
      found.append(
        .format(
          Diagnostic(
            rule: .framing, severity: .error, line: number, offset: offset,
            message: "line of \(length) bytes is longer than the limit of \(reading.limits.maxLineLength) bytes")))
      return (nil, number, [])
    case .rewritten, .replaced:
      return (nil, nil, [])
    }
  }

  private mutating func printEvent(_ record: Record, bytes: [UInt8], _ context: inout Context) {
    guard filter.selects(record) else { return }
    if json {
      context.stdout.write(bytes: bytes)
      context.stdout.write("\n")
    } else {
      LogLine.write(record, color: color, glyphs: glyphs, to: &context.stdout)
    }
  }

  private mutating func printFinding(_ finding: CheckFinding, _ context: inout Context) {
    if finding.severity == .error, case .format = finding { shownFormatErrors += 1 }
    context.stdout.flush()
    context.stderr.write(finding, file: name, glyphs: glyphs)
    context.stderr.flush()
  }
}
