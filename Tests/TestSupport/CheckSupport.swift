import Journal
import Projection
import Rendering
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Each finding as `LINE RULE controllers`, e.g. `12 will-repeated notes`.
func checkFindings(_ records: [Record], rules: RuleSelection = .all) -> [String] {
  Checker.check(records, rules: rules).map(checkSummaryLine)
}

/// `LINE RULE a,b` for one finding.
func checkSummaryLine(_ d: Finding) -> String {
  "\(d.line) \(d.rule) \(d.controllers.map(\.rawValue).joined(separator: ","))"
}

/// The rule ids of the findings, each once, sorted.
func checkRuleIDs(_ diagnostics: [Finding]) -> [String] {
  Set(diagnostics.map(\.rule.id)).sorted()
}

/// The records of a scenario script recorded under a profile.
func checkRecording(_ script: String, _ profile: Profile) throws -> [Record] {
  try ScenarioCompiler.record(Array(script.utf8), script: "check.scenario", profile: profile).records
}

/// The bundled journals and scenarios.
enum CheckJournals {
  static let directory = Repository.journals

  /// Paths of the bundled journals of one profile (`NAME.PROFILE.ndjson`), sorted.
  static func paths(_ profile: Profile) -> [String] {
    var names: [String] = []
    if let dir = opendir(directory) {
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasSuffix(".\(profile).ndjson") { names.append(name) }
      }
      closedir(dir)
    }
    return names.sorted().map { directory + "/" + $0 }
  }

  /// Every record of a journal file, with its line; fails the test on any reader finding.
  static func records(_ path: String) throws -> [(record: Record, line: Int)] {
    let reader = try JournalReader(path: path)
    var records: [(Record, Int)] = []
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, _): records.append((record, line))
      case .diagnostic(let d): Issue.record("\(d.formatted(file: path))")
      }
    }
    return records
  }
}

/// Runs the checker over records numbered by their position in `lines` (1-based).
func checkLines(_ records: [(record: Record, line: Int)], rules: RuleSelection = .all) -> [Finding] {
  var checker = Checker(rules: rules)
  var diagnostics: [Finding] = []
  for (record, line) in records { checker.check(record, line: line, into: &diagnostics) }
  checker.finish(into: &diagnostics)
  return diagnostics
}
