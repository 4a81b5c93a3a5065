import Journal
import Projection

/// `simulate --events N --seed S`: a random but valid session recorded through the navigator.
struct SimulateCommand: Command {
  static let name = "simulate"
  static let abstract = "Record a random but valid session of N events through the reference navigator"
  static let help = """
    usage: spatial-replay simulate --events N [--seed S] [--controllers K] [--profile intended|legacy]
                                   [--session ID] [--app NAME] [--build B] [-o FILE]

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

    options:
      --events N            events to write, at least 1 (required)
      --seed S              seed of the random choices, 0 to 2^64-1 (default 1)
      --controllers K       controllers of the initial map, at least 1 (default 8)
      --profile P           intended (default) or legacy
      --session ID          the header's session id (default sim-SEED)
      --app NAME, --build B the header's app and build (absent by default)
      -o, --output FILE     write to FILE (atomically) instead of standard output

    exit status: 0 fine, 2 the output could not be written, 64 usage error.

    examples:
      spatial-replay simulate --events 1000000 --seed 42 -o big.ndjson
      spatial-replay simulate --events 500 --seed 7 --profile legacy | spatial-replay check -

    """
  static let spec = ArgumentSpec(
    options: ["--events", "--seed", "--controllers", "--profile", "--session", "--app", "--build", "--output"],
    aliases: ["-o": "--output"])

  var simulation: Simulation
  var output: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("simulate takes no FILE (use -o FILE to write to a file)")
    }
    guard let events = try arguments.int("--events", min: 1) else { throw UsageError("simulate needs --events N") }
    var seed: UInt64 = 1
    if let text = arguments.value("--seed") {
      guard let value = UInt64(text) else {
        throw UsageError("--seed takes a whole number from 0 to 2^64-1, got '\(text)'")
      }
      seed = value
    }
    let controllers = try arguments.int("--controllers", min: 1) ?? 8
    let profile = Profile(rawValue: try arguments.choice("--profile", Profile.allCases.map(\.rawValue)) ?? "intended")!
    simulation = Simulation(
      events: events, seed: seed, controllers: controllers, profile: profile, session: arguments.value("--session"),
      app: arguments.value("--app"), build: arguments.value("--build"))
    output = arguments.value("--output")
    if output == "" { throw UsageError("-o needs a path") }
  }

  func run(_ context: inout Context) throws -> Int32 {
    guard let output else {
      Simulator.run(simulation) { chunk in context.stdout.write(bytes: chunk) }
      return ExitCode.ok
    }
    let file = try AtomicFile(path: output)
    do {
      try Simulator.run(simulation) { chunk throws(CommandFailure) in try file.write(chunk) }
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
    return ExitCode.ok
  }
}
