import Journal
import Projection

/// Runs a scenario script on a runner, for a test: the entry point of the generated tests.
///
/// ```swift
/// @Test func modalLeak() async throws {
///   try await SpatialTest.expect(
///     "controller home Home\nroot home\n", name: "t.scenario",
///     .exact("home", "L W+ D+")
///   ) { Issue.record("\($0)") }
/// }
/// ```
///
/// or, to look at the recording too:
///
/// ```swift
/// let recording = try await SpatialTest.run(script, name: "t.scenario")
/// for failure in recording.failures(.exact("home", "L W+ D+")) { XCTFail("\(failure)") }
/// ```
public enum SpatialTest {
  /// Runs `script` on `runner` and hands each way the recording differs from `expectations` to
  /// `report` (`Issue.record`, `XCTFail`): ``run(_:name:runner:)`` then
  /// ``SpatialRecording/failures(_:exhaustive:expectsNoFindings:)``.
  ///
  /// - Parameters:
  ///   - exhaustive: every controller recorded must be named (true), or only those named are checked.
  ///   - expectations: one per controller, each with its tolerance.
  ///   - report: called once per failure, in order.
  /// - Returns: the recording.
  /// - Throws: as ``run(_:name:runner:)``.
  @discardableResult
  public static func expect(
    _ script: String, name: String = "test.scenario", runner: (any ScenarioRunner)? = nil, exhaustive: Bool = true,
    _ expectations: LifecycleExpectation..., report: (LifecycleFailure) -> Void
  ) async throws -> SpatialRecording {
    let recording = try await run(script, name: name, runner: runner)
    for failure in recording.failures(expectations, exhaustive: exhaustive) { report(failure) }
    return recording
  }

  /// Parses `script` and runs it on `runner`: by default the reference runner that
  /// `SPATIAL_TESTING_RUNNER` chooses (``ReferenceRunner/fromEnvironment(_:)``: intended, or
  /// legacy).
  ///
  /// - Parameters:
  ///   - script: the scenario script; a script not ending in a line feed is read as if it did,
  ///     as a script file is (the header's derived session id is then `record`'s).
  ///   - name: the script's file name: the prefix of its errors and the header's `scenario`.
  ///   - runner: the map it runs on.
  /// - Throws: ``ScenarioError`` for a line that does not parse or that the model refused,
  ///   ``SpatialTestingError`` for a bad `SPATIAL_TESTING_RUNNER`, or the runner's error.
  public static func run(_ script: String, name: String = "test.scenario", runner: (any ScenarioRunner)? = nil)
    async throws -> SpatialRecording
  {
    let runner = try runner ?? ReferenceRunner.fromEnvironment()
    let scenario = try scenario(script, name: name)
    return SpatialRecording(records: try await runner.run(scenario), runnerName: runner.name)
  }

  /// The parsed script (a line feed added at its end when it has none).
  ///
  /// - Throws: ``ScenarioError`` for the first line that does not parse.
  public static func scenario(_ script: String, name: String = "test.scenario") throws(ScenarioError) -> Scenario {
    var bytes = Array(script.utf8)
    if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    return try ScenarioParser.parse(bytes, script: name)
  }
}
