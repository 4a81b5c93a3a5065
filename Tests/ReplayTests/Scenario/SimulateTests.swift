import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `simulate`: deterministic per seed, exactly N events, valid under the intended
/// profile (no format errors, no checker findings), every kind of event present.
@Suite struct SimulateTests {
  /// Seeds run by default; set `SIMULATE_SEEDS=N` to run N more.
  static let seeds: [UInt64] = {
    let extra = getenv("SIMULATE_SEEDS").flatMap { Int(String(cString: $0)) } ?? 0
    return [1, 2, 3, 42, 2024] + (0..<UInt64(max(0, extra))).map { 10_000 + $0 }
  }()

  static func records(_ bytes: [UInt8]) -> (records: [Record], diagnostics: [Diagnostic]) {
    JournalReader.readAll(bytes: bytes)
  }

  @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOtherBytes() {
    let a = Simulator.journal(Simulation(events: 3000, seed: 7))
    let b = Simulator.journal(Simulation(events: 3000, seed: 7))
    let c = Simulator.journal(Simulation(events: 3000, seed: 8))
    #expect(a == b)
    #expect(a != c)
    let legacy = Simulator.journal(Simulation(events: 3000, seed: 7, profile: .legacy))
    #expect(legacy != a)
    #expect(legacy == Simulator.journal(Simulation(events: 3000, seed: 7, profile: .legacy)))
  }

  @Test func chunksAreWholeLinesAndAddUpToTheJournal() {
    var chunks: [[UInt8]] = []
    Simulator.run(Simulation(events: 5000, seed: 3), chunkSize: 4096) { chunks.append($0) }
    #expect(chunks.count > 10)
    #expect(chunks.allSatisfy { $0.last == 0x0A })
    #expect(chunks.flatMap { $0 } == Simulator.journal(Simulation(events: 5000, seed: 3)))
  }

  @Test(arguments: [1, 2, 3, 5, 9, 12, 37, 100, 999, 4321])
  func writesExactlyNEvents(_ n: Int) {
    for profile in Profile.allCases {
      for controllers in [1, 3, 8, 30] {
        let (records, diagnostics) = Self.records(
          Simulator.journal(Simulation(events: n, seed: UInt64(n), controllers: controllers, profile: profile)))
        #expect(records.count == n, "\(profile), \(controllers) controllers")
        #expect(diagnostics.isEmpty, "\(diagnostics.prefix(3))")
      }
    }
  }

  @Test(arguments: seeds)
  func intendedJournalsHaveNoFindings(_ seed: UInt64) {
    let (records, diagnostics) = Self.records(Simulator.journal(Simulation(events: 20_000, seed: seed)))
    #expect(diagnostics.isEmpty, "format: \(diagnostics.prefix(3))")
    let findings = Checker.check(records)
    #expect(findings.isEmpty, "seed \(seed): \(findings.prefix(3).map { $0.formatted(file: "sim") })")
    #expect(records.count == 20_000)
    #expect(records.enumerated().allSatisfy { $0.offset == $0.element.seq })
  }

  @Test func aSessionHasEveryKindOfEventAndOutcome() {
    let (records, _) = Self.records(Simulator.journal(Simulation(events: 30_000, seed: 11, controllers: 10)))
    var types: Set<String> = []
    var outcomes: Set<PanOutcome> = []
    var triggers: Set<MoveTrigger> = []
    var animated: Set<Bool> = []
    var regularDeallocs = 0
    var waits = 0
    var state = State()
    for (i, record) in records.enumerated() {
      types.insert(record.event.typeName)
      switch record.event {
      case .pan(let pan): outcomes.insert(pan.outcome)
      case .move(let move):
        triggers.insert(move.trigger)
        animated.insert(move.animated)
      case .dealloc(let id): if state[controller: id]?.isModal == false { regularDeallocs += 1 }
      default: break
      }
      if i > 0, records[i - 1].time.milliseconds(to: record.time) > 250 { waits += 1 }
      reduce(into: &state, record)
    }
    #expect(types == Set(Event.knownTypeNames))
    #expect(outcomes == Set(PanOutcome.allCases))
    #expect(triggers == Set(MoveTrigger.allCases))
    #expect(animated == [true, false])
    #expect(regularDeallocs > 0, "leaves are deallocated and replaced")
    #expect(waits > 0)
    #expect(state.counters.events(ofType: "modal") > 0)
    // Each regular controller but the root is linked into the tree once; more links make cycles.
    let regularAllocs = state.controllers.filter { !$0.isModal }.count
    let regularLinks = records.filter { record in
      if case .link(_, _, let to) = record.event { state[controller: to]?.isModal == false } else { false }
    }.count
    #expect(regularLinks > regularAllocs - 1 + 10, "links beyond the tree: \(regularLinks) for \(regularAllocs)")
    #expect(types.contains("unlink"))
  }

