import Journal
import Projection
import Testing

@testable import TestSupport

/// Each legacy deviation (spec "Legacy profile") in a small scenario: recorded
/// under `intended` nothing is found; under `legacy` exactly these findings, as
/// `LINE RULE controllers`.
struct CheckLegacyCase: Sendable, CustomTestStringConvertible {
  var deviation: String
  var script: String
  var expected: [String]
  var testDescription: String { deviation }
}

/// Three controllers, the root shown (silently under legacy, L1) and one link.
private let base = """
  controller home HomeViewController
  controller notes NotesViewController
  controller top TopViewController
  root home
  link home left notes

  """

@Suite struct CheckLegacyTests {
  static let cases: [CheckLegacyCase] = [
    .init(
      deviation: "L1 root displays nothing", script: base,
      expected: ["7 incomplete-transition home"]),
    .init(
      deviation: "L1 then a move: the root was never loaded nor shown",
      script: base + "move left animated=false\n",
      expected: [
        "8 incomplete-transition home",
        "9 appear-before-load home",
      ]),
    .init(
      deviation: "L2 didLoad on every link",
      script: "controller a A\ncontroller b B\nlink a left b\nlink a up b\n",
      expected: ["7 load-repeated b"]),
    .init(
      deviation: "L3 a second willAppear instead of didAppear",
      script: base + "move left\n",
      expected: [
        "8 incomplete-transition home",
        "9 appear-before-load home",
        "12 will-repeated notes",
        "12 incomplete-transition home,notes",
      ]),
    .init(
      deviation: "L4 modals leak",
      script: """
        controller home HomeViewController
        root home
        modal m ModalViewController down animated=false
        move up animated=false
        mark done

        """,
      expected: [
        "8 incomplete-transition home",
        "9 appear-before-load home",
        "17 modal-leak m,home",
      ]),
    .init(
      deviation: "L5 touches not enforced",
      script: base + "touches home left 2\npan left distance=100\n",
      expected: [
        "9 touches-violated home",
        "10 incomplete-transition home",
        "11 appear-before-load home",
        "14 will-repeated notes",
        "14 incomplete-transition home,notes",
      ]),
    .init(
      deviation: "L6 animated goToRoot starts every step at once",
      script: base + "link notes up top\nmove left animated=false\nmove up animated=false\ngoToRoot\n",
      expected: [
        "10 incomplete-transition home",
        "11 appear-before-load home",
        "23 incomplete-transition top,notes",
        "26 misattributed top",
        "28 did-without-will notes",
        "29 will-repeated home",
        "29 incomplete-transition notes,home",
      ]),
  ]

  @Test(arguments: cases)
  func deviation(_ c: CheckLegacyCase) throws {
    #expect(checkFindings(try checkRecording(c.script, .intended)) == [])
    let found = checkFindings(try checkRecording(c.script, .legacy))
    #expect(found == c.expected, "\(lineDiff(expected: c.expected, actual: found))")
  }

  @Test func l6WithoutAnimationIsNotMisattributed() throws {
    let script = base + "link notes up top\nmove left animated=false\nmove up animated=false\ngoToRoot animated=false\n"
    let rules = checkRuleIDs(Checker.check(try checkRecording(script, .legacy)))
    #expect(!rules.contains("misattributed"))
    #expect(rules == ["appear-before-load", "incomplete-transition"])
  }
}
