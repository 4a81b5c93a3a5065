import Journal
import Testing

@testable import Projection
@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The simulator's SplitMix64: seedable, so every failure can be replayed from its seed.
typealias SeededGenerator = SplitMix64

/// Random commands over a growing set of controllers: most are valid, some are refused
/// (unknown ids, occupied slots, forbidden deallocs...), which must write nothing.
struct RandomScenario {
  var rng: SeededGenerator
  var next = 0

  init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

  mutating func id(_ nav: Navigator) -> ControllerID {
    let alive = nav.state.aliveIDs
    if alive.isEmpty || Int.random(in: 0..<20, using: &rng) == 0 {
      return ControllerID("c\(Int.random(in: 0...next, using: &rng))")
    }
    return alive.randomElement(using: &rng)!
  }

  mutating func direction() -> Direction { Direction.allCases.randomElement(using: &rng)! }

  mutating func bool() -> Bool { Bool.random(using: &rng) }

  /// One command; `nil` ids are drawn from the navigator's current state.
  mutating func command(_ nav: Navigator) -> ScenarioCommand {
    if nav.state.root == nil, let first = nav.state.aliveIDs.first, Int.random(in: 0..<3, using: &rng) == 0 {
      return .root(first)
    }
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<10:
      next += 1
      return .controller(ControllerID("c\(next)"), className: "C\(next)ViewController")
    case 10..<25: return .link(id(nav), direction(), id(nav))
    case 25..<29: return .unlink(id(nav), direction())
    case 29..<33: return .touches(id(nav), direction(), min: Int.random(in: 1...3, using: &rng))
    case 33..<36: return .threshold(id(nav), points: [0, 30, 50, 80].randomElement(using: &rng)!)
    case 36..<55: return .move(direction(), animated: bool())
    case 55..<70:
      return .pan(
        direction(), distance: [0, 10, 50, 50.5, 80, 120].randomElement(using: &rng)!,
        velocity: [0, 300, 650, 650.5, 1000].randomElement(using: &rng)!, touches: Int.random(in: 1...3, using: &rng),
        cancelled: Int.random(in: 0..<8, using: &rng) == 0)
    case 70..<78:
      next += 1
      return .modal(ControllerID("c\(next)"), className: "Modal\(next)ViewController", direction(), animated: bool())
    case 78..<83: return .goToRoot(animated: bool())
    case 83..<89: return .dealloc(id(nav))
    case 89..<92: return .wait(milliseconds: Int64.random(in: 0...1000, using: &rng))
    case 92..<95: return .mark(label: "step \(next)", fields: [MarkField("n", "\(next)")])
    default: return .root(id(nav))
    }
  }
}

/// How many seeds to run: `SPATIAL_REPLAY_SEEDS=N` runs seeds 1...N (default 12, the CI set).
private let seeds: [UInt64] = {
  if let text = getenv("SPATIAL_REPLAY_SEEDS").map({ String(cString: $0) }), let n = UInt64(text), n > 0 {
    return Array(1...n)
  }
  return Array(1...12)
}()

@Suite struct NavigatorPropertyTests {
  /// Folding the recorded journal, through NDJSON and the decoder, gives the state the
  /// navigator had after producing each record; a refused command writes nothing.
  @Test(arguments: Profile.allCases)
  func foldingTheJournalGivesTheNavigatorsState(_ profile: Profile) throws {
    for seed in seeds {
      var random = RandomScenario(seed: seed)
      var nav = Navigator(
        profile: profile, header: SessionHeader(session: "P\(seed)", profile: profile.rawValue), keepsStates: true)
      var refused = 0
      for _ in 0..<300 {
        let command = random.command(nav)
        let before = (nav.records.count, nav.state, nav.clock)
        do {
          try nav.run(command)
          if profile == .intended, nav.state.root != nil {
            #expect(nav.state.transitionInFlight == nil, "seed \(seed) after \(command)")
            #expect(nav.state.appearedCount == 1, "seed \(seed) after \(command)")
          }
        } catch {
          refused += 1
          #expect(nav.records.count == before.0 && nav.state == before.1 && nav.clock == before.2, "seed \(seed)")
        }
      }
      #expect(refused > 0 && refused < 300, "seed \(seed): the generator should mix valid and refused commands")
      #expect(nav.records.count > 300, "seed \(seed)")
      #expect(nav.states.count == nav.records.count)

      var state = State()
      for (record, expected) in zip(nav.records, nav.states) {
        let decoded = try RecordDecoder.decode(record.ndjson)
        #expect(decoded == record, "seed \(seed) seq \(record.seq)")
        let anomalies = reduce(into: &state, decoded)
        #expect(anomalies.isEmpty, "seed \(seed) seq \(record.seq): \(anomalies)")
        guard state == expected else {
          Issue.record("seed \(seed): the folded state differs from the navigator's at seq \(record.seq)")
          break
        }
      }
    }
  }
}
