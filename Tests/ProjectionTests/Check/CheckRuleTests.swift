import Journal
import Projection
import Testing

@testable import TestSupport

/// One rule, one small journal: the findings of that rule alone, as `LINE RULE controllers`.
///
/// Every journal starts with the same healthy prefix (lines 1-9): the header,
/// `alloc home`, `alloc notes`, `root home` with home's didLoad, willAppear and
/// didAppear, then `link home left notes` and notes' didLoad. The case's events
/// follow from line 10.
struct CheckRuleCase: Sendable, CustomTestStringConvertible {
  var rule: CheckRule
  var name: String
  var events: @Sendable (inout RecordBuilder) -> Void
  var expected: [String]

  var testDescription: String { "\(rule) \(name)" }

  init(
    _ rule: CheckRule, _ name: String, _ expected: [String], _ events: @escaping @Sendable (inout RecordBuilder) -> Void
  ) {
    self.rule = rule
    self.name = name
    self.expected = expected
    self.events = events
  }

  /// The whole journal.
  var records: [Record] {
    var b = RecordBuilder()
    b.alloc("home", "notes")
    b.root("home")
    b.callback("home", .didLoad)
    b.callback("home", .willAppear)
    b.callback("home", .didAppear)
    b.link("home", .left, "notes")
    b.callback("notes", .didLoad)
    events(&b)
    return b.records
  }
}

