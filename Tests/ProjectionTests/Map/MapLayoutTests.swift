import Journal
import Projection
import Testing

@testable import TestSupport

@Suite struct MapLayoutTests {
  typealias Position = MapLayout.Position

  /// `id (x,y)` for every placement, in walk order.
  func placements(_ layout: MapLayout) -> [String] {
    layout.placements.map { "\($0.id) \($0.position)" }
  }

  @Test func straightPathPlacesOneStepApart() {
    var j = FixtureJournal()
    j.alloc("a", "b", "c")
    j.show("a")
    j.link("a", .right, "b")
    j.link("b", .right, "c")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "b (1,0)", "c (2,0)"])
    #expect(layout.collisions.isEmpty)
    #expect(layout.detached.isEmpty)
    #expect(layout.root == "a")
    #expect(layout.bounds?.min == Position(x: 0, y: 0))
    #expect(layout.bounds?.max == Position(x: 2, y: 0))
  }

  @Test func demoPathOfSeventeenControllers() {
    let layout = MapLayout(state: FixtureJournal.demoPath(focusLast: true).state)
    var expected = ["n00 (0,0)"]
    var position = Position(x: 0, y: 0)
    for (i, d) in FixtureJournal.demoSteps.enumerated() {
      position = position.moved(d)
      expected.append("n\(i + 1 < 10 ? "0" : "")\(i + 1) \(position)")
    }
    #expect(placements(layout) == expected)
    #expect(layout.placements.count == 17)
    #expect(layout.collisions.isEmpty)
    #expect(layout.detached.isEmpty)
    #expect(layout.focus == "n16")
    #expect(layout.position(of: "n16") == Position(x: 4, y: 0))
    #expect(layout.bounds?.min == Position(x: -1, y: -2))
    #expect(layout.bounds?.max == Position(x: 4, y: 3))
  }

  @Test func squareCycleTerminatesWithoutCollisions() {
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "d")
    j.show("a")
    j.link("a", .right, "b")
    j.link("b", .down, "c")
    j.link("c", .left, "d")
    j.link("d", .up, "a")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "d (0,1)", "b (1,0)", "c (1,1)"])
    #expect(layout.collisions.isEmpty)
  }

  @Test func cycleThatDoesNotCloseOnTheGridIsAStretchedLink() {
    // a right b, b down c, c left d, d down a: the walk goes a, d (up), b (right), c (d's right).
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "d")
    j.show("a")
    j.link("a", .right, "b")
    j.link("b", .down, "c")
    j.link("c", .left, "d")
    j.link("d", .down, "a")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "d (0,-1)", "b (1,0)", "c (1,-1)"])
    #expect(
      layout.collisions == [
        .stretchedLink(
          from: "b", direction: .down, to: "c", fromPosition: Position(x: 1, y: 0), toPosition: Position(x: 1, y: -1))
      ])
    #expect(layout.collisions.map(\.description) == ["link b down → c: (1,0) to (1,-1), not one step"])
  }

  @Test func twoControllersOnOneCellAreACollision() {
    let j = FixtureJournal.sharedCell
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "b (0,1)", "e (1,0)", "c (1,1)", "d (1,0)"])
    #expect(layout.collisions == [.sharedCell(Position(x: 1, y: 0), ["e", "d"])])
    #expect(layout.collisions.map(\.description) == ["cell (1,0): e, d"])
  }

  @Test func unreachableControllersAreDetachedAndDeallocatedOnesGone() {
    var j = FixtureJournal()
    j.alloc("a", "b", "island", "shore", "lonely", "gone")
    j.show("a")
    j.link("a", .left, "b")
    j.link("island", .up, "shore")
    j.link("a", .right, "gone")
    j.dealloc("gone")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "b (-1,0)"])
    #expect(layout.detached == ["island", "shore", "lonely"])
    #expect(layout.position(of: "gone") == nil)
  }

  @Test func breadthFirstOrderWinsOverALongerOrLaterPath() {
    // d is reachable as a.up.right (1,-1) and as a.right.right.up (2,-1): the
    // shorter path, found first, places it; e's up link is then stretched.
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "d", "e")
    j.show("a")
    j.link("a", .up, "b")
    j.link("b", .right, "d")
    j.link("a", .right, "c")
    j.link("c", .right, "e")
    j.link("e", .up, "d")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "b (0,-1)", "c (1,0)", "d (1,-1)", "e (2,0)"])
    #expect(
      layout.collisions == [
        .stretchedLink(
          from: "d", direction: .down, to: "e", fromPosition: Position(x: 1, y: -1), toPosition: Position(x: 2, y: 0))
      ])
  }

  @Test func neighboursAreVisitedUpLeftDownRight() {
    // Two paths of equal length reach x: via up (b) and via right (c); up is visited first.
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "x")
    j.show("a")
    j.link("a", .right, "c")
    j.link("a", .up, "b")
    j.link("b", .right, "x")
    j.link("c", .up, "x")
    let layout = MapLayout(state: j.state)
    #expect(placements(layout) == ["a (0,0)", "b (0,-1)", "c (1,0)", "x (1,-1)"])
    #expect(layout.collisions.isEmpty)
  }

  @Test func noRootMeansEverythingIsDetached() {
    var j = FixtureJournal()
    j.alloc("a", "b")
    j.link("a", .left, "b")
    let layout = MapLayout(state: j.state)
    #expect(layout.placements.isEmpty)
    #expect(layout.bounds == nil)
    #expect(layout.root == nil)
    #expect(layout.detached == ["a", "b"])
  }

  @Test func modalsAreMarked() {
    let layout = MapLayout(state: FixtureJournal.notesApp.state)
    #expect(layout.placements.filter(\.isModal).map(\.id) == ["compose"])
    #expect(layout.focus == "compose")
    #expect(layout.detached == ["help"])
  }

  @Test func aLongChainLaysOutWithoutRecursion() {
    // 100,000 controllers in a line: the walk is iterative and linear.
    let count = 100_000
    var records = [Record(seq: 0, time: .modelEpoch, event: .session(SessionHeader(session: "LONG")))]
    func add(_ event: Event) { records.append(Record(seq: records.count, time: .modelEpoch, event: event)) }
    for i in 0..<count { add(.alloc(controller: ControllerID("c\(i)"), className: "C")) }
    add(.root(controller: "c0"))
    for i in 1..<count {
      add(.link(from: ControllerID("c\(i - 1)"), direction: i % 2 == 0 ? .right : .down, to: ControllerID("c\(i)")))
    }
    let layout = MapLayout(state: State(folding: records))
    #expect(layout.placements.count == count)
    #expect(layout.collisions.isEmpty)
    #expect(layout.placements.last?.position == Position(x: (count - 1) / 2, y: count / 2))
  }

  @Test func layoutJSONListsCellsCollisionsAndDetached() {
    var j = FixtureJournal()
    j.alloc("a", "b", "c", "d", "e", "x")
    j.show("a")
    j.link("a", .down, "b")
    j.link("b", .right, "c")
    j.link("c", .up, "d")
    j.link("a", .right, "e")
    var json = ""
    MapLayout(state: j.state).writeJSON(to: &json)
    #expect(
      json
        == #"{"root":"a","focus":"a","cells":[{"id":"a","x":0,"y":0,"modal":false},{"id":"b","x":0,"y":1,"modal":false},"#
        + #"{"id":"e","x":1,"y":0,"modal":false},{"id":"c","x":1,"y":1,"modal":false},{"id":"d","x":1,"y":0,"modal":false}],"#
        + #""collisions":[{"kind":"cell","x":1,"y":0,"controllers":["e","d"]}],"detached":["x"]}"#)
  }
}
