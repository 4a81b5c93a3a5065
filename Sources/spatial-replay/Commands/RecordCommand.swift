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
    0 recorded, 2 script error or unreadable script, 64 usage error (a
    journal given instead of a script included).
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
    profile = arguments.choice(Option.profile, as: Profile.self) ?? .intended
    output = arguments.value(Option.output)
    if let output, output != "-" { try InputFiles([script]).refuse(output) }
  }

  func run(_ context: inout Context) throws -> Int32 {
    let bytes = try readInput(script)
    if bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) == UInt8(ascii: "{") {
      throw CommandFailure(
        "\(displayText(script)) is a journal (a line of JSON), not a scenario script: 'record' runs a script "
          + "such as Journals/notes.scenario; to audit a journal use 'spatial-replay check \(displayText(script))'",
        exitCode: ExitCode.usage)
    }
    // The script is parsed a piece at a time on a thread of its own while the navigator runs the
    // pieces before; a parse error anywhere in the script is the error reported, as when the
    // whole script was parsed first.
    let reader = ScriptReader(bytes, script: script)
    // The header needs the first command (a `session` line names the session): pieces of only
    // comments and blank lines before it are passed over.
    var first: [Scenario.Line] = []
    while first.isEmpty, let piece = reader.next() {
      switch piece {
      case .failure(let error): return scriptError(error, &context)
      case .success(let lines): first = lines
      }
    }
    // The output file is opened when the first batch is written.
    // Standard output gets the journal only once the whole script ran: a script error leaves it
    // as it was. A pipe or a terminal gets it from a spool at the end; a file (or /dev/null) as
    // it is made, cut back on a script error.
    let path = output.flatMap { $0 == "-" ? nil : $0 }
    let direct = path == nil && context.stdout.fd == 1 ? RewindableOutput(fd: 1) : nil
    let writer = JournalWriterThread(path.map { .path($0) } ?? (direct != nil ? .standardOutput : .spool))
    func abandon() {
      writer.cancel()
      writer.file?.abandon()
      if let direct { direct.rewind() } else if path == nil { writer.output.discard() }
    }
    // After a write error the writer drops the records and the script runs on,
    // so that a script error is still the one reported.
    let scenario = ScenarioParser.scenario(bytes, script: script, lines: first)
    var navigator = ScenarioCompiler.navigator(for: scenario, profile: profile)
    var lines = first
    while true {
      do throws(ScenarioError) {
        try ScenarioCompiler.run(lines, script: script, on: &navigator) { navigator in
          if navigator.records.count >= Self.batch { _ = writer.put(navigator.takeRecords(leaving: writer.spare())) }
        }
      } catch {
        abandon()
        return scriptError(reader.laterError() ?? error, &context)
      }
      guard let next = reader.next() else { break }
      switch next {
      case .failure(let error):
        abandon()
        return scriptError(error, &context)
      case .success(let piece):
        lines = piece
      }
    }
    _ = writer.put(navigator.takeRecords(leaving: writer.spare()))
    if let failure = writer.finish() {
      writer.file?.abandon()
      throw failure
    }
    try writer.file?.commit()
    if path == nil && direct == nil { try writer.output.drain(into: &context.stdout) }
    return ExitCode.ok
  }

  /// Records handed to the writing thread at a time (about half a MiB of journal).
  ///
  /// Implementation note: taking the records every few thousand, rather than keeping every
  /// record or the whole journal in memory, keeps memory constant in the scenario's length, and
  /// encoding them on the second core overlaps the navigator.
  static let batch = 4096

  /// Script lines parsed at a time on the parsing thread (a few thousand commands: a few hundred KiB of script).
  static let piece = 2048

  /// The model's contract: a script error is exactly `SCRIPT:LINE: message`, as a finding names its line.
  private func scriptError(_ error: ScenarioError, _ context: inout Context) -> Int32 {
    context.stderr.write("\(error)\n")
    return ExitCode.badInput
  }
}

/// The whole of a file, or of standard input for `-` (`record`, `testgen`, `shrink`); a failure
/// names the path cut to `nameLimit` characters.
func readInput(_ path: String, nameLimit: Int = 64) throws(CommandFailure) -> [UInt8] {
  let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else {
    throw CommandFailure("cannot read '\(displayText(path, limit: nameLimit))': \(errorText())")
  }
  defer { if fd != 0 { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n < 0 {
      if errno == EINTR { continue }
      throw CommandFailure("cannot read '\(displayText(path, limit: nameLimit))': \(errorText())")
    }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return bytes
}

/// Standard output that can be put back as it was: a regular file written at its end (`>` or
/// `>>`), cut back to its size, or /dev/null, where nothing shows. Anything else (a pipe, a
/// terminal, a file written in its middle) is nil: its reader would see a partial journal.
///
/// Implementation note: spooling the journal and copying it to a file would write it twice and
/// read it back once; put back, it is written once.
struct RewindableOutput {
  let fd: Int32
  /// The size to cut a regular file back to; nil for /dev/null.
  let size: off_t?

  init?(fd: Int32) {
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      // With O_APPEND every write goes to the end, wherever the offset is.
      let appends = fcntl(fd, F_GETFL) & O_APPEND != 0
      let offset = lseek(fd, 0, SEEK_CUR)
      guard appends || offset == status.st_size else { return nil }
      size = status.st_size
    case S_IFCHR:
      var null = stat()
      guard stat("/dev/null", &null) == 0, (null.st_mode & S_IFMT) == S_IFCHR, null.st_rdev == status.st_rdev
      else { return nil }
      size = nil
    default:
      return nil
    }
    self.fd = fd
  }

  /// Cuts the file back to its size before the command wrote to it.
  func rewind() {
    guard let size else { return }
    _ = ftruncate(fd, size)
    _ = lseek(fd, size, SEEK_SET)
  }
}

/// Parses a script a piece at a time (``ScenarioParser/Pieces``) on a thread of its own, ahead of
/// the navigator that runs the pieces.
///
/// Implementation note: parsing (tokens, strings, the command's arguments) is a large share of
/// `record`'s work, which the navigator would otherwise wait for; parsed ahead, it overlaps the
/// navigator, and the encoder has the journal writer's thread. At most ``capacity`` pieces wait.
private final class ScriptReader: Sendable {
  static let capacity = 4
  private let pipe = WorkPipe<Result<[Scenario.Line], ScenarioError>>(capacity: ScriptReader.capacity)

  init(_ bytes: [UInt8], script: String) {
    let pipe = self.pipe
    startThread {
      var pieces = ScenarioParser.Pieces(bytes, script: script)
      while true {
        do throws(ScenarioError) {
          guard let lines = try pieces.next(lines: RecordCommand.piece) else { break }
          guard pipe.put(.success(lines)) else { return }
        } catch {
          _ = pipe.put(.failure(error))
          break
        }
      }
      pipe.close()
    }
  }

  deinit { pipe.cancel() }

  /// The next piece, or the parse error that ended the script; nil after the last piece.
  func next() -> Result<[Scenario.Line], ScenarioError>? { pipe.take() }

  /// The parse error of a line after the pieces taken so far, if any (the rest of the script is parsed).
  func laterError() -> ScenarioError? {
    while let piece = pipe.take() {
      if case .failure(let error) = piece { return error }
    }
    return nil
  }
}
