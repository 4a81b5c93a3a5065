import Journal
import Projection
import Stepper
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

  /// The journal under `profile`, checked (the stepper renders its findings with its glyphs).
  static func journal(_ profile: Profile) -> StepperJournal {
    StepperJournal(name: "steps.\(profile).ndjson", records: records(profile))
  }

  static func stepper(_ profile: Profile, ascii: Bool = false) -> Stepper {
    let glyphs = Glyphs(ascii: ascii)
    return Stepper(journal: journal(profile), options: .init(glyphs: glyphs))
  }

  /// Intended (A) against legacy (B), side by side.
  static func comparison(ascii: Bool = false) -> Stepper {
    let glyphs = Glyphs(ascii: ascii)
    return Stepper(
      comparison: StepperComparison(journal(.intended), journal(.legacy)),
      options: .init(glyphs: glyphs))
  }

  /// The journal as NDJSON text.
  static func text(_ profile: Profile) -> String {
    String(decoding: Record.journal(records(profile)), as: UTF8.self)
  }
}

/// Presses keys named as a script names them, and keeps the frames.
struct StepDriver {
  let stepper: Stepper
  var size: (width: Int, height: Int)
  var state: StepperState
  /// `--- frame N (KEY) ---` and the lines of each frame, as `step` prints them.
  private(set) var transcript = ""
  private var frame = 0

  init(_ stepper: Stepper, size: (width: Int, height: Int) = (80, 24)) {
    self.stepper = stepper
    self.size = size
    state = stepper.start()
    show("start")
  }

  /// Presses the keys of each space-separated token and records a frame after each token.
  mutating func press(_ tokens: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for token in tokens.split(separator: " ") {
      guard let keys = StepperKey.sequence(named: String(token)) else {
        Issue.record("no key named \(token)", sourceLocation: sourceLocation)
        return
      }
      for key in keys { state = stepper.handle(key, in: state) }
      if state.quit { return }
      show(String(token))
    }
  }

  /// Presses keys without recording frames.
  mutating func type(_ keys: [StepperKey]) {
    for key in keys { state = stepper.handle(key, in: state) }
  }

  /// The current screen.
  var screen: [String] { stepper.render(state, size: size) }

  private mutating func show(_ label: String) {
    transcript += "--- frame \(frame) (\(label)) ---\n"
    for line in stepper.render(state, size: size) { transcript += line + "\n" }
    frame += 1
  }
}

extension StepperJournal {
  /// The seqs of the records, by index.
  var seqs: [Int] { records.map(\.seq) }
}
