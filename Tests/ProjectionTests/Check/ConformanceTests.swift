import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// `check --model`: the recorded inputs re-run through the reference model.
@Suite struct ConformanceTests {
  /// Records with lines numbered from 1, as if each were one line of a file.
  static func numbered(_ records: [Record]) -> [(record: Record, line: Int)] {
    records.enumerated().map { ($1, $0 + 1) }
  }

  static func conform(_ records: [(record: Record, line: Int)], _ profile: Profile) -> [ModelDivergence] {
    var conformance = Conformance(profile: profile)
    var divergences: [ModelDivergence] = []
    for (record, line) in records { conformance.feed(record, line: line, into: &divergences) }
    conformance.finish(into: &divergences)
    return divergences
  }

  /// `LINE message` for each divergence.
  static func summary(_ divergences: [ModelDivergence]) -> [String] {
    divergences.map { "\($0.finding.line) \($0.finding.message)" }
  }

  @Test(arguments: CheckJournals.paths(.intended))
  func intendedRecordingsConformToTheIntendedModel(_ path: String) throws {
    let found = Self.summary(Self.conform(try CheckJournals.records(path), .intended))
    #expect(found == [])
  }

  @Test(arguments: CheckJournals.paths(.legacy))
  func legacyRecordingsConformToTheLegacyModelOnly(_ path: String) throws {
    let records = try CheckJournals.records(path)
    #expect(Self.summary(Self.conform(records, .legacy)) == [])
    let divergences = Self.conform(records, .intended)
    #expect(!divergences.isEmpty)
    // L1: the first divergence is the root's missing didLoad, willAppear and didAppear.
    let first = try #require(divergences.first)
    #expect(first.found.isEmpty)
    #expect(first.expected.map(\.event.typeName) == ["lifecycle", "lifecycle", "lifecycle"])
    #expect(first.finding.rule == .modelDivergence)
    #expect(first.finding.severity == .error)
  }

