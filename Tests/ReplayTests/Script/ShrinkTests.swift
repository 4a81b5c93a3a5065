import Journal
import Projection
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `shrink`: a long legacy session down to a 1-minimal script that still shows a rule.
@Suite struct ShrinkTests {
  /// A long legacy session: the script of a simulated journal, about 600 commands, from the first
  /// seed from `seed` on whose recording shows every rule of ``rules`` (the churn shape sets few
  /// touches minimums: a session of it may show no `touches-violated`).
  static func longSession(churn: Bool, seed: UInt64) -> (journal: [UInt8], script: String) {
    var seed = seed
    while true {
      let simulation = Simulation(
        events: churn ? 1500 : 1800, seed: seed, controllers: churn ? 30 : 8, profile: .legacy,
        shape: churn ? .churn : .simple)
      let journal = Simulator.journal(simulation)
      let (records, _) = JournalReader.readAll(bytes: journal)
      if rules.allSatisfy({ ScenarioShrink.findings(of: $0, in: records) > 0 }) || seed > 1000 {
        return (journal, JournalScript(records).text)
      }
      seed += 1
    }
  }

  static let rules: [Rule] = [
    .check(.modalLeak), .check(.touchesViolated), .check(.loadRepeated), .check(.misattributed),
  ]

  /// The commands of a script after its `session` line.
  static func body(_ scenario: Scenario) -> [ScenarioCommand] {
    scenario.lines.dropFirst(scenario.session == nil ? 0 : 1).map(\.command)
  }

