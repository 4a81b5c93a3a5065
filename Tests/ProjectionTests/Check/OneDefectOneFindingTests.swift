import Journal
import Projection
import Testing

@testable import TestSupport

/// One real bug, one finding: every rule selected, each journal holds one defect and must get
/// exactly the finding listed (the healthy prefix of ``CheckRuleCase``, lines 1-9, then the case).
@Suite struct OneDefectOneFindingTests {
  static let cases: [CheckRuleCase] = [
    .init(
      .didWithoutWill, "a willDisappear that never comes: no incomplete-transition, no dealloc-forbidden",
      [
        "12 did-without-will home"
      ]
    ) {
      $0.move("home", .left, "notes")
      $0.callback("notes", .willAppear)
      $0.callback("home", .didDisappear)
      $0.callback("notes", .didAppear)
      $0.fullMove("notes", .right, "home")
      $0.fullMove("home", .left, "notes")
    },
    .init(.didWithoutWill, "a willAppear that never comes: the move still completes", ["13 did-without-will notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("home", .willDisappear)
      $0.callback("home", .didDisappear)
      $0.callback("notes", .didAppear)
      $0.fullMove("notes", .right, "home")
    },
    .init(
      .didRepeated, "a didAppear delivered twice: not also misattributed or did-without-will",
      [
        "15 did-repeated notes"
      ]
    ) {
      $0.fullMove("home", .left, "notes")
      $0.callback("notes", .didAppear)
      $0.fullMove("notes", .right, "home")
    },
    .init(.didRepeated, "a presenter's didAppear twice before its cleanup: no modal-leak", ["24 did-repeated home"]) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.callback("home", .didAppear)
      $0.unlink("home", .down)
      $0.dealloc("m")
      $0.fullMove("home", .left, "notes")
    },
    .init(
      .modalLeak, "a retain cycle: unlinked, never deallocated; the presenter's dealloc is no second finding",
      [
        "28 modal-leak m,notes"
      ]
    ) {
      $0.fullMove("home", .left, "notes")
      $0.presentModal("m", from: "notes", .up)
      $0.fullMove("m", .down, "notes")
      $0.unlink("notes", .up)
      $0.fullMove("notes", .right, "home")
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
      $0.dealloc("notes")
    },
    .init(
      .modalLeak, "a modal never dismissed: once, and no slot-occupied when its slot is presented into",
      [
        "23 modal-leak m,home"
      ]
    ) {
      $0.presentModal("m", from: "home", .down)
      $0.fullMove("m", .up, "home")
      $0.fullMove("home", .left, "notes")
      $0.fullMove("notes", .right, "home")
      $0.presentModal("m2", from: "home", .down)
      $0.fullMove("m2", .up, "home")
      $0.unlink("home", .down)
      $0.dealloc("m2")
    },
    .init(.appearBeforeLoad, "a controller never loaded: once, whatever its callbacks", ["14 appear-before-load x"]) {
      $0.alloc("x")
      $0.link("home", .up, "x")
      $0.fullMove("home", .up, "x")
      $0.fullMove("x", .down, "home")
    },
    .init(.useAfterDealloc, "a callback after dealloc: that finding only", ["11 use-after-dealloc notes"]) {
      $0.dealloc("notes")
      $0.callback("notes", .didAppear)
    },
    .init(.order, "callbacks out of order: once for the move", ["13 order home,notes"]) {
      $0.move("home", .left, "notes")
      $0.callback("notes", .willAppear)
      $0.callback("notes", .didAppear)
      $0.callback("home", .willDisappear)
      $0.callback("home", .didDisappear)
    },
  ]

  @Test(arguments: cases)
  func oneFinding(_ c: CheckRuleCase) {
    let found = checkFindings(c.records)
    #expect(found == c.expected, "\(lineDiff(expected: c.expected, actual: found))")
  }

  /// `stats`' leaked modals are `check`'s `modal-leak` findings: a retain cycle counts, a modal
  /// on screen at the end does not.
  @Test func statsLeakedModalsAreTheModalLeakFindings() {
    let retained = OneDefectOneFindingTests.cases[4].records
    var builder = StatsBuilder(file: "j.ndjson")
    for (i, record) in retained.enumerated() { builder.consume(.record(record, line: i + 1, offset: 0)) }
    let stats = builder.finish()
    #expect(stats.leakedModals == ["m"])
    #expect(stats.modalLeakFindings == 1)

    let onScreen = CheckRuleCase(.modalLeak, "on screen at the end", []) { $0.presentModal("m", from: "home", .down) }
      .records
    var b = StatsBuilder(file: "j.ndjson")
    for (i, record) in onScreen.enumerated() { b.consume(.record(record, line: i + 1, offset: 0)) }
    #expect(b.finish().leakedModals == [])
  }
}
