import Journal
import Projection
import Stepper
import Testing

@testable import TestSupport

/// Frames of the stepper after key sequences, compared with golden files in
/// `Golden/step/` (`SPATIAL_REPLAY_RECORD=1` writes them): the first screen,
/// stepping, jumps, searches, findings, the help, the side-by-side view, and
/// small, large and ASCII screens.
@Suite struct StepGoldenTests {
  struct Scenario: CustomTestStringConvertible, Sendable {
    var name: String
    var stepper: @Sendable () -> Stepper
    var width = 80
    var height = 24
    var keys: String
    var testDescription: String { name }
  }

  static let scenarios: [Scenario] = [
    Scenario(name: "first-screen", stepper: { StepFixture.stepper(.intended) }, keys: ""),
    Scenario(name: "stepping", stepper: { StepFixture.stepper(.intended) }, keys: "l l l l l ] ] [ PgDn PgUp G"),
    Scenario(name: "jump", stepper: { StepFixture.stepper(.intended) }, keys: ":26 :999 :abc g"),
    Scenario(
      name: "search", stepper: { StepFixture.stepper(.intended) }, keys: "/compose n N ?pan /nothing-like-this"),
    Scenario(name: "findings", stepper: { StepFixture.stepper(.legacy) }, keys: "f f f F G"),
    Scenario(name: "help", stepper: { StepFixture.stepper(.intended) }, keys: "l H Esc ?"),
    Scenario(name: "diff", stepper: { StepFixture.comparison() }, keys: "d d n N G"),
    Scenario(name: "diff-help", stepper: { StepFixture.comparison() }, keys: "H"),
    Scenario(name: "small-40x12", stepper: { StepFixture.stepper(.legacy) }, width: 40, height: 12, keys: "] ] f"),
    Scenario(name: "tiny-30x4", stepper: { StepFixture.stepper(.intended) }, width: 30, height: 4, keys: "] :3"),
    Scenario(
      name: "large-132x40", stepper: { StepFixture.stepper(.legacy) }, width: 132, height: 40, keys: "] ] ] ] ]"),
    Scenario(
      name: "diff-large-160x40", stepper: { StepFixture.comparison() }, width: 160, height: 40, keys: "d d"),
    Scenario(name: "ascii", stepper: { StepFixture.stepper(.legacy, ascii: true) }, keys: "] ] ] ]"),
  ]

  @Test(arguments: scenarios)
  func frames(_ scenario: Scenario) {
    var driver = StepDriver(scenario.stepper(), size: (scenario.width, scenario.height))
    if !scenario.keys.isEmpty { driver.press(scenario.keys) }
    GoldenFile.check(driver.transcript, "step/\(scenario.name).txt")
  }
}