  @Test func theHeaderNamesTheSessionAndTheProfile() throws {
    let bytes = Simulator.journal(
      Simulation(events: 1, seed: 99, profile: .legacy, session: nil, app: "Sim", build: "1 (2)"))
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"sim-99","app":"Sim","build":"1 (2)","profile":"legacy"}"#
        + "\n")
  }

  @Test func legacyJournalsShowTheLegacyDeviations() {
    let (records, diagnostics) = Self.records(
      Simulator.journal(Simulation(events: 20_000, seed: 5, profile: .legacy)))
    #expect(diagnostics.isEmpty)
    let rules = Set(Checker.check(records).map(\.rule.id))
    #expect(rules.isSuperset(of: ["incomplete-transition", "will-repeated", "modal-leak", "load-repeated"]))
  }

  @Test func theCommandWritesTheSameBytesToStandardOutputAndToAFile() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("sim.ndjson")
    let toFile = try Binary.run(["simulate", "--events", "2500", "--seed", "9", "--controllers", "5", "-o", out])
    #expect(toFile.status == 0, "\(toFile)")
    #expect(toFile.stdout.isEmpty && toFile.stderr.isEmpty)
    let toStdout = try Binary.run(["simulate", "--events", "2500", "--seed", "9", "--controllers", "5"])
    #expect(toStdout.status == 0)
    #expect(try dir.read(out) == toStdout.stdoutBytes)
    #expect(toStdout.stdoutBytes == Simulator.journal(Simulation(events: 2500, seed: 9, controllers: 5)))
    #expect(directoryEntries(dir.path) == ["sim.ndjson"])
    let check = try Binary.run(["check", out])
    #expect(check.status == 0)
    #expect(check.stdout == "\(out): 2,500 events, 0 errors, 0 warnings\n")
  }

  @Test func aDeviceIsWrittenInPlaceNeverReplaced() throws {
    let full = try Binary.run(["simulate", "--events", "2000", "-o", "/dev/full"])
    #expect(full.status == 2)
    #expect(full.stderr == "spatial-replay: error: /dev/full: cannot write: No space left on device\n")
    var info = stat()
    #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    let null = try Binary.run(["simulate", "--events", "2000", "-o", "/dev/null"])
    #expect(null.status == 0 && null.stderr.isEmpty)
  }

  struct UsageCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  @Test(arguments: [
    UsageCase(arguments: ["simulate"], message: "simulate needs --events N or --duration TIME"),
    UsageCase(
      arguments: ["simulate", "--duration", "1h5h"],
      message: "--duration takes a length such as 90s, 15m, 2h or 1h30m, got '1h5h'"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--screens", "3", "--controllers", "4"],
      message: "--screens and --controllers are one option: give one of them"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--nested", "101"],
      message: "--nested takes a percent from 0 to 100, got 101"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--shape", "real"],
      message: "--shape takes one of simple, churn, got 'real'"),
    UsageCase(arguments: ["simulate", "--events", "0"], message: "--events takes a whole number ≥ 1, got '0'"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--seed", "-1"],
      message: "--seed takes a whole number from 0 to 2^64-1, got '-1'"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--controllers", "0"],
      message: "--controllers takes a whole number from 1 to 1,000,000, got '0'"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "--profile", "modern"],
      message: "--profile takes one of intended, legacy, got 'modern'"),
    UsageCase(
      arguments: ["simulate", "--events", "5", "out.ndjson"],
      message: "simulate takes no FILE (use -o FILE to write to a file)"),
  ])
  func usageErrors(_ c: UsageCase) throws {
    let result = try Binary.run(c.arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("spatial-replay: error: \(c.message)\n"), "\(result.stderr)")
  }
}
