import Journal
import Projection
import Testing

@testable import spatial_replay

/// `simulate --shape churn` and its knobs: a real app's session, with hundreds of
/// screens, a new controller per modal presentation and nested modals, still
/// valid under the intended profile.
@Suite struct SimulateShapeTests {
  /// What one journal holds, folded once.
  struct Census {
    var records: [Record] = []
    var allocated = 0
    var aliveAtEnd = 0
    var modalsPresented = 0
    var modalsDeallocated = 0
    /// Modals presented by a modal.
    var nested = 0
    var ids: Set<ControllerID> = []
    var classes: Set<String> = []
    var state = State()

    init(_ simulation: Simulation) {
      let (records, diagnostics) = JournalReader.readAll(bytes: Simulator.journal(simulation))
      #expect(diagnostics.isEmpty, "\(diagnostics.prefix(3))")
      self.records = records
      for record in records {
        switch record.event {
        case .alloc(let id, let className):
          allocated += 1
          #expect(ids.insert(id).inserted, "\(id) allocated twice")
          classes.insert(className)
        case .modal(_, let presenter):
          modalsPresented += 1
          if state[controller: presenter]?.isModal == true { nested += 1 }
        case .dealloc(let id): if state[controller: id]?.isModal == true { modalsDeallocated += 1 }
        default: break
        }
        reduce(into: &state, record)
      }
      aliveAtEnd = state.controllers.filter(\.isAlive).count
    }
  }

  @Test func theChurnShapeAllocatesThousandsOfControllersWhileAFewHundredAreAlive() {
    let census = Census(Simulation(events: 100_000, seed: 1, controllers: 200, shape: .churn))
    #expect(census.records.count == 100_000)
    #expect(census.allocated >= 2_000, "\(census.allocated) controllers over the session")
    #expect((200...400).contains(census.aliveAtEnd), "\(census.aliveAtEnd) alive at the end")
    #expect(census.classes.count >= 200, "a class per screen: \(census.classes.count)")
    #expect(census.modalsPresented >= 1_500)
    #expect(census.nested > 100, "\(census.nested) nested presentations")
    // Intended: every modal goes once its presenter reappears, and the checker finds nothing.
    #expect(census.modalsPresented - census.modalsDeallocated <= 4)
    #expect(Checker.check(census.records).isEmpty)
  }

  @Test func instanceIdsAreTheClassAndANumberPerClass() {
    let census = Census(Simulation(events: 5_000, seed: 4, controllers: 60, shape: .churn))
    for id in census.ids {
      let parts = id.rawValue.split(separator: "#")
      #expect(parts.count == 2 && Int(parts[1]) != nil, "\(id)")
    }
    let compose = census.ids.filter { $0.rawValue.hasPrefix("ComposeViewController#") }
    let numbers = compose.compactMap { Int($0.rawValue.split(separator: "#")[1]) }.sorted()
    #expect(numbers == Array(1...max(1, numbers.count)) || numbers.isEmpty)
    #expect(census.ids.contains("HomeViewController#1"))
  }

  @Test func theSimpleShapeIsTheDefaultAndKnobsChangeIt() {
    let plain = Simulator.journal(Simulation(events: 4_000, seed: 3))
    #expect(plain == Simulator.journal(Simulation(events: 4_000, seed: 3, shape: .simple)))
    let modalHeavy = Census(Simulation(events: 4_000, seed: 3, shape: .init(modalPercent: 20)))
    let simple = Census(Simulation(events: 4_000, seed: 3))
    #expect(modalHeavy.modalsPresented > 4 * max(1, simple.modalsPresented))
    #expect(simple.nested == 0 || simple.modalsPresented > 0)
    #expect(Checker.check(modalHeavy.records).isEmpty)
  }

  @Test func aDurationEndsTheSessionOnTheModelsClock() throws {
    let census = Census(
      Simulation(events: .max, seed: 2, controllers: 50, shape: .churn, milliseconds: 10 * 60_000))
    let first = try #require(census.records.first).time
    let last = try #require(census.records.last).time
    let length = first.milliseconds(to: last)
    // Stops once the clock reaches ten minutes: the last event is at most one wait
    // (under 3 s) before it, or one command (a goToRoot of a few animated moves) past it.
    #expect(length > 597_000 && length < 660_000, "\(length) ms")
    #expect(Checker.check(census.records).isEmpty)
  }

  @Test(
    arguments: [
      ("90s", 90_000), ("15m", 900_000), ("2h", 7_200_000), ("1h30m", 5_400_000), ("500ms", 500),
      ("1m30s250ms", 90_250),
    ] as [(String, Int64)])
  func durationsAreRead(_ text: String, _ milliseconds: Int64) {
    #expect(DurationText.milliseconds(text) == milliseconds)
  }

  @Test(arguments: ["", "5", "m", "1x", "30s1m", "1h1h", "-5s", "1.5h", "9999999999999s"])
  func otherTextsAreNotDurations(_ text: String) {
    #expect(DurationText.milliseconds(text) == nil)
  }
}