@Suite struct CheckRuleTests {
  static let cases: [CheckRuleCase] = [
    // self-link
    .init(.selfLink, "link to itself", ["10 self-link home"]) { $0.link("home", .up, "home") },
    .init(.selfLink, "modal presented by itself", ["10 self-link notes"]) {
      $0.add(.modal(controller: "notes", presenter: "notes"))
    },
    .init(.selfLink, "link to another", []) { $0.link("home", .up, "notes") },
    // slot-occupied
    .init(.slotOccupied, "modal into the presenter's taken slot", ["12 slot-occupied home,m,notes"]) {
      $0.alloc("m")
      $0.add(.modal(controller: "m", presenter: "home"))
      $0.link("home", .left, "m")
    },
    .init(.slotOccupied, "modal into a free slot", []) {
      $0.alloc("m")
      $0.add(.modal(controller: "m", presenter: "home"))
      $0.link("home", .down, "m")
    },
    .init(.slotOccupied, "a modal presented into the slot of a modal reported as a modal-leak", []) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.mark("after")
      $0.alloc("m2")
      $0.add(.modal(controller: "m2", presenter: "home"))
      $0.link("home", .down, "m2")
    },
    .init(.slotOccupied, "plain link replacing a neighbour", []) {
      $0.alloc("x")
      $0.link("home", .left, "x")
    },
    // id-reused
    .init(.idReused, "alloc of an alive id", ["10 id-reused home"]) { $0.alloc("home") },
    .init(.idReused, "alloc of a deallocated id", ["11 id-reused notes"]) {
      $0.dealloc("notes")
      $0.alloc("notes")
    },
    .init(.useAfterDealloc, "alloc of a deallocated id is not use-after-dealloc", []) {
      $0.dealloc("notes")
      $0.alloc("notes")
    },
    .init(.idReused, "alloc of a fresh id", []) { $0.alloc("fresh") },
    // unknown-controller
    .init(.unknownController, "link to a never allocated id", ["10 unknown-controller ghost"]) {
      $0.link("home", .up, "ghost")
    },
    .init(.unknownController, "callback on a never allocated id", ["10 unknown-controller ghost"]) {
      $0.callback("ghost", .willAppear)
    },
    .init(.unknownController, "deallocated is not unknown", []) {
      $0.dealloc("notes")
      $0.callback("notes", .didLoad)
    },
    // use-after-dealloc
    .init(.useAfterDealloc, "callback after dealloc", ["11 use-after-dealloc notes"]) {
      $0.dealloc("notes")
      $0.callback("notes", .didLoad)
    },
    .init(.useAfterDealloc, "link after dealloc", ["11 use-after-dealloc notes"]) {
      $0.dealloc("notes")
      $0.link("home", .right, "notes")
    },
    .init(.useAfterDealloc, "dealloc alone", []) { $0.dealloc("notes") },
    // load-repeated
    .init(.loadRepeated, "second didLoad", ["10 load-repeated notes"]) { $0.callback("notes", .didLoad) },
    .init(.loadRepeated, "third didLoad, reported again", ["10 load-repeated notes", "11 load-repeated notes"]) {
      $0.callback("notes", .didLoad)
      $0.callback("notes", .didLoad)
    },
    .init(.loadRepeated, "one didLoad each", []) { $0.fullMove("home", .left, "notes") },
    // appear-before-load
    .init(
      .appearBeforeLoad, "move to a controller never loaded: once per instance", ["14 appear-before-load x"]
    ) {
      $0.alloc("x")
      $0.link("home", .up, "x")
      $0.fullMove("home", .up, "x")
    },
    .init(.appearBeforeLoad, "move to a loaded controller", []) {
      $0.alloc("x")
      $0.link("home", .up, "x")
      $0.callback("x", .didLoad)
      $0.fullMove("home", .up, "x")
    },
    // did-without-will
    // did-repeated
    .init(.didRepeated, "didAppear delivered twice", ["15 did-repeated notes"]) {
      $0.fullMove("home", .left, "notes")
      $0.callback("notes", .didAppear)
    },
    .init(.didRepeated, "didDisappear delivered twice", ["15 did-repeated home"]) {
      $0.fullMove("home", .left, "notes")
      $0.callback("home", .didDisappear)
    },
    .init(.didRepeated, "didDisappear of a controller that never appeared", []) {
      $0.alloc("x")
      $0.callback("x", .didLoad)
      $0.callback("x", .didDisappear)
    },
    .init(.didRepeated, "complete moves there and back", []) {
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
    },
    // did-without-will
    .init(.didWithoutWill, "a doubled didAppear is did-repeated, not did-without-will", []) {
      $0.fullMove("home", .left, "notes")
      $0.callback("notes", .didAppear)
    },
    .init(.didWithoutWill, "didAppear without willAppear", ["12 did-without-will notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .didAppear)
    },
    .init(.didWithoutWill, "didDisappear without willDisappear", ["11 did-without-will home"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .didDisappear)
    },
    .init(.didWithoutWill, "complete move", []) { $0.fullMove("home", .left, "notes") },
    // will-repeated
    .init(.willRepeated, "willAppear twice (legacy L3)", ["14 will-repeated notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .willAppear)
      $0.callback("home", .didDisappear)
      $0.callback("notes", .willAppear)
    },
    .init(.willRepeated, "willDisappear while disappeared", ["15 will-repeated home"]) {
      $0.fullMove("home", .left, "notes")
      $0.callback("home", .willDisappear)
    },
    .init(.willRepeated, "willDisappear of a controller that never appeared", ["12 will-repeated x"]) {
      $0.alloc("x")
      $0.callback("x", .didLoad)
      $0.callback("x", .willDisappear)
    },
    .init(.willRepeated, "there and back", []) {
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
    },
    // misattributed
    .init(.misattributed, "callback at rest", ["10 misattributed home"]) { $0.callback("home", .willDisappear) },
    .init(.misattributed, "callback on a third controller during a move", ["13 misattributed x"]) {
      $0.alloc("x")
      $0.callback("x", .didLoad)
      $0.move("home", .left, "notes")
      $0.callback("x", .willAppear)
    },
    .init(.misattributed, "didLoad at rest is not an appearance callback", []) {
      $0.alloc("x")
      $0.callback("x", .didLoad)
    },
    .init(.misattributed, "complete move", []) { $0.fullMove("home", .left, "notes") },
    // incomplete-transition
    .init(.incompleteTransition, "no didAppear by the end", ["13 incomplete-transition home,notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .willAppear)
      $0.callback("home", .didDisappear)
    },
    .init(.incompleteTransition, "no didAppear by the next move", ["14 incomplete-transition home,notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .willAppear)
      $0.callback("home", .didDisappear)
      $0.fullMove("notes", .right, "home")
    },
    .init(.incompleteTransition, "complete moves", []) {
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
    },
    // order
    .init(.order, "willAppear before willDisappear", ["12 order home,notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("notes", .willAppear)
      $0.callback("home", .willDisappear)
      $0.callback("home", .didDisappear)
      $0.callback("notes", .didAppear)
    },
    .init(.order, "didAppear before didDisappear", ["14 order home,notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .willAppear)
      $0.callback("notes", .didAppear)
      $0.callback("home", .didDisappear)
    },
    .init(.order, "documented order, a repeat does not count", []) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("notes", .willAppear)
      $0.callback("home", .didDisappear)
      $0.callback("notes", .didAppear)
      $0.callback("home", .willDisappear)
    },
    // focus-mismatch
    .init(.focusMismatch, "move from a controller that is not the focus", ["10 focus-mismatch notes,home"]) {
      $0.move("notes", .right, "home")
    },
    .init(.focusMismatch, "move from the focus", []) { $0.fullMove("home", .left, "notes") },
    // not-neighbour
    .init(.notNeighbour, "move to a controller in another slot", ["11 not-neighbour home,x"]) {
      $0.alloc("x")
      $0.move("home", .up, "x")
    },
    .init(.notNeighbour, "move to the neighbour", []) { $0.fullMove("home", .left, "notes") },
    // modal-leak
    .init(.modalLeak, "no cleanup after the presenter's didAppear", ["23 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.mark("after")
    },
    .init(.modalLeak, "no cleanup, the journal ends", ["23 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
    },
    .init(.modalLeak, "no didAppear, then the next move", ["22 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.move("m", .up, "home")
      $0.callback("m", .willDisappear)
      $0.callback("home", .willAppear)
      $0.fullMove("home", .left, "notes")
    },
    .init(.modalLeak, "no didAppear, the journal ends", ["21 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.move("m", .up, "home")
      $0.callback("m", .willDisappear)
      $0.callback("home", .willAppear)
    },
    .init(.modalLeak, "no didAppear, the next move goes to the modal", []) {
      $0.presentModal("m", from: "home", .down)
      $0.move("m", .up, "home")
      $0.callback("m", .willDisappear)
      $0.callback("home", .willAppear)
      $0.fullMove("home", .down, "m")
    },
    .init(.modalLeak, "cleanup right after the didAppear", []) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.unlink("home", .down)
      $0.dealloc("m")
      $0.mark("after")
    },
    .init(.modalLeak, "dismissed (unlinked) but never deallocated: a retain cycle", ["23 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.unlink("home", .down)
      $0.mark("after")
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
    },
    .init(.modalLeak, "once per modal, however often the presenter reappears", ["23 modal-leak m,home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
    },
    .init(.modalLeak, "the presenter's didAppear twice before its cleanup", []) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.callback("home", .didAppear)
      $0.unlink("home", .down)
      $0.dealloc("m")
      $0.mark("after")
    },
    .init(.modalLeak, "unlinked by a later event, then deallocated", []) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.unlink("m", .up)
      $0.dealloc("m")
    },
    .init(.modalLeak, "a modal that is the focus is not checked", []) {
      $0.presentModal("m", from: "home", .down)
    },
    // dealloc-forbidden
    .init(.deallocForbidden, "the root", ["10 dealloc-forbidden home"]) { $0.dealloc("home") },
    .init(.deallocForbidden, "a controller in the transition in flight", ["12 dealloc-forbidden notes"]) {
      $0.alloc("x")
      $0.move("home", .left, "notes")
      $0.dealloc("notes")
    },
    .init(.deallocForbidden, "a presenter of an alive modal", ["22 dealloc-forbidden notes"]) {
      $0.fullMove("home", .left, "notes")
      $0.alloc("m")
      $0.add(.modal(controller: "m", presenter: "notes"))
      $0.fullMove("notes", .right, "home")
      $0.dealloc("notes")
    },
    .init(.deallocForbidden, "a neighbour at rest", []) { $0.dealloc("notes") },
    .init(.deallocForbidden, "a presenter whose alive modal was reported as a modal-leak", []) {
      $0.fullMove("home", .left, "notes")
      $0.presentModal("m", from: "notes", .up)
      $0.fullMove("m", .down, "notes")
      $0.unlink("notes", .up)
      $0.fullMove("notes", .right, "home")
      $0.dealloc("notes")
    },
    // visible-count
    .init(.visibleCount, "none appeared at rest, once per period", ["10 visible-count "]) {
      $0.callback("home", .willDisappear)
      $0.callback("home", .didDisappear)
      $0.callback("home", .willAppear)
      $0.callback("home", .didAppear)
      $0.callback("home", .willDisappear)
    },
    .init(.visibleCount, "two appeared, in two periods", ["12 visible-count home,x", "17 visible-count notes,x"]) {
      $0.alloc("x")
      $0.callback("x", .willAppear)
      $0.callback("x", .didAppear)
      $0.fullMove("home", .left, "notes")
    },
    .init(.visibleCount, "in flight does not count", []) {
      $0.move("home", .left, "notes")
      $0.callback("notes", .willAppear)
      $0.callback("notes", .didAppear)
      $0.callback("home", .willDisappear)
      $0.callback("home", .didDisappear)
    },
    // touches-violated
    .init(.touchesViolated, "committed with fewer touches", ["11 touches-violated home"]) {
      $0.add(.touches(controller: "home", direction: .left, min: 2))
      $0.pan("home", .left, touches: 1, .committed)
    },
    .init(.touchesViolated, "committed with enough touches", []) {
      $0.add(.touches(controller: "home", direction: .left, min: 2))
      $0.pan("home", .left, touches: 2, .committed)
    },
    .init(.touchesViolated, "refused with fewer touches", []) {
      $0.add(.touches(controller: "home", direction: .left, min: 2))
      $0.pan("home", .left, touches: 1, .refused)
    },
    .init(.touchesViolated, "another direction's minimum", []) {
      $0.add(.touches(controller: "home", direction: .up, min: 2))
      $0.pan("home", .left, touches: 1, .committed)
    },
  ]

  @Test(arguments: cases)
  func rule(_ c: CheckRuleCase) throws {
    let only = try RuleSelection(only: [c.rule.id])
    let found = checkFindings(c.records, rules: only)
    #expect(found == c.expected, "\(lineDiff(expected: c.expected, actual: found))")
  }

  @Test func everyLifecycleRuleHasAPositiveAndANegativeCase() {
    for rule in CheckRule.lifecycleRules {
      let mine = Self.cases.filter { $0.rule == rule }
      #expect(mine.contains { !$0.expected.isEmpty }, "\(rule) needs a case that finds something")
      #expect(mine.contains { $0.expected.isEmpty }, "\(rule) needs a case that finds nothing")
    }
  }

  @Test func theHealthyPrefixAndCompleteMovesFindNothing() {
    let clean = CheckRuleCase(.order, "clean", []) {
      $0.fullMove("home", .left, "notes")
      $0.presentModal("m", from: "notes", .up)
      $0.fullMove("m", .down, "notes")
      $0.unlink("notes", .up)
      $0.dealloc("m")
      $0.fullMove("notes", .right, "home")
    }
    #expect(checkFindings(clean.records) == [])
  }
}
