import Journal

/// What `spatial-replay shrink` needs of the model: the groups of commands that name one
/// controller, and the reference runner (record the candidate, check it for one rule).
///
/// ```swift
/// let scenario = try ScenarioParser.parse(bytes, script: "long.scenario")
/// let commands = scenario.lines.dropFirst().map(\.command)  // after `session`
/// var shrinker = Shrinker(count: commands.count)
/// let result = shrinker.run(groups: ScenarioShrink.groups(commands)) { kept in
///   ScenarioShrink.shows("modal-leak", scenario, keeping: kept, profile: .legacy) ? .interesting : .not
/// }
/// ```
public enum ScenarioShrink {
  /// For each controller a command creates (`controller`, `modal`), in script order, the indices
  /// of every command that names it: removed together, a controller goes with its links, its
  /// root, its touches, thresholds and dealloc, and the script stays valid.
  public static func groups(_ commands: [ScenarioCommand]) -> [[Int]] {
    var order: [ControllerID] = []
    var indices: [ControllerID: [Int]] = [:]
    for (i, command) in commands.enumerated() {
      switch command {
      case .controller(let id, _), .modal(let id, _, _, _):
        if indices[id] == nil { order.append(id) }
      default:
        break
      }
      for id in Set(command.controllers) { indices[id, default: []].append(i) }
    }
    return order.compactMap { indices[$0] }
  }

  /// The scenario with its `session` line (if any) and the commands at `kept` (indices among
  /// the commands after `session`).
  public static func candidate(_ scenario: Scenario, keeping kept: [Int]) -> Scenario {
    var copy = scenario
    let hasSession = scenario.session != nil
    let body = hasSession ? scenario.lines.dropFirst() : scenario.lines[...]
    copy.lines = (hasSession ? [scenario.lines[0]] : []) + kept.map { body[body.startIndex + $0] }
    return copy
  }

  /// The reference runner: whether the recording of the candidate (``candidate(_:keeping:)``)
  /// under `profile` has at least one finding of `rule`. A candidate the compiler refuses
  /// (a command naming a controller removed, a dealloc of the focus...) does not.
  public static func shows(_ rule: Rule, _ scenario: Scenario, keeping kept: [Int], profile: Profile) -> Bool {
    let candidate = candidate(scenario, keeping: kept)
    guard let navigator = try? ScenarioCompiler.run(candidate, profile: profile) else { return false }
    return findings(of: rule, in: navigator.records) > 0
  }

  /// The findings of `rule` in records (one per line, from line 1), as `check --rule RULE` counts them
  /// (`model-divergence`: against the intended model).
  public static func findings(of rule: Rule, in records: [Record]) -> Int {
    findings(of: rule, in: records.enumerated().map { JournalItem.record($1, line: $0 + 1, offset: 0) })
  }

  /// The findings of `rule` in a journal's items (records and the reader's format findings).
  public static func findings(of rule: Rule, in items: [JournalItem]) -> Int {
    var check = JournalCheck(
      rules: RuleSelection(only: [rule]), model: rule == .check(.modelDivergence) ? .intended : nil)
    var findings: [CheckFinding] = []
    for item in items { check.consume(item, into: &findings) }
    check.finish(into: &findings)
    return findings.count { $0.rule == rule }
  }
}
