import Journal
import Projection
import Testing

@testable import TestSupport

/// `Event.mapChange` (which events the report and the stepper redraw the map for)
/// against the model: the layout of every state of the bundled journals and a
/// simulated session, before and after each event.
@Suite struct MapChangeTests {
  static let journals = CheckJournals.paths(.intended) + CheckJournals.paths(.legacy)

  @Test(arguments: journals)
  func anEventThatChangesNothingLeavesTheLayoutAsItWas(_ path: String) throws {
    expectMapChanges(try CheckJournals.records(path).map(\.record), path)
  }

  @Test(arguments: ["simple", "churn"])
  func aSimulatedSessionToo(_ shape: String) {
    var records: [Record] = []
    Simulator.records(Simulation(events: 3_000, seed: 7, shape: shape == "churn" ? .churn : .simple)) {
      records += $0
    }
    expectMapChanges(records, "simulate --shape \(shape) --events 3000")
  }

  /// `.nothing`: the same layout; `.focus`: the same but for the focus; `.layout` events are
  /// expected to change it at least once in a journal of each kind.
  func expectMapChanges(_ records: [Record], _ name: String) {
    var state = State()
    var before = MapLayout(state: state)
    var changedLayout = false
    for record in records {
      reduce(into: &state, record)
      let after = MapLayout(state: state)
      switch record.event.mapChange {
      case .nothing:
        #expect(after == before, "\(name): seq \(record.seq) (\(record.event.typeName)) changed the map")
      case .focus:
        #expect(
          after.root == before.root && after.placements == before.placements && after.detached == before.detached
            && after.collisions == before.collisions,
          "\(name): seq \(record.seq) (\(record.event.typeName)) changed more than the focus")
      case .layout:
        changedLayout = changedLayout || after != before
      }
      before = after
    }
    #expect(changedLayout, "\(name): no event changed the layout")
  }
}
