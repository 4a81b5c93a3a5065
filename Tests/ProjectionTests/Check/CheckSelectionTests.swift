import Journal
import Rendering
import Testing

@testable import Projection
@testable import TestSupport

/// Rule ids, `--rule`/`--no-rule` selection, and the fields of a finding.
@Suite struct CheckSelectionTests {
  @Test func everyRuleIdIsKnownOnceAndLifecycleRulesAreErrors() {
    #expect(Set(Rule.ids).count == Rule.ids.count)
    #expect(CheckRule.lifecycleRules.count == 19)
    #expect(!CheckRule.lifecycleRules.contains(.modelDivergence))
    for rule in CheckRule.allCases {
      #expect(rule.severity == .error)
      #expect(CheckRule(rawValue: rule.id) == rule)
      #expect(!rule.summary.isEmpty)
    }
  }

  @Test func allSelectsEverything() {
    for id in Rule.ids { #expect(RuleSelection.all.contains(id), "\(id)") }
    #expect(!RuleSelection.all.contains("no-such-rule"))
  }

  /// A rule's bit is read from its case's stored position: that is its place in `allCases`, one byte, below 32.
  @Test func eachRulesBitIsItsPositionInAllCases() {
    #expect(MemoryLayout<CheckRule>.size == 1)
    #expect(CheckRule.allCases.count <= 32)
    for (k, rule) in CheckRule.allCases.enumerated() {
      #expect(Int(rule.position) == k, "\(rule)")
      #expect(rule.bit == 1 << UInt32(k), "\(rule)")
    }
  }

  /// Each rule has a bit of its own (numbered by its position): selected alone, it is the only one selected.
  @Test func eachRuleSelectedAloneIsTheOnlyOneSelected() throws {
    for rule in CheckRule.allCases {
      let alone = try RuleSelection(only: [rule.id])
      #expect(CheckRule.allCases.filter { alone.contains($0) } == [rule])
      let allBut = try RuleSelection(excluding: [rule.id])
      #expect(CheckRule.allCases.filter { !allBut.contains($0) } == [rule])
    }
  }

  @Test func onlyAndExcluding() throws {
    let only = try RuleSelection(only: ["modal-leak", "seq-gap"])
    #expect(only.contains(.modalLeak))
    #expect(only.contains("seq-gap"))
    #expect(!only.contains(.willRepeated))
    #expect(!only.contains("crlf"))
    #expect(only.containsLifecycleRules)
    let integrityOnly = try RuleSelection(only: ["crlf"])
    #expect(!integrityOnly.containsLifecycleRules)
    let most = try RuleSelection(excluding: ["visible-count", "bom"])
    #expect(!most.contains(.visibleCount))
    #expect(!most.contains("bom"))
    #expect(most.contains(.order) && most.contains("crlf"))
    let both = try RuleSelection(only: ["order", "misattributed"], excluding: ["order"])
    #expect(!both.contains(.order) && both.contains(.misattributed))
  }

  @Test(arguments: [
    ("will-repeat", "will-repeated"),
    ("modal_leak", "modal-leak"),
    ("seqgap", "seq-gap"),
    ("ORDER", "order"),
    ("model", "model-divergence"),
    ("touches", "touches-violated"),
  ])
  func unknownIdsNameTheClosest(id: String, suggestion: String) {
    #expect(throws: UnknownRuleError(id: id)) { try RuleSelection(only: [id]) }
    #expect(throws: UnknownRuleError(id: id)) { try RuleSelection(excluding: [id]) }
    let error = UnknownRuleError(id: id)
    #expect(error.suggestion == suggestion)
    #expect(error.description == "unknown rule '\(id)' (did you mean '\(suggestion)'?)")
  }

  @Test func aFindingCarriesRuleSeverityLineSeqControllersAndMove() throws {
    let records = try checkRecording(
      "controller home H\ncontroller notes N\nroot home\nlink home left notes\nmove left\n", .legacy)
    let found = Checker.check(records, rules: try RuleSelection(only: ["will-repeated"]))
    let last = try #require(found.last)
    let finding = Finding(
      .willRepeated, .willRepeated("notes", .willAppear, phase: .appearing),
      in: Finding.Context(kind: .move, seq: 6, from: "home", to: "notes"), line: 11, seq: 10,
      controllers: ["notes"], move: 6)
    #expect(last == finding)
    #expect(last.message == "notes: willAppear while already appearing (in move at seq 6: home → notes)")
  }

  @Test func idsAreEscapedInMessages() throws {
    var b = RecordBuilder()
    b.alloc("home", "evil\u{1B}[2J")
    b.root("home")
    b.callback("home", .didLoad)
    b.callback("home", .willAppear)
    b.callback("home", .didAppear)
    b.callback("evil\u{1B}[2J", .didLoad)
    b.callback("evil\u{1B}[2J", .willAppear)
    let found = Checker.check(b.records, rules: try RuleSelection(only: ["misattributed"]))
    #expect(
      found.map(\.message) == [
        #"evil\u{1B}[2J: willAppear while no transition is in flight (in initial display at seq 3: home)"#
      ])
    #expect(found.map(\.controllers) == [["evil\u{1B}[2J"]])
    for d in Checker.check(b.records) { #expect(!d.message.unicodeScalars.contains("\u{1B}"), "\(d.message)") }
  }
}