  /// Whether `scenario` is 1-minimal for `rule`: it shows it, and without any one command it does not.
  static func expectOneMinimal(_ scenario: Scenario, _ rule: Rule, _ what: String) {
    let count = body(scenario).count
    #expect(ScenarioShrink.shows(rule, scenario, keeping: Array(0..<count), profile: .legacy), "\(what)")
    for k in 0..<count {
      var kept = Array(0..<count)
      kept.remove(at: k)
      #expect(
        !ScenarioShrink.shows(rule, scenario, keeping: kept, profile: .legacy),
        "\(what): still shows \(rule) without command \(k + 1)")
    }
  }

  @Test(arguments: [false, true])
  func longLegacySessionsShrinkToAFewCommands(churn: Bool) throws {
    let (journal, text) = Self.longSession(churn: churn, seed: 11)
    let scenario = try ScenarioParser.parse(Array(text.utf8), script: "long.scenario")
    let commands = Self.body(scenario)
    #expect(commands.count >= 500 && commands.count <= 800, "\(commands.count) commands")
    let findings = Checker.check(JournalReader.readAll(bytes: journal).records).count
    #expect(findings >= 200, "\(findings) findings")
    for rule in Self.rules {
      let all = Array(0..<commands.count)
      let shows = ScenarioShrink.shows(rule, scenario, keeping: all, profile: .legacy)
      try #require(shows, "the session shows no \(rule)")
      var shrinker = Shrinker(count: commands.count)
      let result = shrinker.run(groups: ScenarioShrink.groups(commands)) { kept in
        ScenarioShrink.shows(rule, scenario, keeping: kept, profile: .legacy) ? .interesting : .not
      }
      #expect(!result.stopped)
      #expect(
        result.kept.count * 20 <= commands.count,
        "\(rule): \(result.kept.count) of \(commands.count) commands")
      let shrunk = ScenarioShrink.candidate(scenario, keeping: result.kept)
      Self.expectOneMinimal(shrunk, rule, "\(churn ? "churn" : "simple") \(rule)")
    }
  }

  @Test func theShrinkerFindsTheOneMinimalSublist() {
    // Interesting: contains 3 and 17, and, when it contains 40, also 41.
    var shrinker = Shrinker(count: 64)
    var calls = 0
    let result = shrinker.run(groups: [[3, 5], [0, 1, 2]]) { kept in
      calls += 1
      return kept.contains(3) && kept.contains(17) && (!kept.contains(40) || kept.contains(41)) ? .interesting : .not
    }
    #expect(result.kept == [3, 17])
    #expect(result.runs == calls)
    #expect(!result.stopped)
    // Stopping keeps the smallest interesting list found so far.
    var stopping = Shrinker(count: 64)
    var asked = 0
    let stopped = stopping.run(groups: []) { kept in
      asked += 1
      if asked > 3 { return .stop }
      return kept.contains(3) ? .interesting : .not
    }
    #expect(stopped.stopped)
    #expect(stopped.kept.contains(3) && stopped.kept.count < 64)
  }

  /// The command line, both runners: the output shows the rule, is 1-minimal, at most 5 %.
  @Test func theCommandShrinksWithEitherRunner() throws {
    let directory = try TemporaryDirectory()
    let (journal, text) = Self.longSession(churn: false, seed: 5)
    let path = try directory.write("long.legacy.ndjson", journal)
    let original = try ScenarioParser.parse(Array(text.utf8), script: "long.scenario")
    let runner = try directory.write(
      "runner.sh", "#!/bin/sh\nexec '\(Binary.path)' record --profile legacy \"$1\"\n")
    chmod(runner, 0o755)
    for (rule, run) in [("modal-leak", false), ("touches-violated", true), ("misattributed", false)] {
      let out = directory.file("\(rule).scenario")
      var arguments = ["shrink", "--rule", rule, path, "-o", out]
      if run { arguments += ["--run", runner] }
      let result = try Binary.run(arguments)
      #expect(result.status == 0, "\(result)")
      #expect(result.stderr.contains("1-minimal for \(rule)"), "\(result)")
      let shrunk = try ScenarioParser.parse(try directory.read(out), script: out)
      #expect(shrunk.session != nil)
      #expect(Self.body(shrunk).count * 20 <= Self.body(original).count, "\(rule): \(Self.body(shrunk).count)")
      Self.expectOneMinimal(shrunk, Rule(id: rule)!, "\(rule) (--run: \(run))")
    }
  }

  @Test func aSessionWithoutTheRuleIsNotShrunk() throws {
    let directory = try TemporaryDirectory()
    let script = try directory.write("calm.scenario", "controller home Home\nroot home\nmark done\n")
    let result = try Binary.run(["shrink", "--rule", "modal-leak", "--profile", "intended", script])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("has no finding of modal-leak"), "\(result)")
    // A runner that cannot test anything (125) finds nothing either.
    let untestable = try Binary.run(["shrink", "--rule", "modal-leak", "--run", "exit 125 #", script])
    #expect(untestable.status == 1, "\(untestable)")
    // Any other non-zero status is no finding either; the runner's stderr shows with --verbose only.
    let failing = try Binary.run(["shrink", "--rule", "modal-leak", "--run", "echo oops >&2; exit 3 #", script])
    #expect(failing.status == 1 && !failing.stderr.contains("oops"), "\(failing)")
    let verbose = try Binary.run(["shrink", "-v", "--rule", "modal-leak", "--run", "echo oops >&2; exit 3 #", script])
    #expect(verbose.status == 1 && verbose.stderr.contains("oops"), "\(verbose)")
    // A misspelt rule is a usage error with a suggestion.
    let typo = try Binary.run(["shrink", "--rule", "modal-leek", script])
    #expect(typo.status == 64, "\(typo)")
    #expect(typo.stderr.contains("did you mean 'modal-leak'"), "\(typo)")
    // The output may not be the input.
    let same = try Binary.run(["shrink", "--rule", "modal-leak", script, "-o", script])
    #expect(same.status == 64, "\(same)")
    // A script error names its line.
    let broken = try directory.write("broken.scenario", "controller home Home\nroot hme\n")
    let error = try Binary.run(["shrink", "--rule", "modal-leak", broken])
    #expect(error.status == 2, "\(error)")
    #expect(error.stderr.contains("broken.scenario:2: unknown controller 'hme'"), "\(error)")
  }

  /// Ctrl-C keeps the smallest script found so far, and says so.
  @Test func anInterruptedShrinkWritesTheSmallestScriptSoFar() throws {
    let directory = try TemporaryDirectory()
    let (journal, _) = Self.longSession(churn: false, seed: 5)
    let path = try directory.write("long.legacy.ndjson", journal)
    let counter = directory.file("runs")
    let runner = try directory.write(
      "slow.sh",
      "#!/bin/sh\necho run >> '\(counter)'\nsleep 0.05\nexec '\(Binary.path)' record --profile legacy \"$1\"\n")
    chmod(runner, 0o755)
    let out = directory.file("so-far.scenario")
    let process = try RunningProcess(arguments: ["shrink", "--rule", "modal-leak", "--run", runner, path, "-o", out])
    var runs = 0
    for _ in 0..<600 where runs < 8 {
      usleep(50_000)
      runs = access(counter, R_OK) == 0 ? try directory.text(counter).split(separator: "\n").count : 0
    }
    try #require(runs >= 8, "the runner ran \(runs) times")
    process.send(SIGINT)
    let stderr = process.remainingStderr()
    #expect(process.wait() == 130, "\(stderr)")
    #expect(stderr.contains("interrupted"), "\(stderr)")
    let shrunk = try ScenarioParser.parse(try directory.read(out), script: out)
    let count = Self.body(shrunk).count
    #expect(ScenarioShrink.shows(.check(.modalLeak), shrunk, keeping: Array(0..<count), profile: .legacy))
  }
}

/// docs/cli.md's figures for the bundled legacy notes session are the command's.
@Suite struct ShrinkDocsTests {
  @Test func theDocumentedFiguresAreTheCommands() throws {
    let result = try Binary.run(["shrink", "--rule", "modal-leak", Repository.journals + "/notes.legacy.ndjson"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.hasPrefix("shrink: 52 → 4 commands (7.7 %), 58 runs, "), "\(result)")
    #expect(result.stdout.hasPrefix("# spatial-replay shrink --rule modal-leak: 4 of 52 commands (profile legacy)\n"))
    let docs = String(decoding: try TemporaryDirectory().read(Repository.root + "/docs/cli.md"), as: UTF8.self)
    #expect(docs.contains("`Journals/notes.legacy.ndjson`, 52 commands to 4 in 58 runs"))
    #expect(docs.contains("`# spatial-replay shrink --rule modal-leak: 4 of 52 commands (profile\nlegacy)`"))
  }
}
