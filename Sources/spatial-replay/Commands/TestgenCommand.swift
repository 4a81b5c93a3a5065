import Journal
import Projection
import Rendering
import SpatialTesting

/// `testgen SCRIPT -o DIR`: a Swift Testing (or XCTest) file that runs a scenario script and
/// asserts the lifecycle the intended model records for it.
struct TestgenCommand: Command {
  static let name = "testgen"
  static let abstract = "Write a regression test (Swift Testing or XCTest) of a scenario script"
  static let usage = ["spatial-replay testgen [options] SCRIPT -o DIR"]
  static let discussion = """
    Records SCRIPT on the intended model and writes into DIR a test that runs
    the script on a runner and asserts, per controller, the lifecycle (its
    callbacks and dealloc) the intended model recorded, and that 'check' finds
    nothing in the recording. The test uses the product SpatialTesting of this
    package: by default the reference runner of the intended model, or the
    legacy model when the environment has SPATIAL_TESTING_RUNNER=legacy (so CI
    can show the test failing on the bug); an app passes its own runner.

    Tolerance, per controller: 'exact' (the recorded callbacks are exactly
    these) or 'subsequence' (these appear in order, others may come between).
    The default (auto) is exact for the controllers that the legacy model's
    findings on the script name (those of --rule, when given) and subsequence
    for the others; a script without legacy findings gets exact everywhere.
    --tolerance MODE sets every controller, --tolerance ID=MODE one of them.

    The files are deterministic, lint-clean under 'swift format lint
    --strict', named after the test: NAMETests.swift (Swift Testing) and
    NAMEXCTests.swift (XCTest). Their paths are printed, one a line; how the
    test fares on the legacy model is said on standard error.
    """
  /// `--framework`'s words.
  enum FrameworkChoice: String, CaseIterable {
    case swiftTesting = "swift-testing"
    case xctest, both
  }
  static let framework = Option.value(
    "--framework", "F", "swift-testing (default), xctest, or both", values: .cases(FrameworkChoice.self))
  static let testName = Option.value(
    "--name", "NAME", "the test's name, an identifier (default: from SCRIPT's name,\nmodal-leak.scenario → modalLeak)")
  static let nonExhaustive = Option.list(
    "--non-exhaustive", "ID",
    "assert only these controllers (comma-separated); others\nand their findings are not checked")
  static let tolerance = Option.list(
    "--tolerance", "MODE", "auto (default), exact or subsequence for every controller,\nor ID=MODE for one")
  static let rule = Option.list(
    "--rule", "RULE",
    "the finding the test is about: its controllers are exact\nunder auto (default: every legacy finding)")
  static let options = [
    Option.output.help("the folder to write the test files into (created if missing)"), framework,
    testName, nonExhaustive, tolerance, rule,
  ]
  static let exitStatus = """
    0 written, 2 script error, unreadable script or unwritable output, 64
    usage error (a journal given instead of a script, an unknown controller
    or rule included).
    """
  static let examples = [
    "spatial-replay testgen modal-leak.scenario -o Tests/AppTests",
    "spatial-replay testgen bug.scenario -o Tests/AppTests --framework both --name notesModalLeak",
    "spatial-replay testgen bug.scenario -o out --non-exhaustive m,home --tolerance subsequence,m=exact",
    "SPATIAL_TESTING_RUNNER=legacy swift test   # in the package of the test: it fails on the bug",
  ]

