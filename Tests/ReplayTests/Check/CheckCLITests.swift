import Journal
import Projection
import Testing

@testable import TestSupport

/// `spatial-replay check` with the lifecycle rules, `--rule`/`--no-rule`, `--json`
/// and `--model`, run as a process: exact output and exit status.
@Suite struct CheckCLITests {
  /// A legacy recording of one animated move (L1, L3): lines 1-11.
  static let legacyMove = "controller home H\ncontroller notes N\nroot home\nlink home left notes\nmove left\n"

  static func write(_ script: String, _ profile: Profile, in dir: TemporaryDirectory, _ name: String = "j.ndjson")
    throws -> String
  {
    let nav = try ScenarioCompiler.record(Array(script.utf8), script: "cli.scenario", profile: profile)
    return try dir.write(name, nav.journal)
  }

  @Test func lifecycleFindingsAreSortedByLineWithTheirMoveAndCountedByRule() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.write(Self.legacyMove, .legacy, in: dir)
    let result = try Binary.run(["check", path])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout == """
        \(path):7: error: missing home willAppear, home didAppear when the next move starts (in initial display at seq 3: home) [incomplete-transition]
        \(path):8: error: home: willDisappear before didLoad (in move at seq 6: home → notes) [appear-before-load]
        \(path):11: error: notes: willAppear while already appearing (in move at seq 6: home → notes) [will-repeated]
        \(path):11: error: missing notes didAppear at the end of the journal (in move at seq 6: home → notes) [incomplete-transition]
        \(path): 11 events, 4 errors, 0 warnings (appear-before-load 1, will-repeated 1, incomplete-transition 2)

        """)
    #expect(result.stderr == "")
  }

  @Test func ruleSelectsAndNoRuleRemoves() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.write(Self.legacyMove, .legacy, in: dir)
    let only = try Binary.run(["check", "--rule", "will-repeated", path])
    #expect(only.status == 1, "\(only)")
    #expect(
      only.stdout == """
        \(path):11: error: notes: willAppear while already appearing (in move at seq 6: home → notes) [will-repeated]
        \(path): 11 events, 1 error, 0 warnings (will-repeated 1)

        """)
    let without = try Binary.run([
      "check", "--no-rule", "will-repeated", "--no-rule=appear-before-load", "--no-rule", "incomplete-transition", path,
    ])
    #expect(without.status == 0, "\(without)")
    #expect(without.stdout == "\(path): 11 events, 0 errors, 0 warnings\n")
    let listed = try Binary.run(["check", "--rule", "will-repeated,appear-before-load", "--no-rule", "order", path])
    #expect(
      listed.stdout.hasSuffix("\(path): 11 events, 2 errors, 0 warnings (appear-before-load 1, will-repeated 1)\n"),
      "\(listed)")
    let both = try Binary.run([
      "check", "--rule", "will-repeated", "--rule", "appear-before-load", "--no-rule", "will-repeated", path,
    ])
    #expect(both.status == 64, "\(both)")
    #expect(both.stderr.hasPrefix("spatial-replay: error: --rule will-repeated contradicts --no-rule will-repeated\n"))
  }

  @Test func integrityRulesAreSelectedToo() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write(
      "j.ndjson",
      JournalText.lines([JournalText.header(), "", JournalText.alloc(1, "home"), JournalText.alloc(3, "x")]))
    let result = try Binary.run(["check", "--no-rule", "blank-line", path])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(path):4: error: seq jumps from 1 to 3 (1 event missing) [seq-gap]
        \(path): 3 events, 1 error, 0 warnings (seq-gap 1)

        """)
  }

  @Test func jsonFindingsCarryControllersAndMoveAndTheSummaryCountsByRule() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.write(Self.legacyMove, .legacy, in: dir)
    let result = try Binary.run(["check", "--json", "--rule", "incomplete-transition", path])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout == """
        {"file":"\(path)","line":7,"seq":6,"severity":"error","rule":"incomplete-transition","message":"missing home willAppear, home didAppear when the next move starts (in initial display at seq 3: home)","controllers":["home"],"move":3}
        {"file":"\(path)","line":11,"seq":10,"severity":"error","rule":"incomplete-transition","message":"missing notes didAppear at the end of the journal (in move at seq 6: home → notes)","controllers":["home","notes"],"move":6}
        {"summary":true,"files":[{"file":"\(path)","events":11,"errors":2,"warnings":0,"formatErrors":0,"rules":{"incomplete-transition":2},"unreported":{}}],"events":11,"errors":2,"warnings":0,"formatErrors":0,"rules":{"incomplete-transition":2},"unreported":{},"unreadable":0,"omitted":0}

        """)
  }

  @Test func aModalLeakAtADidAppearComesBeforeLaterWarnings() throws {
    // Legacy L4 without animation: home's didAppear (line 17) is not followed by the
    // modal's cleanup; a blank line (line 18) comes before the next event.
    let script = "controller home H\nroot home\nmodal m M down animated=false\nmove up animated=false\nmark done\n"
    let nav = try ScenarioCompiler.record(Array(script.utf8), script: "cli.scenario", profile: .legacy)
    var lines = String(decoding: nav.journal, as: UTF8.self).split(separator: "\n").map(String.init)
    lines.insert("", at: 17)
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines(lines))
    let result = try Binary.run(["check", "--rule", "modal-leak", "--rule", "blank-line", path])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout == """
        \(path):17: error: modal m (presented by home) still linked and alive after home didAppear (in move at seq 12: m → home) [modal-leak]
        \(path):18: warning: blank line [blank-line]
        \(path): 18 events, 1 error, 1 warning (blank-line 1, modal-leak 1)

        """)
  }

  @Test func modelDivergencesShowTheirDiff() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.write(Self.legacyMove, .legacy, in: dir)
    let result = try Binary.run(["check", "--model", "--rule", "model-divergence", path])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout == """
        \(path):5: error: missing home didLoad, home willAppear, home didAppear (expected here by the intended model) (in initial display at seq 3: home) [model-divergence]
            2 = alloc home H
            3 = alloc notes N
            4 = root home
              - home didLoad
              - home willAppear
              - home didAppear
            5   link home left notes
        \(path):11: error: intended model expects notes didAppear; found notes willAppear (in move at seq 6: home → notes) [model-divergence]
             8 = home willDisappear
             9 = notes willAppear
            10 = home didDisappear
               - notes didAppear
            11 + notes willAppear
        \(path): 11 events, 2 errors, 0 warnings (model-divergence 2)

        """)
    let legacy = try Binary.run(["check", "--model", "--profile", "legacy", "--rule", "model-divergence", path])
    #expect(legacy.status == 0, "\(legacy)")
    #expect(legacy.stdout == "\(path): 11 events, 0 errors, 0 warnings\n")
  }

  @Test func modelDivergencesInJSONCarryTheModelsAndTheRecordedEvents() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.write(Self.legacyMove, .legacy, in: dir)
    let result = try Binary.run(["check", "--json", "--model", "--rule", "model-divergence", path])
    #expect(result.status == 1, "\(result)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    let last = try #require(lines.dropLast().last)
    #expect(
      last.hasPrefix(
        #"{"file":"\#(path)","line":11,"seq":10,"severity":"error","rule":"model-divergence","message":"intended model expects notes didAppear; found notes willAppear (in move at seq 6: home → notes)","controllers":["notes"],"move":6,"expected":[{"seq":"#
      ))
    #expect(
      last.contains(
        #""type":"lifecycle","controller":"notes","callback":"didAppear"}],"found":[{"line":11,"record":{"seq":10,"#))
    #expect(
      last.hasSuffix(
        #""context":[{"line":8,"record":{"seq":7,"time":"2026-01-01T00:00:00.005000Z","type":"lifecycle","controller":"home","callback":"willDisappear"}},{"line":9,"record":{"seq":8,"time":"2026-01-01T00:00:00.005000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}},{"line":10,"record":{"seq":9,"time":"2026-01-01T00:00:00.255000Z","type":"lifecycle","controller":"home","callback":"didDisappear"}}]}"#
      ))
  }

  @Test func aRemovedDidAppearIsFoundByTheModelAtItsLine() throws {
    let script = "controller home H\ncontroller notes N\nroot home\nlink home left notes\nmove left\nmove right\n"
    let nav = try ScenarioCompiler.record(Array(script.utf8), script: "cli.scenario", profile: .intended)
    var lines = String(decoding: nav.journal, as: UTF8.self).split(separator: "\n").map(String.init)
    // Line 14 is notes' didAppear after the first move.
    #expect(lines[13].contains(#""controller":"notes","callback":"didAppear""#))
    lines.remove(at: 13)
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines(lines))
    let result = try Binary.run(["check", "--model", "--rule", "model-divergence", path])
    // The removed line leaves a seq gap: a format error, so 2 even though it is not reported.
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stdout == """
        \(path):14: error: missing notes didAppear (expected here by the intended model) (in move at seq 9: home → notes) [model-divergence]
            11 = home willDisappear
            12 = notes willAppear
            13 = home didDisappear
               - notes didAppear
            14   move notes → home right programmatic animated
        \(path): 18 events, 1 error, 0 warnings (model-divergence 1); 1 format error not reported by the rule selection (seq-gap 1)

        """)
  }

  @Test func theBundledIntendedRecordingsAreClean() throws {
    let paths = CheckJournals.paths(.intended)
    try #require(!paths.isEmpty)
    let result = try Binary.run(["check", "--model"] + paths)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasSuffix(" 0 errors, 0 warnings\n"))
  }

  @Test(arguments: [
    (["check", "--rule", "will-repeat", "x"], "unknown rule 'will-repeat' (did you mean 'will-repeated'?)"),
    (["check", "--no-rule", "modal_leak", "x"], "unknown rule 'modal_leak' (did you mean 'modal-leak'?)"),
    (["check", "--profile", "legacy", "x"], "--profile needs --model"),
    (["check", "--rule", "model-divergence", "x"], "rule model-divergence needs --model"),
    (["check", "--model", "--profile", "both", "x"], "--profile takes one of intended, legacy, got 'both'"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout == "")
    #expect(result.stderr == "spatial-replay: error: \(message)\nusage: see 'spatial-replay check --help'\n")
  }

  @Test func helpListsTheRulesAndOptions() throws {
    let result = try Binary.run(["check", "--help"])
    #expect(result.status == 0)
    for word in ["--rule ID", "--no-rule ID", "--model", "--profile NAME"] + CheckRule.allCases.map(\.id) {
      #expect(result.stdout.contains(word), "\(word)")
    }
  }
}
