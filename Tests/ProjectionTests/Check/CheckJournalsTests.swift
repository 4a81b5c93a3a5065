import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// How many random scenarios to run: `SPATIAL_REPLAY_SEEDS=N` runs seeds 1...N (default 12, the CI set).
let checkSeeds: [UInt64] = {
  if let text = getenv("SPATIAL_REPLAY_SEEDS").map({ String(cString: $0) }), let n = UInt64(text), n > 0 {
    return Array(1...n)
  }
  return Array(1...12)
}()

/// A random scenario of `steps` commands through the navigator (refused commands write nothing).
func checkRandomNavigator(seed: UInt64, profile: Profile, steps: Int = 400) -> Navigator {
  var random = RandomScenario(seed: seed)
  var nav = Navigator(profile: profile, header: SessionHeader(session: "R\(seed)", profile: profile.rawValue))
  for _ in 0..<steps { try? nav.run(random.command(nav)) }
  return nav
}

/// The checker on the bundled recordings and on seeded random scenarios.
@Suite struct CheckJournalsTests {
  @Test func thereAreBundledRecordingsOfBothProfiles() {
    #expect(CheckJournals.paths(.intended).count >= 4)
    #expect(CheckJournals.paths(.legacy).count == CheckJournals.paths(.intended).count)
  }

  @Test(arguments: CheckJournals.paths(.intended))
  func intendedRecordingsHaveNoFinding(_ path: String) throws {
    let found = checkLines(try CheckJournals.records(path))
    #expect(found.isEmpty, "\(found.prefix(5).map { $0.formatted(file: path) })")
  }

  @Test(arguments: CheckJournals.paths(.legacy))
  func everyLegacyRecordingShowsItsDeviations(_ path: String) throws {
    let records = try CheckJournals.records(path)
    let rules = checkRuleIDs(checkLines(records))
    // L1: every recording shows a root, which the legacy library never displayed.
    #expect(rules.contains("incomplete-transition"))
    // L6: an animated goToRoot of two steps or more.
    let goToRootSteps = records.filter {
      if case .move(let m) = $0.record.event { m.trigger == .goToRoot && m.animated } else { false }
    }
    if goToRootSteps.count >= 2 { #expect(rules.contains("misattributed")) }
    // L5: a committed pan with fewer touches than a `touches` event required.
    let touches = records.contains { if case .touches = $0.record.event { true } else { false } }
    if !touches { #expect(!rules.contains("touches-violated")) }
  }

  @Test func theLegacyRecordingsTogetherNameL1ToL6() throws {
    var rules: Set<String> = []
    for path in CheckJournals.paths(.legacy) {
      rules.formUnion(checkRuleIDs(checkLines(try CheckJournals.records(path))))
    }
    let deviations = [
      "L1": ["incomplete-transition", "appear-before-load"],
      "L2": ["load-repeated"],
      "L3": ["will-repeated", "incomplete-transition"],
      "L4": ["modal-leak"],
      "L5": ["touches-violated"],
      "L6": ["misattributed"],
    ]
    for (deviation, names) in deviations.sorted(by: { $0.key < $1.key }) {
      for name in names { #expect(rules.contains(name), "\(deviation) shows as \(name)") }
    }
  }

  @Test func randomIntendedScenariosHaveNoFinding() {
    for seed in checkSeeds {
      let nav = checkRandomNavigator(seed: seed, profile: .intended)
      #expect(nav.records.count > 300, "seed \(seed)")
      let found = Checker.check(nav.records)
      #expect(found.isEmpty, "seed \(seed): \(found.prefix(3).map { $0.formatted(file: "random") })")
    }
  }

  @Test func randomLegacyScenariosHaveFindings() {
    for seed in checkSeeds {
      let nav = checkRandomNavigator(seed: seed, profile: .legacy)
      let rules = checkRuleIDs(Checker.check(nav.records))
      #expect(rules.contains("incomplete-transition"), "seed \(seed): \(rules)")
    }
  }
}