  @Test func aMissingDidAppearIsReportedWhereItWasExpected() throws {
    let path = try #require(CheckJournals.paths(.intended).first { $0.hasSuffix("/notes.intended.ndjson") })
    var records = try CheckJournals.records(path)
    // The didAppear of the first move.
    let firstMove = try #require(records.firstIndex { if case .move = $0.record.event { true } else { false } })
    let removed = try #require(
      records[firstMove...].firstIndex {
        if case .lifecycle(_, .didAppear) = $0.record.event { true } else { false }
      })
    let didAppear = records[removed].record
    let removedLine = records[removed].line
    records.remove(at: removed)
    // The lines after it move up by one, as in the edited file.
    for k in removed..<records.count { records[k].line -= 1 }
    let divergences = Self.conform(records, .intended)
    let first = try #require(divergences.first)
    #expect(first.finding.line == removedLine)
    #expect(first.expected.map(\.event) == [didAppear.event])
    #expect(first.found == [])
    #expect(first.following?.line == removedLine)
    #expect(first.context.count == Conformance.contextLength)
    #expect(first.context.last?.line == removedLine - 1)
    guard case .lifecycle(let id, _) = didAppear.event else { return }
    #expect(first.finding.message.hasPrefix("missing \(id) didAppear (expected here by the intended model)"))
    #expect(first.finding.controllers == [id])
    // Without the didAppear, the intended model's cleanup and later moves still agree:
    // this is the only divergence.
    #expect(divergences.count == 1, "\(Self.summary(divergences))")
  }

  @Test func laterDivergencesAreReportedToo() throws {
    let script = """
      controller home HomeViewController
      controller notes NotesViewController
      root home
      link home left notes
      move left animated=false
      move right animated=false
      move left animated=false

      """
    var records = try checkRecording(script, .intended)
    // Lines: 1 header, 2-3 alloc, 4-7 root, 8-9 link, 10-14 move, 15-19 move, 20-24 move.
    // Swap the first move's willDisappear and willAppear, and drop the last move's didDisappear.
    records.swapAt(10, 11)
    records.remove(at: 22)
    let found = Self.summary(Self.conform(Self.numbered(records), .intended))
    #expect(
      found == [
        "11 missing home willDisappear (expected here by the intended model) (in move at seq 9: home → notes)",
        "12 unexpected home willDisappear (not in the intended model) (in move at seq 9: home → notes)",
        "23 missing home didDisappear (expected here by the intended model) (in move at seq 19: home → notes)",
      ])
  }

  @Test func theDiffShowsContextExpectedAndFound() throws {
    let script = "controller home H\ncontroller notes N\nroot home\nlink home left notes\nmove left\n"
    let records = try checkRecording(script, .legacy)
    let divergences = Self.conform(Self.numbered(records), .intended)
    let last = try #require(divergences.last)
    #expect(
      last.finding.formatted(file: "j.ndjson")
        == "j.ndjson:11: error: intended model expects notes didAppear; found notes willAppear"
        + " (in move at seq 6: home → notes) [model-divergence]")
    var text = ""
    last.render(into: &text)
    #expect(
      text == """
             8 = home willDisappear
             9 = notes willAppear
            10 = home didDisappear
               - notes didAppear
            11 + notes willAppear

        """)
    #expect(last.finding.move == 6)
    #expect(last.finding.seq == 10)
    let json = CheckFinding.divergence(last).json(file: "j.ndjson")
    #expect(json.hasPrefix(#"{"file":"j.ndjson","line":11,"seq":10,"severity":"error","rule":"model-divergence","#))
    #expect(json.contains(#""expected":[{"seq":"#))
    #expect(json.contains(#""found":[{"line":11,"record":{"seq":10,"#))
    #expect(json.hasSuffix("}"))
  }

  /// `home` allocated, made the root and shown.
  static func homeShown() -> RecordBuilder {
    var b = RecordBuilder()
    b.alloc("home")
    b.root("home")
    b.callback("home", .didLoad)
    b.callback("home", .willAppear)
    b.callback("home", .didAppear)
    return b
  }

  @Test func aRefusedInputIsReported() throws {
    var b = Self.homeShown()
    b.add(.dealloc(controller: "home"))
    let found = Self.summary(Self.conform(Self.numbered(b.records), .intended))
    #expect(
      found == [
        "7 intended model refuses dealloc home: cannot deallocate 'home': it is the root (in initial display at seq 2: home)"
      ])
    // The finding is the fact; the refusal's words are rendered from it.
    let divergence = try #require(Self.conform(Self.numbered(b.records), .intended).first)
    let refusal = Finding.Refusal.navigator(.deallocForbidden("home", .root))
    #expect(divergence.finding.fact == .modelRefuses(.intended, .dealloc(controller: "home"), refusal))
    #expect(divergence.refusal == "cannot deallocate 'home': it is the root")
  }

  /// An id the model does not know is named without a "did you mean" (a journal's ids are not
  /// typed), though an alive id one edit away would be a script's suggestion.
  @Test func anUnknownIDIsRefusedWithoutASuggestion() throws {
    var b = Self.homeShown()
    b.add(.dealloc(controller: "homf"))
    let divergence = try #require(Self.conform(Self.numbered(b.records), .intended).first)
    #expect(divergence.refusal == "unknown controller 'homf'")
    // The same input in a script names the closest alive id.
    var navigator = Navigator(profile: .intended, header: SessionHeader(session: "S"))
    try navigator.controller("home", className: "Home")
    #expect(throws: NavigatorError.unknownController("homf", suggestion: "home")) { try navigator.dealloc("homf") }
  }

  @Test func snapBackAndCommittedFollowTheRecordingButRefusedIsPredicted() throws {
    let script = """
      controller home HomeViewController
      controller notes NotesViewController
      root home
      link home left notes
      threshold notes 100
      pan left distance=80
      threshold notes 10
      pan left distance=20
      pan right distance=20 touches=3
      touches notes right 2
      pan right distance=200 touches=1

      """
    // The thresholds are not journaled: the model takes the recorded outcomes as given.
    #expect(Self.summary(Self.conform(Self.numbered(try checkRecording(script, .intended)), .intended)) == [])
    // Legacy commits the one-finger pan (L5): the intended model refuses it.
    let legacy = Self.conform(Self.numbered(try checkRecording(script, .legacy)), .intended)
    let refused = try #require(
      legacy.first { $0.expected.contains { if case .pan = $0.event { true } else { false } } })
    let expected = try #require(refused.expected.first).event
    #expect(
      expected
        == .pan(Pan(controller: "notes", direction: .right, touches: 1, distance: 200, velocity: 0, outcome: .refused)))
    let recorded = try #require(refused.found.first).record.event
    #expect(
      recorded
        == .pan(
          Pan(controller: "notes", direction: .right, touches: 1, distance: 200, velocity: 0, outcome: .committed)))
  }

  @Test func randomScenariosConformToTheirOwnProfile() {
    for seed in checkSeeds {
      for profile in Profile.allCases {
        let nav = checkRandomNavigator(seed: seed, profile: profile)
        let found = Self.summary(Conformance.check(nav.records, profile: profile))
        #expect(found.isEmpty, "seed \(seed) \(profile): \(found.prefix(3))")
      }
    }
  }

  @Test func randomLegacyScenariosDivergeFromTheIntendedModel() {
    for seed in checkSeeds {
      let nav = checkRandomNavigator(seed: seed, profile: .legacy)
      #expect(!Conformance.check(nav.records, profile: .intended).isEmpty, "seed \(seed)")
    }
  }
}
