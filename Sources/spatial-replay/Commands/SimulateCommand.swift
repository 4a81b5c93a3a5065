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

    --shape churn is shaped like a real app's session: 200 screens (--screens),
    one class per screen, ids 'Class#n' numbered per class, a new controller
    for every modal presentation (deallocated when its presenter reappears),
    modals in about one command in nine, a third of them presenting another
    at once; thousands of controllers allocated over 100,000 events while a
    few hundred are alive. --modals, --nested and --replace tune either shape.
    --duration ends the session at a length on the model's clock instead of
    (or before) a number of events.
    """
  static let events = Option.value(
    "--events", "N", "events to write, at least 1 (this or --duration is required)")
  static let duration = Option.value(
    "--duration", "TIME", "the session's length on the model's clock: 90s, 15m, 2h, 1h30m, 500ms")
  /// `--shape`'s words.
  enum ShapeName: String, CaseIterable {
    case simple, churn
  }
  static let shape = Option.value(
    "--shape", "NAME", "simple (default: 8 classes, ids cN) or churn (a real app's: see above)",
    values: .cases(ShapeName.self))
  static let screens = Option.value(
    "--screens", "K", "screens of the initial map, 1 to 1,000,000 (default 8, 200 with --shape churn)")
  static let modals = Option.value(
    "--modals", "W", "weight of modal presentations among the commands, whose others weigh 98 (default 1, churn 12)")
  static let nested = Option.value(
    "--nested", "P", "percent of the presentations that present another modal at once (default 0, churn 30)")
  static let replace = Option.value(
    "--replace", "W", "weight of screens replaced by a new instance, as --modals (default 1, churn 3)")
  static let seed = Option.value("--seed", "S", "seed of the random choices, 0 to 2^64-1 (default 1)")
  static let controllers = Option.value("--controllers", "K", "the older name of --screens")
  /// The most screens of an initial map: a million, far beyond a real app, and a map that fits in memory.
  static let maxScreens = 1_000_000
  /// The longest `--duration`: 100 years on the model's clock, which starts in 2026.
  static let maxDurationMilliseconds: Int64 = 876_000 * 3_600_000
  static let session = Option.value("--session", "ID", "the header's session id (default sim-SEED)")
  static let app = Option.value("--app", "NAME", "the header's app (absent by default)")
  static let build = Option.value("--build", "B", "the header's build (absent by default)")
  static let device = Option.value("--device", "NAME", "the header's device (absent by default)")
  static let options = [
    events, duration, seed, shape, screens, modals, nested, replace, controllers,
    Option.profile.help("intended (default) or legacy"), session, app, build, device, Option.output,
  ]
  static let exitStatus = """
    0 fine, 2 the output could not be written, 64 usage error.
    """
  static let examples = [
    "spatial-replay simulate --events 1000000 --seed 42 -o big.ndjson",
    "spatial-replay simulate --events 500 --seed 7 --profile legacy | spatial-replay check -",
    "spatial-replay simulate --shape churn --events 100000 -o churn.ndjson",
    "spatial-replay simulate --shape churn --screens 300 --duration 1h -o hour.ndjson",
  ]

  var simulation: Simulation
  var output: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("simulate takes no FILE (use -o FILE to write to a file)")
    }
    let events = try arguments.int(Self.events, min: 1)
    var milliseconds: Int64?
    if let text = arguments.value(Self.duration) {
      guard let ms = DurationText.milliseconds(text), ms > 0 else {
        throw UsageError("--duration takes a length such as 90s, 15m, 2h or 1h30m, got '\(text)'")
      }
      // The model's clock starts in 2026 and a journal's times end with year 9999.
      guard ms <= Self.maxDurationMilliseconds else {
        throw UsageError("--duration takes at most 876000h (100 years on the model's clock), got '\(text)'")
      }
      milliseconds = ms
    }
    guard events != nil || milliseconds != nil else { throw UsageError("simulate needs --events N or --duration TIME") }
    var seed: UInt64 = 1
    if let text = arguments.value(Self.seed) {
      guard let value = UInt64(text) else {
        throw UsageError("--seed takes a whole number from 0 to 2^64-1, got '\(text)'")
      }
      seed = value
    }
    let churn = arguments.choice(Self.shape, as: ShapeName.self) == .churn
    var shape = churn ? Simulation.Shape.churn : .simple
    if let weight = try arguments.int(Self.modals, min: 0) { shape.modalPercent = min(weight, 100) }
    if let percent = try arguments.int(Self.nested, min: 0) {
      guard percent <= 100 else { throw UsageError("--nested takes a percent from 0 to 100, got \(percent)") }
      shape.nestedPercent = percent
    }
    if let weight = try arguments.int(Self.replace, min: 0) { shape.replacePercent = min(weight, 100) }
    if arguments.value(Self.screens) != nil && arguments.value(Self.controllers) != nil {
      throw UsageError("--screens and --controllers are one option: give one of them")
    }
    let older = try arguments.int(Self.controllers, min: 1, max: Self.maxScreens)
    let screens =
      try arguments.int(Self.screens, min: 1, max: Self.maxScreens) ?? older
      ?? (churn ? Simulation.Shape.churnScreens : 8)
    let profile = arguments.choice(Option.profile, as: Profile.self) ?? .intended
    simulation = Simulation(
      events: events ?? Int.max, seed: seed, controllers: screens, profile: profile,
      session: arguments.value(Self.session), app: arguments.value(Self.app), build: arguments.value(Self.build),
      device: arguments.value(Self.device), shape: shape, milliseconds: milliseconds)
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