  let script: String
  let directory: String
  let frameworks: [RegressionTestSource.Framework]
  let name: String?
  let named: [ControllerID]
  let defaultMode: RegressionTestSource.Expectation.Mode?
  let modes: [(id: ControllerID, mode: RegressionTestSource.Expectation.Mode)]
  let rules: [Rule]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1 else {
      throw UsageError(arguments.positionals.isEmpty ? "testgen needs a SCRIPT" : "testgen takes one SCRIPT")
    }
    script = arguments.positionals[0]
    guard let directory = arguments.value(Option.output), directory != "-" else {
      throw UsageError("testgen needs -o DIR, the folder to write the test files into")
    }
    self.directory = directory
    switch arguments.choice(Self.framework, as: FrameworkChoice.self) ?? .swiftTesting {
    case .swiftTesting: frameworks = [.swiftTesting]
    case .xctest: frameworks = [.xctest]
    case .both: frameworks = [.swiftTesting, .xctest]
    }
    name = arguments.value(Self.testName)
    if let name, !RegressionTestSource.isValidName(name) {
      throw UsageError(
        "--name needs an identifier (ASCII letters, digits and _, not first a digit, no Swift keyword), "
          + "got '\(displayText(name))'")
    }
    named = arguments.values(Self.nonExhaustive).map { ControllerID($0) }
    var defaultMode: RegressionTestSource.Expectation.Mode?
    var modes: [(ControllerID, RegressionTestSource.Expectation.Mode)] = []
    for item in arguments.values(Self.tolerance) {
      let id: String?
      let word: Substring
      if let eq = item.lastIndex(of: "=") {
        id = String(item[..<eq])
        word = item[item.index(after: eq)...]
      } else {
        id = nil
        word = Substring(item)
      }
      let words = ["auto"] + RegressionTestSource.Expectation.Mode.allCases.map(\.rawValue)
      guard words.contains(String(word)), id != "", !(id != nil && word == "auto") else {
        var message = "--tolerance takes auto, exact, subsequence or ID=exact|subsequence, got '\(displayText(item))'"
        if let near = closestWord(to: String(word), in: words) { message += " (did you mean \(near)?)" }
        throw UsageError(message)
      }
      let mode = RegressionTestSource.Expectation.Mode(rawValue: String(word))
      if let id { modes.append((ControllerID(id), mode!)) } else { defaultMode = mode }
    }
    self.defaultMode = defaultMode
    self.modes = modes
    var rules: [Rule] = []
    for rule in arguments.values(Self.rule) {
      guard let known = Rule(id: rule) else {
        var message = "unknown rule '\(displayText(rule))'"
        if let near = closestWord(to: rule, in: Rule.ids) { message += " (did you mean \(near)?)" }
        throw UsageError(message)
      }
      rules.append(known)
    }
    self.rules = rules
    let inputs = InputFiles([script])
    for framework in frameworks {
      try inputs.refuse(directory + "/" + fileName(framework))
    }
  }

  /// The test's name: `--name`, else from the script's file name.
  private var testName: String { name ?? RegressionTestSource.testName(forScript: script) }

  private func fileName(_ framework: RegressionTestSource.Framework) -> String {
    RegressionTestSource.fileName(test: testName, framework)
  }

  func run(_ context: inout Context) throws -> Int32 {
    let bytes = try readInput(script)
    if bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) == UInt8(ascii: "{") {
      throw CommandFailure(
        "\(displayText(script)) is a journal (a line of JSON), not a scenario script: 'testgen' reads a script; "
          + "'spatial-replay script \(displayText(script))' writes the script of a journal's inputs",
        exitCode: ExitCode.usage)
    }
    // The script as named on the command line for its errors; its base name in the test.
    let scenario: Scenario
    do throws(ScenarioError) {
      scenario = try ScenarioParser.parse(bytes, script: script)
    } catch {
      context.stderr.write("\(error)\n")
      return ExitCode.badInput
    }
    let text = RegressionTestSource.normalizedScript(bytes)
    let scriptName =
      script == "-"
      ? "stdin.scenario" : script.lastIndex(of: "/").map { String(script[script.index(after: $0)...]) } ?? script
    let intended: SpatialRecording
    do throws(ScenarioError) {
      intended = SpatialRecording(
        records: try ReferenceRunner(profile: .intended).record(scenario), runnerName: "reference model (intended)")
    } catch {
      context.stderr.write("\(error)\n")
      return ExitCode.badInput
    }
    // The bug's model: the script on the legacy profile (which may refuse it: a leaked modal holds a slot).
    let legacyScenario = try? StrictScenario.parse(text, name: scriptName)
    let legacy = legacyScenario.flatMap { try? ReferenceRunner(profile: .legacy).record($0) }
      .map { SpatialRecording(records: $0, runnerName: "reference model (legacy)") }

    for id in named where !intended.controllers.contains(id) {
      var message = "--non-exhaustive: no controller '\(displayText(id.rawValue))' in the script"
      if let near = closestWord(to: id.rawValue, in: intended.controllers.map(\.rawValue)) {
        message += " (did you mean \(displayText(near))?)"
      }
      throw CommandFailure(message, exitCode: ExitCode.usage)
    }
    for (id, _) in modes where !intended.controllers.contains(id) {
      var message = "--tolerance: no controller '\(displayText(id.rawValue))' in the script"
      if let near = closestWord(to: id.rawValue, in: intended.controllers.map(\.rawValue)) {
        message += " (did you mean \(displayText(near))?)"
      }
      throw CommandFailure(message, exitCode: ExitCode.usage)
    }

    // auto: exact where the legacy findings (of --rule) name the controller.
    let legacyFindings = (legacy?.findings ?? []).filter { rules.isEmpty || rules.contains(.check($0.rule)) }
    let aboutFinding = Set(legacyFindings.flatMap(\.controllers))
    let asserted = (named.isEmpty ? intended.controllers : intended.controllers.filter { named.contains($0) }).map {
      id in
      let mode =
        modes.last(where: { $0.id == id })?.mode ?? defaultMode
        ?? (aboutFinding.isEmpty || aboutFinding.contains(id) ? .exact : .subsequence)
      return (id: id, mode: mode, lifecycle: intended.lifecycle(of: id))
    }
    let source = RegressionTestSource(
      script: text, scriptName: scriptName, name: testName,
      expectations: asserted.map { .init(controller: $0.id, mode: $0.mode, steps: $0.lifecycle.steps.map(\.short)) },
      exhaustive: named.isEmpty)

    try makeDirectories(directory)
    for framework in frameworks {
      let path = directory + "/" + source.fileName(framework)
      try AtomicFile.replace(path, with: Array(source.text(framework).utf8))
      context.stdout.write(path + "\n")
    }
    let expectations = asserted.map {
      $0.mode == .exact ? LifecycleExpectation.exact($0.id, $0.lifecycle) : .subsequence($0.id, $0.lifecycle)
    }
    context.stderr.write(
      legacySummary(expectations, exhaustive: source.exhaustive, legacy: legacy, legacyFindings: legacyFindings))
    return ExitCode.ok
  }

  /// How the test fares on the legacy model: the rules it fails with, or a warning that it passes.
  private func legacySummary(
    _ expectations: [LifecycleExpectation], exhaustive: Bool, legacy: SpatialRecording?, legacyFindings: [Finding]
  ) -> String {
    guard let legacy else {
      return "spatial-replay: note: the legacy model refuses the script; the test was not tried on it\n"
    }
    let failures = legacy.failures(expectations, exhaustive: exhaustive)
    var text = ""
    if failures.isEmpty {
      text += "spatial-replay: warning: the test passes on the legacy model too: it does not catch the legacy bugs\n"
    } else {
      let rules = legacy.rules.map(\.id).joined(separator: ", ")
      text += "spatial-replay: note: on the legacy model the test fails (\(failures.count) "
      text += failures.count == 1 ? "failure" : "failures"
      text += rules.isEmpty ? ")\n" : "; check finds \(rules))\n"
    }
    for rule in rules where !legacyFindings.contains(where: { .check($0.rule) == rule }) {
      text += "spatial-replay: warning: the legacy model's recording of the script shows no \(rule)\n"
    }
    return text
  }
}

/// The embedded script parsed as the generated test parses it.
private enum StrictScenario {
  static func parse(_ text: String, name: String) throws(ScenarioError) -> Scenario {
    try SpatialTest.scenario(text, name: name)
  }
}
