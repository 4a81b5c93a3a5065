import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a scenario script's inputs on a spatial map and returns what the map journaled.
///
/// An app implements it over its own map: it creates its real controllers for the script's
/// `controller` commands, links them, sets the root, moves and pans, presents modals, releases
/// controllers, while the app's ``Recorder`` records, and hands back the records of that run,
/// the header first. The lifecycle callbacks are the map's own: the runner performs the inputs
/// (``Scenario/lines``, each a ``ScenarioCommand``), never the callbacks. docs/regression-tests.md
/// has a UIKit sketch.
///
/// ```swift
/// struct MyRunner: ScenarioRunner {
///   var name: String { "MyApp map" }
///   func run(_ scenario: Scenario) async throws -> [Record] {
///     // perform each scenario.lines[i].command on the app's map, then read the journal back
///   }
/// }
/// let recording = try await SpatialTest.run(script, runner: MyRunner())
/// ```
public protocol ScenarioRunner: Sendable {
  /// What the runner is, for failure messages: `reference model (intended)`, `MyApp map`.
  var name: String { get }
  /// Performs the scenario's commands in order and returns the records journaled, the header first.
  ///
  /// - Throws: when a command cannot be performed (the failure ends the test).
  func run(_ scenario: Scenario) async throws -> [Record]
}

/// The reference model as a runner: the navigator `record` runs, under one profile. Its records
/// are the journal `spatial-replay record --profile P` writes for the same script.
///
/// ```swift
/// let runner = try ReferenceRunner.fromEnvironment()  // intended, or legacy with SPATIAL_TESTING_RUNNER=legacy
/// let records = try await runner.run(scenario)
/// ```
public struct ReferenceRunner: ScenarioRunner {
  /// The behaviour reproduced.
  public var profile: Profile

  public init(profile: Profile = .intended) {
    self.profile = profile
  }

  public var name: String { "reference model (\(profile))" }

  /// The scenario's journal on the model.
  ///
  /// - Throws: ``ScenarioError`` with the line of the first command the model refused.
  public func run(_ scenario: Scenario) async throws -> [Record] {
    try record(scenario)
  }

  /// The scenario's journal on the model, without `await`.
  ///
  /// - Throws: ``ScenarioError`` with the line of the first command the model refused.
  public func record(_ scenario: Scenario) throws(ScenarioError) -> [Record] {
    var navigator = try ScenarioCompiler.run(scenario, profile: profile)
    return navigator.takeRecords()
  }

  /// The environment variable that chooses the profile of ``fromEnvironment(_:)``.
  public static let environmentVariable = "SPATIAL_TESTING_RUNNER"

  /// The reference runner the environment asks for: `SPATIAL_TESTING_RUNNER` unset, empty or
  /// `intended` is the intended model, `legacy` the legacy one (so that CI can show a test
  /// failing on the bug).
  ///
  /// - Parameter value: the variable's value (default: read from the process's environment).
  /// - Throws: ``SpatialTestingError`` for any other value.
  public static func fromEnvironment(_ value: String? = environmentValue()) throws(SpatialTestingError)
    -> ReferenceRunner
  {
    guard let value, !value.isEmpty else { return ReferenceRunner() }
    guard let profile = Profile(rawValue: value) else {
      throw SpatialTestingError(
        "\(environmentVariable)=\(value) is not a runner: expected intended (the default) or legacy")
    }
    return ReferenceRunner(profile: profile)
  }

  /// `SPATIAL_TESTING_RUNNER` in this process's environment, or nil when unset.
  public static func environmentValue() -> String? {
    guard let value = getenv(environmentVariable) else { return nil }
    return String(cString: value)
  }
}

/// A test that cannot run: a bad environment, a script that does not parse or that the runner refused.
public struct SpatialTestingError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
