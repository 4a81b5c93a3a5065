import Journal
import Projection
import Rendering
import Stepper
import Testing

@testable import TestSupport

extension StepFixture {
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
