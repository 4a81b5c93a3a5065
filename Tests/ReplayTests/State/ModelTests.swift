import Journal
import Projection
import Testing

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
