import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `record SCRIPT [--profile intended|legacy] [-o FILE]`: runs a scenario script on the
/// reference navigator and writes the journal it records.
struct RecordCommand: Command {
  static let name = "record"
  static let abstract = "Record a scenario script with the reference navigator (intended or legacy)"
  static let usage = ["spatial-replay record [options] SCRIPT"]
  static let discussion = """
    Runs a scenario script on the headless reference model of a spatial map and
    writes the journal it produces (NDJSON). The same script and profile always
    give byte-identical journals. SCRIPT '-' reads the script from standard input.

    A script error prints SCRIPT:LINE: message on standard error (the line of
    the script, as findings name the line of a journal), writes nothing and
    exits with status 2.
    """
  static let options = [
    Option.profile.help(
      "intended (the documented behaviour, default) or legacy (what the\n2013 library did: its lifecycle deviations L1-L6)"
    ),
    Option.output,
  ]
  static let exitStatus = """
    0 recorded, 2 script error or unreadable script, 64 usage error.
    """
  static let examples = [
    "spatial-replay record Journals/demo.scenario",
    "spatial-replay record Journals/notes.scenario --profile legacy -o notes.legacy.ndjson",
    #"printf 'controller home Home\nroot home\n' | spatial-replay record -"#,
  ]

  let script: String
  let profile: Profile
  let output: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else {
      throw UsageError(arguments.positionals.isEmpty ? "record needs a SCRIPT" : "record takes one SCRIPT")
    }
    script = arguments.positionals[0]
    profile = arguments.choice(Option.profile).flatMap(Profile.init(rawValue:)) ?? .intended
    output = arguments.value(Option.output)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let bytes = try readInput(script)
    let scenario: Scenario
    do throws(ScenarioError) {
      scenario = try ScenarioParser.parse(bytes, script: script)
    } catch {
      return scriptError(error, &context)
    }
    // The output is opened at the first chunk, after the script parsed, as when the journal was written at the end.
    let path = output.flatMap { $0 == "-" ? nil : $0 }
    var file: AtomicFile? = nil
    var spool: SpoolFile? = nil
    var writer = JournalChunks { (chunk) throws(CommandFailure) in
      if let path {
        if file == nil { file = try AtomicFile(path: path) }
        try file?.write(chunk)
      } else {
        if spool == nil { spool = try SpoolFile() }
        try spool?.write(chunk)
      }
    }
    do throws(ScenarioError) {
      var navigator = try ScenarioCompiler.run(scenario, profile: profile) { writer.take(from: &$0) }
      writer.take(from: &navigator, all: true)
    } catch {
      file?.abandon()
      return scriptError(error, &context)
    }
    if let failure = writer.failure {
      file?.abandon()
      throw failure
    }
    try file?.commit()
    try spool?.copy(to: &context)
    return ExitCode.ok
  }

  /// The model's contract: a script error is exactly `SCRIPT:LINE: message`, as a finding names its line.
  private func scriptError(_ error: ScenarioError, _ context: inout Context) -> Int32 {
    context.stderr.write("\(error)\n")
    return ExitCode.badInput
  }
}

/// The navigator's records encoded and written in chunks of about 1 MiB as they are made.
///
/// Implementation note: `record` used to keep every record, then the whole
/// journal, in memory (406 MB for a 1M-event scenario); taking the records
/// every few thousand keeps memory constant in the scenario's length.
private struct JournalChunks {
  let write: ([UInt8]) throws(CommandFailure) -> Void
  private var records: [Record] = []
  private var bytes: [UInt8] = []
  private(set) var failure: CommandFailure?

  init(_ write: @escaping ([UInt8]) throws(CommandFailure) -> Void) { self.write = write }

  static let batch = 4096

  mutating func take(from navigator: inout Navigator, all: Bool = false) {
    guard all || navigator.records.count >= Self.batch else { return }
    navigator.takeRecords(into: &records)
    for record in records {
      record.encode(into: &bytes)
      bytes.append(UInt8(ascii: "\n"))
    }
    records.removeAll(keepingCapacity: true)
    guard failure == nil else { return bytes.removeAll(keepingCapacity: true) }
    do {
      try write(bytes)
    } catch {
      failure = error
    }
    bytes.removeAll(keepingCapacity: true)
  }
}

/// A file without a name in the temporary directory that holds the journal
/// until the whole scenario has run: a script error must leave standard output
/// empty, so nothing is written there before the end.
private final class SpoolFile {
  private let fd: Int32

  init() throws(CommandFailure) {
    let directory = Context.temporaryDirectory
    // `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`) is a macro Swift does not import; without it, a named file unlinked at once.
    var fd = systemOpen(directory, 0o20_000_000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
    if fd < 0 {
      var template = Array((directory + "/spatial-replay-record-XXXXXX").utf8CString)
      fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
    }
    guard fd >= 0 else {
      throw CommandFailure("cannot create a temporary file in \(displayText(directory)): \(errorText())")
    }
    self.fd = fd
  }

  deinit { systemClose(fd) }

  func write(_ bytes: [UInt8]) throws(CommandFailure) {
    let code = bytes.withUnsafeBytes { writeAll(fd, $0) }
    guard code == 0 else {
      throw CommandFailure("cannot write a temporary file: \(String(cString: strerror(code)))")
    }
  }

  /// Copies the whole file to standard output.
  func copy(to context: inout Context) throws(CommandFailure) {
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset: off_t = 0
    while true {
      let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw CommandFailure("cannot read a temporary file: \(errorText())") }
      if n == 0 { return }
      context.stdout.write(bytes: chunk[..<n])
      offset += off_t(n)
    }
  }
}

private func readInput(_ path: String) throws(CommandFailure) -> [UInt8] {
  let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw CommandFailure("cannot read '\(displayText(path))': \(errorText())") }
  defer { if fd != 0 { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n < 0 {
      if errno == EINTR { continue }
      throw CommandFailure("cannot read '\(displayText(path))': \(errorText())")
    }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return bytes
}
