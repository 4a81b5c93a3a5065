import Journal
import Projection
import Rendering
import SpatialTesting
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The library product SpatialTesting: the reference runner, the environment, the tolerances
/// and the failure messages.
@Suite struct SpatialTestingTests {
  /// A modal presented from home and dismissed: on the legacy model it leaks.
  static let modalLeak = """
    controller home Home
    root home
    modal m M up animated=false
    move down animated=false
    """

  /// Three controllers; `side` is never shown.
  static let three = """
    controller home Home
    controller notes Notes
    controller side Side
    root home
    link home left notes
    link home right side
    move left animated=false
    """

  static func recording(_ script: String, _ profile: Profile = .intended) throws -> SpatialRecording {
    let scenario = try SpatialTest.scenario(script, name: "t.scenario")
    return SpatialRecording(
      records: try ReferenceRunner(profile: profile).record(scenario), runnerName: "reference model (\(profile))")
  }

  @Test(arguments: ["cycle", "demo", "gotoroot", "notes"], Profile.allCases)
  func theReferenceRunnerReproducesRecord(_ name: String, _ profile: Profile) async throws {
    let script = Repository.journals + "/\(name).scenario"
    let bytes = try #require(TemporaryFiles.read(script))
    let journal = try #require(TemporaryFiles.read(Repository.journals + "/\(name).\(profile).ndjson"))
    let scenario = try ScenarioParser.parse(bytes, script: script)
    let records = try await ReferenceRunner(profile: profile).run(scenario)
    #expect(Record.journal(records) == journal)
    // Through SpatialTest too: the script as text, named as the file.
    let recording = try await SpatialTest.run(
      String(decoding: bytes, as: UTF8.self), name: "\(name).scenario", runner: ReferenceRunner(profile: profile))
    #expect(Record.journal(recording.records) == journal)
    #expect(recording.runnerName == "reference model (\(profile))")
  }

