import Journal
import Projection
import Testing

/// Journals and drivers for the `step` tests.
///
/// The journals are recorded from a scenario by the reference model, so they
/// are exactly what the spec says for each profile: the intended one is clean,
/// the legacy one has findings of several rules.
enum StepFixture {
  /// A small app: inbox left of home, profile right of it, settings below the
  /// profile behind a two-finger edge; pans of several outcomes, a modal sheet
  /// presented from home and left, then goToRoot from settings.
  static let script = """
    session id=STEP-1 app=Steps start=2026-03-01T09:00:00Z
    controller home HomeViewController
    controller inbox InboxViewController
    controller profile ProfileViewController
    controller settings SettingsViewController
    root home
    link home left inbox
    link home right profile
    link profile down settings
    touches profile down 2
    mark start
    pan left distance=120 velocity=300
    wait 500
    pan right distance=30
    move right
    wait 1000
    modal compose ComposeViewController up
    wait 800
    move down
    pan right distance=120
    pan down distance=100 touches=2
    wait 300
    goToRoot
    mark done
    """

  /// The records of the scenario under `profile`.
  static func records(_ profile: Profile) -> [Record] {
    do {
      return try ScenarioCompiler.record(Array(script.utf8), script: "steps.scenario", profile: profile).records
    } catch {
      Issue.record("the fixture scenario does not compile: \(error)")
      return []
    }
  }

  /// The journal as NDJSON text.
  static func text(_ profile: Profile) -> String {
    String(decoding: Record.journal(records(profile)), as: UTF8.self)
  }
}
