import Journal
import Projection
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The scenario scripts in `Journals/` and the journals committed beside them.
///
/// Every `NAME.scenario` is re-recorded under both profiles and compared byte for
/// byte with `NAME.intended.ndjson` and `NAME.legacy.ndjson`. After a deliberate
/// change to the model or a script, rewrite them with
/// `SPATIAL_REPLAY_RECORD=1 swift test --filter JournalsTests`.
@Suite struct JournalsTests {
  static let directory = Repository.journals

  static let scripts: [String] = directoryEntries(directory).filter { $0.hasSuffix(".scenario") }.map {
    String($0.dropLast(".scenario".count))
  }

  static var rewrite: Bool { getenv("SPATIAL_REPLAY_RECORD").map { String(cString: $0) } == "1" }

  @Test func theRequiredScenariosAreThere() {
    for name in ["demo", "notes", "cycle", "gotoroot"] { #expect(Self.scripts.contains(name), "\(name)") }
  }

  @Test func everyJournalHasItsScript() {
    let journals = directoryEntries(Self.directory).filter { $0.hasSuffix(".ndjson") }
    let expected = Self.scripts.flatMap { name in Profile.allCases.map { "\(name).\($0).ndjson" } }.sorted()
    #expect(journals == expected)
  }

  @Test(arguments: scripts)
  func reRecordingGivesTheCommittedJournals(_ name: String) throws {
    let script = try #require(TemporaryFiles.read("\(Self.directory)/\(name).scenario"))
    for profile in Profile.allCases {
      let path = "\(Self.directory)/\(name).\(profile).ndjson"
      let journal = try ScenarioCompiler.record(script, script: "Journals/\(name).scenario", profile: profile).journal
      if Self.rewrite {
        #expect(TemporaryFiles.write(journal, to: path), "cannot write \(path)")
        continue
      }
      let committed = try #require(TemporaryFiles.read(path), "missing \(path): record it with SPATIAL_REPLAY_RECORD=1")
      guard journal != committed else { continue }
      let expected = String(decoding: committed, as: UTF8.self).split(separator: "\n").map(String.init)
      let actual = String(decoding: journal, as: UTF8.self).split(separator: "\n").map(String.init)
      let diff = lineDiff(expected: expected, actual: actual)
      Issue.record("\(path) differs from a new recording (SPATIAL_REPLAY_RECORD=1 rewrites it)\n\(diff)")
    }
  }

  /// The model's own view of the bundled recordings: no anomalies, the intended ones end at rest.
  @Test(arguments: scripts)
  func theRecordingsAreHealthy(_ name: String) throws {
    let script = try #require(TemporaryFiles.read("\(Self.directory)/\(name).scenario"))
    for profile in Profile.allCases {
      let nav = try ScenarioCompiler.record(script, script: "Journals/\(name).scenario", profile: profile)
      #expect(nav.records.count >= 30 && nav.records.count <= 1000)
      var state = State()
      for record in nav.records {
        let anomalies = reduce(into: &state, record)
        #expect(anomalies.isEmpty, "\(name) \(profile) seq \(record.seq)")
      }
      #expect(state.header?.scenario == name)
      #expect(state.header?.profile == profile.rawValue)
      #expect(state.counters.moves > 5)
      #expect(state.counters.events(ofType: "mark") >= 2)
      if profile == .intended {
        #expect(state.transitionInFlight == nil)
        #expect(state.appearedCount == 1)
        #expect(state.focus == state.root)
      }
    }
  }

  /// Each bundled scenario shows the features it is there for.
  @Test func theScenariosCoverWhatTheyAreFor() throws {
    func counters(_ name: String) throws -> Counters {
      let script = try #require(TemporaryFiles.read("\(Self.directory)/\(name).scenario"))
      return try ScenarioCompiler.record(script, script: name, profile: .intended).state.counters
    }
    let demo = try counters("demo")
    #expect(demo.events(ofType: "alloc") == 17)
    #expect(demo.moves(triggeredBy: .goToRoot) == 16)
    let notes = try counters("notes")
    for outcome in PanOutcome.allCases { #expect(notes.pans(outcome) > 0, "\(outcome)") }
    #expect(notes.moves(triggeredBy: .fling) > 0)
    #expect(notes.events(ofType: "modal") >= 2 && notes.events(ofType: "touches") >= 2)
    let gotoroot = try counters("gotoroot")
    #expect(gotoroot.moves(triggeredBy: .goToRoot) >= 10)
    #expect(gotoroot.events(ofType: "dealloc") >= 2)
  }
}
