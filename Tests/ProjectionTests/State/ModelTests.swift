import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

@Suite struct ModelTests {
  @Test func linkSetsTheReverseLink() {
    var b = RecordBuilder()
    b.alloc("home", "notes")
    b.link("home", .left, "notes")
    let (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(graph(state) == ["home: left=notes", "notes: right=home"])
  }

  @Test func linkReplacesBothOldLinks() {
    // a.left = c and b.right = d before; link a left b clears c.right and d.left.
    var b = RecordBuilder()
    b.alloc("a", "b", "c", "d")
    b.link("a", .left, "c")
    b.link("d", .left, "b")
    b.link("a", .left, "b")
    let (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(graph(state) == ["a: left=b", "b: right=a", "c:", "d:"])
  }

  @Test func unlinkClearsBothSlots() {
    var b = RecordBuilder()
    b.alloc("a", "b")
    b.link("a", .up, "b")
    b.unlink("b", .down)
    b.unlink("b", .down)
    let (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(graph(state) == ["a:", "b:"])
  }

  @Test func initialDisplayIsATransitionUntilDidAppear() throws {
    var b = RecordBuilder()
    b.alloc("home")
    b.root("home")
    var (state, _) = foldAll(b.records)
    #expect(state.focus == "home")
    #expect(state.root == "home")
    let t = try #require(state.transitionInFlight)
    #expect(t.kind == .initialDisplay)
    #expect(t.seq == 2)
    #expect(t.missing.map(\.description) == ["home willAppear", "home didAppear"])
    b.callback("home", .didLoad)
    b.callback("home", .willAppear)
    b.callback("home", .didAppear)
    (state, _) = foldAll(b.records)
    #expect(state.transitionInFlight == nil)
    #expect(state.transition?.isComplete == true)
    #expect(state[controller: "home"]?.phase == .appeared)
    #expect(state[controller: "home"]?.loadCount == 1)
    #expect(state.appearedCount == 1)
  }

  @Test func moveTracksArrivalsInOrder() throws {
    var b = RecordBuilder()
    b.alloc("home", "notes")
    b.link("home", .left, "notes")
    b.root("home")
    b.move("home", .left, "notes", .pan)
    b.callback("notes", .willAppear)
    b.callback("home", .willDisappear)
    b.callback("home", .didDisappear)
    let (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(state.focus == "notes")
    let t = try #require(state.transitionInFlight)
    #expect(t.arrivals.map(\.description) == ["notes willAppear", "home willDisappear", "home didDisappear"])
    #expect(t.missing.map(\.description) == ["notes didAppear"])
    // The initial display got no callbacks: the move interrupted it.
    #expect(state.counters.interruptedTransitions == 1)
    #expect(state.counters.moves(triggeredBy: .pan) == 1)
  }

  @Test func touchesPropagateToTheNeighbourOnlyWhileLinked() {
    var b = RecordBuilder()
    b.alloc("a", "b", "c")
    b.link("a", .right, "b")
    b.add(.touches(controller: "a", direction: .right, min: 2))
    b.add(.touches(controller: "c", direction: .up, min: 3))
    b.unlink("a", .right)
    b.link("a", .right, "c")
    let (state, _) = foldAll(b.records)
    #expect(state[controller: "a"]?.minimumTouches.right == 2)
    #expect(state[controller: "b"]?.minimumTouches.left == 2)
    #expect(state[controller: "c"]?.minimumTouches.left == 1)
    #expect(state[controller: "c"]?.minimumTouches.up == 3)
  }

  @Test func deallocClearsLinksAndModalBookkeeping() {
    var b = RecordBuilder()
    b.alloc("home", "compose")
    b.root("home")
    b.add(.modal(controller: "compose", presenter: "home"))
    b.link("home", .down, "compose")
    var (state, _) = foldAll(b.records)
    #expect(state.modals(presentedBy: "home") == ["compose"])
    b.unlink("home", .down)
    b.add(.dealloc(controller: "compose"))
    let anomalies: [String]
    (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(state.modals(presentedBy: "home") == [])
    #expect(state[controller: "compose"]?.isAlive == false)
    #expect(state[controller: "compose"]?.deallocatedAt == 7)
    #expect(state.aliveIDs == ["home"])
  }

  @Test func unknownTypesOnlyCount() {
    var b = RecordBuilder()
    b.add(.unknown(type: "zoom", raw: "{}"))
    b.add(.unknown(type: "zoom", raw: "{}"))
    let (state, anomalies) = foldAll(b.records)
    #expect(anomalies.isEmpty)
    #expect(state.counters.events(ofType: "zoom") == 2)
    #expect(state.counters.events == 3)
    #expect(state.lastSeq == 2)
  }

  /// A journal that breaks the model: each event's anomalies, and what the fold still applied.
  @Test func anomaliesNeverStopTheFold() {
    var b = RecordBuilder()
    b.alloc("a", "b", "m")
    b.link("a", .left, "a")  // 4 self-link
    b.link("a", .left, "ghost")  // 5 unknown-controller
    b.alloc("a")  // 6 id-reused
    b.root("a")  // 7
    b.link("a", .left, "b")  // 8
    b.add(.modal(controller: "m", presenter: "a"))  // 9
    b.link("a", .left, "m")  // 10 slot-occupied (applied: replaces b)
    b.move("b", .down, "m")  // 11 focus-mismatch and not-neighbour
    b.add(.dealloc(controller: "a"))  // 12 dealloc-forbidden (root, applied)
    b.link("a", .up, "b")  // 13 use-after-dealloc
    b.alloc("a")  // 14 id-reused: a fresh instance
    let (state, anomalies) = foldAll(b.records)
    let expected = [
      "4 self-link a",
      "5 unknown-controller ghost",
      "6 id-reused a",
      "10 slot-occupied a,m,b",
      "11 focus-mismatch b,a",
      "11 not-neighbour b,m",
      "12 dealloc-forbidden a",
      "13 use-after-dealloc a",
      "14 id-reused a",
    ]
    #expect(anomalies == expected, "\(lineDiff(expected: expected, actual: anomalies))")
    #expect(state.focus == "m")
    #expect(graph(state) == ["a:", "b:", "m:"])
    #expect(state[controller: "a"]?.allocatedAt == 14)
    #expect(state.counters.anomalies == expected.count)
  }

  @Test func deallocForbiddenReasons() {
    var b = RecordBuilder()
    b.alloc("home", "notes", "m")
    b.link("home", .left, "notes")
    b.root("home")
    b.move("home", .left, "notes")
    b.add(.modal(controller: "m", presenter: "home"))
    b.add(.dealloc(controller: "notes"))  // focus
    let (_, anomalies) = foldAll(b.records)
    #expect(anomalies == ["8 dealloc-forbidden notes"])
  }

  /// The fold returns facts, not sentences: what each anomaly names, and the words every output renders from it.
  @Test func anomaliesAreFactsRenderedAtTheEdges() {
    var b = RecordBuilder()
    b.alloc("a", "b", "m", "c")
    b.link("a", .left, "a")  // 5
    b.add(.modal(controller: "m", presenter: "m"))  // 6
    b.alloc("a")  // 7
    b.move("a", .up, "b")  // 8: no focus yet, no up neighbour
    b.root("a")  // 9
    b.link("a", .left, "b")  // 10
    b.add(.modal(controller: "m", presenter: "a"))  // 11
    b.link("a", .left, "m")  // 12
    b.move("b", .right, "c")  // 13: b's right is empty
    b.link("m", .down, "c")  // 14
    b.move("m", .right, "c")  // 15: not the focus; m's right is a (the reverse of a's left)
    b.add(.dealloc(controller: "m"))  // 16: in flight
    b.add(.dealloc(controller: "a"))  // 17: the root
    b.add(.dealloc(controller: "ghost"))  // 18
    b.add(.dealloc(controller: "a"))  // 19
    b.alloc("n")  // 20
    b.add(.modal(controller: "n", presenter: "b"))  // 21
    b.add(.dealloc(controller: "b"))  // 22: presents n
    b.add(.dealloc(controller: "c"))  // 23: the focus
    var state = State()
    var found: [(Int, Anomaly)] = []
    for record in b.records { found += reduce(into: &state, record).map { (record.seq, $0) } }
    let facts = found.map { "\($0.0) \($0.1.fact)" }
    let expectedFacts = [
      "5 linkToItself(a)",
      "6 modalPresentedByItself(m)",
      "7 idReused(a, allocatedAt: 1, alive: true)",
      "8 focusMismatch(from: a, focus: nil)",
      "8 notNeighbour(from: a, to: b, up, neighbour: nil)",
      "12 slotOccupied(modal: m, presenter: a, left, occupant: b)",
      "13 notNeighbour(from: b, to: c, right, neighbour: nil)",
      "15 focusMismatch(from: m, focus: Optional(c))",
      "15 notNeighbour(from: m, to: c, right, neighbour: Optional(a))",
      "16 deallocForbidden(m, Projection.Anomaly.DeallocRefusal.inFlight(seq: 15))",
      "17 deallocForbidden(a, Projection.Anomaly.DeallocRefusal.root)",
      "18 unknownController(ghost)",
      "19 useAfterDealloc(a)",
      "22 deallocForbidden(b, Projection.Anomaly.DeallocRefusal.presenter(of: n))",
      "23 deallocForbidden(c, Projection.Anomaly.DeallocRefusal.focus)",
    ]
    #expect(facts == expectedFacts, "\(lineDiff(expected: expectedFacts, actual: facts))")
    let words = found.map { "\($0.1.message) [\($0.1.rule.id)]" }
    let expectedWords = [
      "link from 'a' to itself [self-link]",
      "modal 'm' presented by itself [self-link]",
      "controller 'a' is allocated again (it was allocated at seq 1) [id-reused]",
      "move from 'a' but the focus is not set [focus-mismatch]",
      "move to 'b' but 'a''s up neighbour is empty [not-neighbour]",
      "modal 'm' presented into 'a''s left slot, which holds 'b' [slot-occupied]",
      "move to 'c' but 'b''s right neighbour is empty [not-neighbour]",
      "move from 'm' but the focus is 'c' [focus-mismatch]",
      "move to 'c' but 'm''s right neighbour is 'a' [not-neighbour]",
      "dealloc of 'm', part of the transition in flight (seq 15) [dealloc-forbidden]",
      "dealloc of 'a', the root [dealloc-forbidden]",
      "controller 'ghost' was never allocated [unknown-controller]",
      "controller 'a' was deallocated [use-after-dealloc]",
      "dealloc of 'b', the presenter of 'n', which is still alive [dealloc-forbidden]",
      "dealloc of 'c', the focus [dealloc-forbidden]",
    ]
    #expect(words == expectedWords, "\(lineDiff(expected: expectedWords, actual: words))")
    #expect(
      found.map(\.1.controllers) == [
        ["a"], ["m"], ["a"], ["a"], ["a", "b"], ["a", "m", "b"], ["b", "c"], ["m", "c"], ["m", "c"], ["m"], ["a"],
        ["ghost"], ["a"], ["b"], ["c"],
      ])
    #expect(found.map(\.1.rule.id) == found.map { CheckRule(rawValue: $0.1.rule.id)?.rawValue })
  }

  /// Copies are values: a snapshot does not change when the original folds on (more than one chunk of controllers).
  @Test func snapshotsAreIndependentValues() {
    var b = RecordBuilder()
    for i in 0..<100 { b.alloc(ControllerID("c\(i)")) }
    for i in 0..<99 { b.link(ControllerID("c\(i)"), .right, ControllerID("c\(i + 1)")) }
    var state = State()
    var snapshots: [(Int, State)] = []
    for r in b.records {
      reduce(into: &state, r)
      if r.seq % 37 == 0 { snapshots.append((r.seq, state)) }
    }
    for (seq, snapshot) in snapshots {
      #expect(snapshot == State(folding: b.records.prefix(seq + 1)))
    }
    #expect(state.controllerCount == 100)
    #expect(state.neighbour(of: "c70", .left) == "c69")
    #expect(state.neighbour(of: "c99", .right) == nil)
  }
}