  @Test func theEnvironmentChoosesTheProfile() throws {
    #expect(try ReferenceRunner.fromEnvironment(nil).profile == .intended)
    #expect(try ReferenceRunner.fromEnvironment("").profile == .intended)
    #expect(try ReferenceRunner.fromEnvironment("intended").profile == .intended)
    #expect(try ReferenceRunner.fromEnvironment("legacy").profile == .legacy)
    #expect(
      throws: SpatialTestingError(
        "SPATIAL_TESTING_RUNNER=Legacy is not a runner: expected intended (the default) or legacy")
    ) {
      try ReferenceRunner.fromEnvironment("Legacy")
    }
    // The default reads the process's environment.
    setenv("SPATIAL_TESTING_RUNNER", "legacy", 1)
    defer { unsetenv("SPATIAL_TESTING_RUNNER") }
    #expect(ReferenceRunner.environmentValue() == "legacy")
  }

  @Test func aScriptErrorNamesItsLine() async throws {
    let error = ScenarioError(
      script: "bad.scenario", line: 2, reason: .refused(.unknownController("hme", suggestion: "home")))
    await #expect(throws: error) {
      _ = try await SpatialTest.run("controller home Home\nroot hme\n", name: "bad.scenario", runner: ReferenceRunner())
    }
    #expect(error.description == "bad.scenario:2: unknown controller 'hme' (did you mean 'home'?)")
  }

  @Test func lifecyclesReadShortAndFullNames() {
    let short: Lifecycle = "L W+ D+ W- D- dealloc"
    let full: Lifecycle = "didLoad willAppear didAppear willDisappear didDisappear dealloc"
    let array: Lifecycle = [.didLoad, .willAppear, .didAppear, .willDisappear, .didDisappear, .dealloc]
    #expect(short == full && full == array)
    #expect(short.description == "L W+ D+ W- D- dealloc")
    #expect(Lifecycle("L W* D+").invalidToken == "W*")
    #expect(Lifecycle("").steps.isEmpty)
  }

  @Test func exactPassesOnTheSameLifeAndNamesTheFirstDifference() throws {
    let recording = try Self.recording(Self.modalLeak)
    #expect(recording.lifecycle(of: "m") == "L W+ D+ W- D- dealloc")
    #expect(recording.failures(.exact("home", "L W+ D+ W- D- W+ D+"), .exact("m", "L W+ D+ W- D- dealloc")).isEmpty)
    let failures = recording.failures(
      .exact("home", "L W+ D+ W- D- W+ D+"), .exact("m", "L W+ D+ W- W+ D- dealloc"))
    #expect(failures.count == 1)
    #expect(failures.first?.kind == .lifecycle)
    #expect(failures.first?.controller == "m")
    #expect(
      failures.first?.description == """
        controller 'm': event 5 differs (exact): expected willAppear, recorded didDisappear
               expected        recorded
            1  didLoad         didLoad
            2  willAppear      willAppear
            3  didAppear       didAppear
            4  willDisappear   willDisappear
          → 5  willAppear      didDisappear
            6  didDisappear    dealloc
            7  dealloc         —
          recorded by: reference model (intended); check finds nothing
        """)
    // A missing last step is a difference too.
    let short = recording.failures(.exact("home", "L W+ D+ W- D- W+ D+"), .exact("m", "L W+ D+ W- D-"))
    #expect(
      short.first?.message.hasPrefix("controller 'm': event 6 differs (exact): expected nothing, recorded dealloc\n")
        == true)
  }

  @Test func subsequenceAllowsOtherStepsBetween() throws {
    let recording = try Self.recording(Self.modalLeak)
    #expect(recording.failures(.subsequence("home", "L D+ D+"), .subsequence("m", "W+ dealloc")).isEmpty)
    let failures = recording.failures(.subsequence("home", "L D+ D+"), .subsequence("m", "D+ W+ dealloc"))
    #expect(failures.count == 1)
    #expect(
      failures.first?.description == """
        controller 'm': expected event 2 (willAppear) was not recorded after recorded event 3 (subsequence)
               expected     recorded
            1               didLoad
            2               willAppear
            3  didAppear    didAppear
            4               willDisappear
            5               didDisappear
            6               dealloc
          →    willAppear   —
               dealloc      —
          recorded by: reference model (intended); check finds nothing
        """)
  }

  @Test func oneOfPassesOnAnyAllowedOrderAndShowsTheClosest() throws {
    let recording = try Self.recording(Self.modalLeak)
    let allowed: [Lifecycle] = ["L W+ D+ W- D- W+ D+", "L W+ D+ W- D- dealloc"]
    #expect(recording.failures(exhaustive: false, .oneOf("m", allowed)).isEmpty)
    let failures = recording.failures(exhaustive: false, .oneOf("m", ["L W+ D+", "L W+ D+ W- D- W+"]))
    #expect(failures.count == 1)
    #expect(
      failures.first?.description == """
        controller 'm': matches none of the 2 allowed lifecycles (one of); the closest event 6 differs: \
        expected willAppear, recorded dealloc
          allowed 1: didLoad, willAppear, didAppear
          allowed 2: didLoad, willAppear, didAppear, willDisappear, didDisappear, willAppear
               expected        recorded
            1  didLoad         didLoad
            2  willAppear      willAppear
            3  didAppear       didAppear
            4  willDisappear   willDisappear
            5  didDisappear    didDisappear
          → 6  willAppear      dealloc
          recorded by: reference model (intended); check finds nothing
        """)
  }

  @Test func aWordThatIsNoStepIsAFailureNotACrash() throws {
    let recording = try Self.recording(Self.modalLeak)
    let failures = recording.failures(exhaustive: false, .exact("m", "L W+ D+ W* D-"))
    #expect(failures.map(\.kind) == [.invalidExpectation])
    #expect(failures.first?.description.contains("'W*' is not a lifecycle step") == true)
  }

  @Test func exhaustiveNamesEveryControllerNonExhaustiveOnlyThoseNamed() throws {
    let recording = try Self.recording(Self.three)
    #expect(recording.controllers == ["home", "notes", "side"])
    #expect(recording.lifecycle(of: "side") == "L")
    let exhaustive = recording.failures(.exact("home", "L W+ D+ W- D-"), .exact("notes", "L W+ D+"))
    #expect(exhaustive.map(\.kind) == [.unexpectedController])
    #expect(
      exhaustive.first?.description == """
        controller 'side' was recorded but no expectation names it (exhaustive: name it, or check only the \
        controllers named with exhaustive: false)
          recorded: didLoad
          recorded by: reference model (intended); check finds nothing
        """)
    #expect(recording.failures(exhaustive: false, .exact("notes", "L W+ D+")).isEmpty)
    // A controller never recorded has an empty life.
    #expect(recording.failures(exhaustive: false, .exact("ghost", "")).isEmpty)
    #expect(recording.failures(exhaustive: false, .exact("ghost", "L")).count == 1)
  }

  @Test func theLegacyModelFailsNamingTheRule() throws {
    let recording = try Self.recording(Self.modalLeak, .legacy)
    #expect(recording.rules == [.incompleteTransition, .appearBeforeLoad, .modalLeak])
    let failures = recording.failures(.exact("home", "L W+ D+ W- D- W+ D+"), .exact("m", "L W+ D+ W- D- dealloc"))
    #expect(failures.map(\.kind) == [.lifecycle, .lifecycle, .findings])
    let leak = try #require(failures.first { $0.controller == "m" })
    #expect(leak.rules == [.modalLeak])
    #expect(
      leak.description == """
        modal-leak: controller 'm': event 6 differs (exact): expected dealloc, recorded nothing
               expected        recorded
            1  didLoad         didLoad
            2  willAppear      willAppear
            3  didAppear       didAppear
            4  willDisappear   willDisappear
            5  didDisappear    didDisappear
          → 6  dealloc         —
          recorded by: reference model (legacy); check finds incomplete-transition 1, appear-before-load 1, modal-leak 1
          line 17: modal m (presented by home) still linked and alive after home didAppear (in move at seq 12: m → home) [modal-leak]
        """)
    #expect(
      failures.last?.description.hasPrefix(
        "incomplete-transition, appear-before-load, modal-leak: the recording has 3 findings of check") == true)
    // Without asserting findings, the lifecycles alone still fail.
    #expect(
      recording.failures(expectsNoFindings: false, .exact("m", "L W+ D+ W- D- dealloc"), .exact("home", "")).count == 2)
  }

  @Test func nonExhaustiveCountsOnlyTheFindingsAboutTheControllersNamed() throws {
    // Legacy: root fires nothing (home's findings), side is only ever linked.
    let recording = try Self.recording(Self.three, .legacy)
    let all = recording.findings.count
    #expect(all > 0)
    let failures = recording.failures(exhaustive: false, .subsequence("notes", "L"))
    let findings = failures.filter { $0.kind == .findings }
    let aboutNotes = recording.findings.filter { $0.controllers.isEmpty || $0.controllers.contains("notes") }
    #expect(findings.count == (aboutNotes.isEmpty ? 0 : 1))
    if let finding = findings.first {
      #expect(finding.description.contains("the recording has \(aboutNotes.count) finding"))
    }
  }
}
