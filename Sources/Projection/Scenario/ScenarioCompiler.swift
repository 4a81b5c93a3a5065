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
    var navigator = self.navigator(for: scenario, profile: profile, keepsStates: keepsStates)
    try run(scenario.lines, script: scenario.script, on: &navigator, afterEach: afterEach)
    return navigator
  }

  /// The navigator a scenario starts on, before its first command: the header names the
  /// session (``Scenario/session``, the first line's), the profile and the scenario.
  /// `scenario.lines` may be the first piece of the script only (``ScenarioParser/Pieces``).
  public static func navigator(for scenario: Scenario, profile: Profile, keepsStates: Bool = false) -> Navigator {
    let options = scenario.session ?? SessionOptions()
    let header = SessionHeader(
      session: scenario.sessionID, app: options.app, build: options.build, device: options.device,
      profile: profile.rawValue, scenario: scenario.name)
    return Navigator(profile: profile, header: header, start: options.start ?? .modelEpoch, keepsStates: keepsStates)
  }

  /// Runs `lines` of the script `script` on `navigator`, handing it to `afterEach` after every command:
  /// a script run piece by piece (``ScenarioParser/Pieces``) gives the navigator each piece in turn.
  /// - Throws: ``ScenarioError`` with the line of the first command the navigator refused.
  public static func run(
    _ lines: [Scenario.Line], script: String, on navigator: inout Navigator, afterEach: (inout Navigator) -> Void
  ) throws(ScenarioError) {
    // By index, each command read in place: a loop over the lines copied each one (retaining its
    // strings) and destroyed the copy, a twentieth of `record`'s navigator thread.
    for index in lines.indices {
      do throws(NavigatorError) {
        try navigator.run(lines[index].command)
      } catch {
        throw ScenarioError(script: script, line: lines[index].number, reason: .refused(error))
      }
      afterEach(&navigator)
    }
  }
}
