import Journal
import Projection
import Rendering
import Stepper
import Testing

@testable import TestSupport

/// The streaming pipeline of `check`: reader findings, checker findings and model
/// divergences merged in line order, and the summary.
@Suite struct CheckStreamTests {
  /// Runs a JournalCheck over NDJSON text; the findings as `LINE RULE`.
  static func run(_ text: String, rules: RuleSelection = .all, model: Profile? = nil) -> ([String], CheckSummary) {
    let reader = JournalReader(bytes: Array(text.utf8))
    var check = JournalCheck(rules: rules, model: model)
    var findings: [CheckFinding] = []
    while let item = reader.next() { check.consume(item, into: &findings) }
    check.finish(into: &findings)
    return (findings.map { "\($0.line) \($0.rule)" }, check.summary)
  }

  /// Legacy L4 without animation: home's didAppear at line 17 is followed by no
  /// cleanup; the modal-leak is reported there once the next event shows it.
  static let leak: [String] = {
    let script = "controller home H\nroot home\nmodal m M down animated=false\nmove up animated=false\nmark done\n"
    let nav = try? ScenarioCompiler.record(Array(script.utf8), script: "stream.scenario", profile: .legacy)
    return String(decoding: nav?.journal ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
  }()

  @Test func aHeldModalLeakStaysBeforeLaterReaderFindings() throws {
    var lines = Self.leak
    try #require(lines.count == 18)
    // A cleanup-looking unlink of an unknown controller, then a blank line, before the mark.
    let unlink = #"{"seq":17,"time":"2026-01-01T00:00:00.005000Z","type":"unlink","from":"ghost","direction":"left"}"#
    lines[17] = lines[17].replacingOccurrences(of: #""seq":17"#, with: #""seq":18"#)
    lines.insert(unlink, at: 17)
    lines.insert("", at: 18)
    let (found, summary) = Self.run(
      lines.joined(separator: "\n") + "\n",
      rules: try RuleSelection(only: ["modal-leak", "unknown-controller", "blank-line"]))
    #expect(found == ["17 modal-leak", "18 unknown-controller", "19 blank-line"])
    #expect(summary.events == 19)
    #expect(summary.errors == 2)
    #expect(summary.warnings == 1)
    #expect(summary.byRule == [.check(.modalLeak): 1, .check(.unknownController): 1, .format(.blankLine): 1])
    #expect(
      summary.ruleCounts.map(\.rule.id) == [
        FormatRule.blankLine.id, CheckRule.unknownController.id, CheckRule.modalLeak.id,
      ])
  }

  /// The end of the journal is reported at the last record's line, before the
  /// lines after it that hold no record; `check`, `export --table findings`
  /// and `step` take their findings from the same merge.
  @Test func findingsOfTheEndComeBeforeLaterLinesThatHoldNoRecord() throws {
    let text = """
      {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"s"}
      {"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"home","class":"H"}
      {"seq":2,"time":"2026-01-01T00:00:00.002000Z","type":"root","controller":"home"}
      {oops
      {"seq":3
      """
    let expected = ["3 incomplete-transition", "4 malformed", "5 torn-tail"]
    let (found, summary) = Self.run(text)
    #expect(found == expected)
    #expect(summary.errors == 2 && summary.warnings == 1)

    let reader = JournalReader(bytes: Array(text.utf8))
    var builder = TableBuilder(table: .findings, file: "j.ndjson")
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    // The table's own cells: line first, rule fourth.
    let quoted = expected.map { $0.split(separator: " ") }.map { "\($0[0]) \"\($0[1])\"" }
    #expect(rows.map { "\($0.cells[0]) \($0.cells[3])" } == quoted)

    let dir = try TemporaryDirectory()
    let journal = try StepperJournal.load(path: dir.write("j.ndjson", text))
    #expect(journal.findings.map { "\($0.line) \($0.rule)" } == expected)
  }

  @Test func modelDivergencesMergeWithLifecycleFindingsByLine() throws {
    let (found, summary) = Self.run(Self.leak.joined(separator: "\n") + "\n", model: .intended)
    #expect(found == found.sorted { Int($0.split(separator: " ")[0])! < Int($1.split(separator: " ")[0])! })
    #expect(found.contains("17 modal-leak"))
    #expect(found.contains { $0.hasSuffix(" model-divergence") })
    #expect(summary.byRule[.check(.modelDivergence), default: 0] > 0)
    // Without --model there is no divergence.
    let (plain, _) = Self.run(Self.leak.joined(separator: "\n") + "\n")
    #expect(!plain.contains { $0.hasSuffix(" model-divergence") })
    #expect(plain == found.filter { !$0.hasSuffix(" model-divergence") })
  }

  @Test func integrityFindingsAreFilteredLikeTheOthers() throws {
    var lines = Self.leak
    lines.insert("", at: 3)
    let text = lines.joined(separator: "\n") + "\n"
    let (withBlank, _) = Self.run(text)
    #expect(withBlank.contains("4 blank-line"))
    let (without, summary) = Self.run(text, rules: try RuleSelection(excluding: ["blank-line"]))
    #expect(!without.contains("4 blank-line"))
    #expect(summary.warnings == 0)
  }

  /// A ``CheckerPass`` run apart (as `check` runs it on its own thread), its
  /// batches given to the journal check, finds what the journal check finds on
  /// its own, in the same order, whatever the batch size, rules and model.
  @Test(arguments: [1, 7, 4096])
  func aCheckerPassApartFindsTheSame(batchSize: Int) throws {
    let selections: [RuleSelection] = [
      .all, try RuleSelection(only: ["modal-leak", "blank-line", "model-divergence"]),
      try RuleSelection(excluding: ["will-repeated"]),
    ]
    for (name, bytes) in FuzzCorpus.journals {
      // A line of junk in the middle: reader findings between the checked records.
      let middle = bytes.count / 2
      let cut = bytes[middle...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
      let text = Array(bytes[..<cut]) + Array("{oops\n".utf8) + Array(bytes[cut...])
      for rules in selections {
        for model in [nil, Profile.intended, .legacy] {
          func direct() -> [CheckFinding] {
            let reader = JournalReader(bytes: text)
            var check = JournalCheck(rules: rules, model: model)
            var findings: [CheckFinding] = []
            while let item = reader.next() { check.consume(item, into: &findings) }
            check.finish(into: &findings)
            return findings
          }
          let reader = JournalReader(bytes: text)
          var pass = CheckerPass(rules: rules, model: model)
          var check = JournalCheck(rules: rules, model: model)
          var findings: [CheckFinding] = []
          var items = JournalBatch()
          var done = false
          while !done {
            items.items.removeAll()
            while items.count < batchSize, let item = reader.next() { items.append(item) }
            done = items.count < batchSize
            let checked = pass.check(&items)
            check.consume(&items, checked: checked, into: &findings)
          }
          check.finish(checked: pass.finish(), into: &findings)
          #expect(findings == direct(), "\(name) \(model.map(\.rawValue) ?? "no model")")
        }
      }
    }
  }
}
