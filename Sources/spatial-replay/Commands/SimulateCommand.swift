import Dispatch
import Journal
import Projection
import Synchronization

/// `simulate --events N --seed S`: a random but valid session recorded through the navigator.
struct SimulateCommand: Command {
  static let name = "simulate"
  static let abstract = "Record a random but valid session of N events through the reference navigator"
  static let usage = ["spatial-replay simulate --events N [options]"]
  static let discussion = """
    Writes a journal of exactly N events (the header included) recorded by the
    reference navigator: a random map of K controllers on a grid, linked into a
    connected graph with some cycles, then a random mix of pans of every
    outcome, programmatic moves, modals and their cleanup, touches minimums,
    goToRoot, waits, marks, links added and removed, and controllers
    deallocated and replaced. The same options always give the same bytes.

    A command is chosen only when the most events it can write still fit in N;
    near the end, single-event commands (cancelled pans, marks) fill up to
    exactly N. Under the intended profile the journal ends at rest and 'check'
    finds nothing in it; under legacy it shows the legacy deviations.
    """
  static let events = Option.value("--events", "N", "events to write, at least 1 (required)")
  static let seed = Option.value("--seed", "S", "seed of the random choices, 0 to 2^64-1 (default 1)")
  static let controllers = Option.value("--controllers", "K", "controllers of the initial map, at least 1 (default 8)")
  static let session = Option.value("--session", "ID", "the header's session id (default sim-SEED)")
  static let app = Option.value("--app", "NAME", "the header's app (absent by default)")
  static let build = Option.value("--build", "B", "the header's build (absent by default)")
  static let device = Option.value("--device", "NAME", "the header's device (absent by default)")
  static let options = [
    events, seed, controllers, Option.profile.help("intended (default) or legacy"), session, app, build, device,
    Option.output,
  ]
  static let exitStatus = """
    0 fine, 2 the output could not be written, 64 usage error.
    """
  static let examples = [
    "spatial-replay simulate --events 1000000 --seed 42 -o big.ndjson",
    "spatial-replay simulate --events 500 --seed 7 --profile legacy | spatial-replay check -",
  ]

  var simulation: Simulation
  var output: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("simulate takes no FILE (use -o FILE to write to a file)")
    }
    guard let events = try arguments.int(Self.events, min: 1) else { throw UsageError("simulate needs --events N") }
    var seed: UInt64 = 1
    if let text = arguments.value(Self.seed) {
      guard let value = UInt64(text) else {
        throw UsageError("--seed takes a whole number from 0 to 2^64-1, got '\(text)'")
      }
      seed = value
    }
    let controllers = try arguments.int(Self.controllers, min: 1) ?? 8
    let profile = arguments.choice(Option.profile).flatMap(Profile.init(rawValue:)) ?? .intended
    simulation = Simulation(
      events: events, seed: seed, controllers: controllers, profile: profile, session: arguments.value(Self.session),
      app: arguments.value(Self.app), build: arguments.value(Self.build), device: arguments.value(Self.device))
    output = arguments.value(Option.output)
    if output == "" { throw UsageError("-o needs a path") }
  }

  func run(_ context: inout Context) throws -> Int32 {
    context.flush()
    let file = try output.map { path throws(CommandFailure) in try AtomicFile(path: path) }
    let writer = JournalBytesWriter(file: file)
    do {
      try writer.write { (sink) throws(CommandFailure) in
        try Simulator.records(simulation) { batch throws(CommandFailure) in try sink(batch) }
      }
      try file?.commit()
    } catch {
      file?.abandon()
      throw error
    }
    return ExitCode.ok
  }
}

/// Encodes records and writes them (to a file, or to standard output) on a
/// second thread while the caller produces the next ones.
///
/// Implementation note: encoding is about a quarter of `simulate`'s work; on
/// its own core it overlaps the navigator.
struct JournalBytesWriter {
  let file: AtomicFile?

  /// Throws if writing to standard output failed (a full disk): the journal did not get out.
  private static func check(_ out: FileOutput) throws(CommandFailure) {
    guard out.failed else { return }
    throw CommandFailure("cannot write to standard output: \(out.failureText)")
  }

  /// Runs `produce`, which hands batches of records to its sink, and writes them in order.
  /// - Throws: the first write error, or what `produce` throws.
  func write(
    _ produce: (_ sink: ([Record]) throws(CommandFailure) -> Void) throws(CommandFailure) -> Void
  ) throws(CommandFailure) {
    let pipe = WorkPipe<[Record]>(capacity: 4)
    let failure = Mutex<CommandFailure?>(nil)
    let done = DispatchSemaphore(value: 0)
    let target = OwnedFile(file)
    DispatchQueue.global(qos: .userInitiated).async {
      defer { done.signal() }
      var out = FileOutput(fd: 1, capacity: 1 << 18)
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1 << 18 + 4096)
      while let batch = pipe.take() {
        for record in batch {
          record.encode(into: &buffer)
          buffer.append(0x0A)
        }
        guard buffer.count >= 1 << 18 else { continue }
        do throws(CommandFailure) {
          try target.write(buffer, or: &out)
          try Self.check(out)
        } catch {
          failure.withLock { $0 = error }
          pipe.cancel()
          return
        }
        buffer.removeAll(keepingCapacity: true)
      }
      do throws(CommandFailure) {
        try target.write(buffer, or: &out)
        out.flush()
        try Self.check(out)
      } catch {
        failure.withLock { $0 = error }
      }
    }
    do {
      try produce { batch throws(CommandFailure) in
        guard pipe.put(batch) else { throw CommandFailure("stopped") }
      }
    } catch {
      pipe.cancel()
      done.wait()
      throw failure.withLock { $0 } ?? error
    }
    pipe.close()
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }
}

/// Hands the output file to the writing thread, its only user until the caller has waited for it.
///
/// Implementation note: ``AtomicFile`` is not `Sendable`; the box is
/// `@unchecked Sendable` because the calling thread does not touch the file
/// between starting the writer and waiting for its end.
private final class OwnedFile: @unchecked Sendable {
  private let file: AtomicFile?

  init(_ file: AtomicFile?) { self.file = file }

  /// Writes to the file, or to standard output when there is none.
  func write(_ bytes: [UInt8], or out: inout FileOutput) throws(CommandFailure) {
    if let file {
      try file.write(bytes)
    } else {
      out.write(bytes: bytes)
    }
  }
}
