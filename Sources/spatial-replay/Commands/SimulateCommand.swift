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
    if output == "-" { output = nil }
  }

  func run(_ context: inout Context) throws -> Int32 {
    context.flush()
    let file = try output.map { path throws(CommandFailure) in try AtomicFile(path: path) }
    let writer = JournalWriterThread(file.map { .file($0) } ?? .standardOutput)
    do {
      try Simulator.records(simulation) { batch throws(CommandFailure) in
        guard writer.put(batch) else { throw CommandFailure("stopped") }
      }
    } catch {
      let failure = writer.finish()
      file?.abandon()
      throw failure ?? error
    }
    if let failure = writer.finish() {
      file?.abandon()
      throw failure
    }
    try file?.commit()
    return ExitCode.ok
  }
}
