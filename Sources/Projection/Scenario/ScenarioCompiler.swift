import Journal

/// Runs a parsed scenario on a ``Navigator``: the journal `record` writes.
///
/// ```swift
/// let bytes = Array(text.utf8)
/// let navigator = try ScenarioCompiler.record(bytes, script: "Journals/demo.scenario", profile: .intended)
/// let journal = navigator.journal  // byte-identical for the same script and profile
/// ```
public enum ScenarioCompiler {
  /// Parses and runs a script.
  ///
  /// - Parameters:
  ///   - bytes: the script's bytes.
  ///   - script: the script as named on the command line (error prefix, scenario name).
  ///   - profile: the behaviour to record.
  ///   - keepsStates: keep the navigator's state after each record (tests).
  /// - Returns: the navigator after the last command, its ``Navigator/records`` the journal.
  /// - Throws: ``ScenarioError`` for the first bad line, a parse error or a command the navigator refused.
  public static func record(
    _ bytes: [UInt8], script: String, profile: Profile, keepsStates: Bool = false
  ) throws(ScenarioError) -> Navigator {
    let scenario = try ScenarioParser.parse(bytes, script: script)
    return try run(scenario, profile: profile, keepsStates: keepsStates)
  }

  /// Runs a parsed scenario.
  ///
  /// - Throws: ``ScenarioError`` with the line of the first command the navigator refused.
  public static func run(_ scenario: Scenario, profile: Profile, keepsStates: Bool = false) throws(ScenarioError)
    -> Navigator
  {
    try run(scenario, profile: profile, keepsStates: keepsStates) { _ in }
  }

  /// Runs a parsed scenario, handing the navigator to `afterEach` after every
  /// command, so that a caller can take the records as they are written
  /// (`record` writes them out in batches and keeps constant memory).
  ///
  /// ```swift
  /// var batch: [Record] = []
  /// _ = try ScenarioCompiler.run(scenario, profile: .intended) { navigator in
  ///   navigator.takeRecords(into: &batch)
  /// }
  /// ```
  /// - Throws: ``ScenarioError`` with the line of the first command the navigator refused.
  public static func run(
    _ scenario: Scenario, profile: Profile, keepsStates: Bool = false, afterEach: (inout Navigator) -> Void
  ) throws(ScenarioError) -> Navigator {
    let options = scenario.session ?? SessionOptions()
    let header = SessionHeader(
      session: scenario.sessionID, app: options.app, build: options.build, device: options.device,
      profile: profile.rawValue, scenario: scenario.name)
    var navigator = Navigator(
      profile: profile, header: header, start: options.start ?? .modelEpoch, keepsStates: keepsStates)
    for line in scenario.lines {
      do throws(NavigatorError) {
        try navigator.run(line.command)
      } catch {
        throw ScenarioError(script: scenario.script, line: line.number, message: error.message)
      }
      afterEach(&navigator)
    }
    return navigator
  }
}
