import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

@Suite struct NavigatorTests {
  private let home = """
    controller home HomeViewController
    controller notes NotesViewController
    controller far FarViewController
    root home
    link home left notes
    link notes left far
    """

  @Test func theStateFollowsTheGraphRules() throws {
    let nav = try navigator(
      """
      controller a A
      controller b B
      controller c C
      controller d D
      root a
      link a left c
      link d left b
      link a left b
      touches a left 3
      """)
    #expect(nav.state.links(of: "a") == Links(left: "b"))
    #expect(nav.state.links(of: "b") == Links(right: "a"))
    #expect(nav.state.links(of: "c") == Links())
    #expect(nav.state.links(of: "d") == Links())
    #expect(nav.state[controller: "b"]?.minimumTouches.right == 3)
  }

  @Test func aRefusedCommandWritesNothingAndKeepsTheClock() throws {
    var nav = try navigator(home)
    let before = (nav.records, nav.state, nav.clock)
    #expect(throws: NavigatorError.selfLink("home")) { try nav.link("home", .up, "home") }
    #expect(throws: NavigatorError.deallocForbidden("home", .root)) { try nav.dealloc("home") }
    #expect(throws: NavigatorError.unknownController("nots", suggestion: "notes")) {
      try nav.link("home", .up, "nots")
    }
    #expect(NavigatorError.selfLink("home").message == "cannot link 'home' to itself")
    #expect(NavigatorError.selfLink("home").kind == .rule(.selfLink))
    #expect(NavigatorError.deallocForbidden("home", .root).message == "cannot deallocate 'home': it is the root")
    #expect(
      NavigatorError.unknownController("nots", suggestion: "notes").message
        == "unknown controller 'nots' (did you mean 'notes'?)")
    #expect(nav.records == before.0)
    #expect(nav.state == before.1)
    #expect(nav.clock == before.2)
  }

  /// Taking the records hands out each record once and in order; `seq` goes on counting.
  @Test func takenRecordsKeepSeqContiguous() throws {
    var whole = try navigator(home + "\nmove left\nmove left\nmove right")
    var taken = try navigator(home)
    var records = taken.takeRecords()
    #expect(taken.records.isEmpty)
    #expect(taken.recordCount == records.count)
    try taken.move(.left)
    try taken.move(.left)
    records += taken.takeRecords()
    try taken.move(.right)
    taken.takeRecords(into: &records)
    #expect(taken.records.isEmpty)
    #expect(records.dropFirst() == whole.takeRecords().dropFirst())  // the headers differ in session id
    #expect(records.map(\.seq) == Array(0..<records.count))
    #expect(taken.recordCount == records.count)
  }

  /// L3 leaves the transition in flight until the next move, so its ends cannot be deallocated.
  @Test func legacyTransitionsStayInFlight() throws {
    let script = home + "\nmove left\nmove left"
    var intended = try navigator(script)
    try intended.dealloc("notes")
    #expect(
      intended.records.suffix(3).map { compact($0.event) } == [
        "unlink notes left", "unlink notes right", "dealloc notes",
      ])

    var legacy = try navigator(script, profile: .legacy)
    let t = try #require(legacy.state.transitionInFlight)
    #expect(t.from == "notes" && t.to == "far")
    #expect(t.missing == [Arrival("far", .didAppear)])
    #expect(throws: NavigatorError.self) { try legacy.dealloc("notes") }
    do {
      try legacy.dealloc("notes")
    } catch {
      #expect(error.message == "cannot deallocate 'notes': it is part of the transition in flight (seq \(t.seq))")
    }
  }

  /// L4: a leaked modal still holds its slot; presenting into it is refused as in the intended profile.
  @Test func legacyLeakedModalsKeepTheirSlot() throws {
    let script = home + "\nmodal compose ComposeViewController down\nmove up\nmodal again ComposeViewController down"
    let intended = try navigator(script)
    #expect(intended.state.isAlive("compose") == false)
    #expect(intended.state.neighbour(of: "home", .down) == "again")
    let refusal = NavigatorError.slotOccupied(modal: "again", .down, presenter: "home", occupant: "compose")
    #expect(throws: ScenarioError(script: "rule.scenario", line: 9, reason: .refused(refusal))) {
      _ = try navigator(script, profile: .legacy)
    }
    #expect(
      ScenarioError(script: "rule.scenario", line: 9, reason: .refused(refusal)).description
        == "rule.scenario:9: cannot present 'again': the down slot of 'home' holds 'compose'")
  }

  /// A modal presenter whose modal leaked can never be deallocated.
  @Test func aPresenterOutlivesItsModals() throws {
    var nav = try navigator(
      home + "\nmove left\nmodal compose C up\nmove down\nmove right animated=false", profile: .legacy)
    #expect(nav.state.modals(presentedBy: "notes") == ["compose"])
    #expect(throws: NavigatorError.deallocForbidden("notes", .presenter(of: "compose"))) { try nav.dealloc("notes") }
    #expect(
      NavigatorError.deallocForbidden("notes", .presenter(of: "compose")).message
        == "cannot deallocate 'notes': it is the presenter of 'compose', which is still alive")
  }

  @Test func goToRootRefusesAnUnreachableRoot() throws {
    var nav = try navigator(home + "\nmove left\nunlink home left")
    let count = nav.records.count
    #expect(throws: NavigatorError.rootUnreachable(root: "home", from: "notes")) { try nav.goToRoot() }
    #expect(
      NavigatorError.rootUnreachable(root: "home", from: "notes").message
        == "goToRoot: the root 'home' is not reachable from 'notes'")
    #expect(nav.records.count == count)
  }

  /// A map whose only path from the focus `f` to the root `r` passes through the modal `m`, which
  /// the cleanup after `p`'s didAppear (the walk's first step) removes.
  static let onlyPathThroughAModal = """
    controller r RootViewController
    controller p PViewController
    controller f FViewController
    root r
    link r left p
    move left
    modal m ModalViewController down
    link m right r
    link m left f
    move left
    unlink f right
    link f down p
    """

  /// When the cleanup on the way cuts the only path, the whole walk is refused and nothing is written.
  @Test func goToRootRefusesAWalkThatCutsItsOnlyPath() throws {
    var nav = try navigator(Self.onlyPathThroughAModal)
    #expect(nav.state.focus == "f")
    let count = nav.records.count
    let clock = nav.clock
    #expect(throws: NavigatorError.rootUnreachable(root: "r", from: "p")) { try nav.goToRoot() }
    #expect(nav.records.count == count)
    #expect(nav.clock == clock)
    #expect(nav.state.focus == "f")
  }

  /// A cleanup on the way that removes no controller of the path still ahead cannot cut the walk:
  /// it is written whole, the cleanup's events in their place (the walk is then not saved first).
  /// Here the walk passes through the modal `m`, which the cleanup after `a`'s didAppear removes.
  @Test func goToRootPastACleanupBehindItWritesTheWholeWalk() throws {
    var nav = try navigator(
      """
      controller r RootViewController
      controller a AViewController
      controller b BViewController
      root r
      link r left a
      link a left b
      move left
      modal m ModalViewController down
      link m left b
      move left
      """)
    #expect(nav.state.focus == "b")
    #expect(nav.state.isAlive("m"))
    nav.forgetRecords()
    try nav.goToRoot(animated: false)
    #expect(
      nav.records.map { compact($0.event) } == [
        "move b>m right goToRoot instant", "b.W-", "m.W+", "b.D-", "m.D+",
        "move m>a up goToRoot instant", "m.W-", "a.W+", "m.D-", "a.D+",
        "unlink a down", "unlink m left", "dealloc m",
        "move a>r right goToRoot instant", "a.W-", "r.W+", "a.D-", "r.D+",
      ])
    #expect(nav.state.focus == "r")
    #expect(!nav.state.isAlive("m"))
  }

  /// A walk through a modal that the `to` of an earlier step presented replans when the cleanup
  /// removes it, and reaches the root another way.
  @Test func goToRootReplansWhenACleanupRemovesAModalAhead() throws {
    // The same map, and another way from `p` to the root.
    var nav = try navigator(
      Self.onlyPathThroughAModal + "\ncontroller q QViewController\nlink p right q\nlink q down r")
    #expect(nav.state.focus == "f")
    nav.forgetRecords()
    try nav.goToRoot(animated: false)
    #expect(
      nav.records.map { compact($0.event) } == [
        "move f>p down goToRoot instant", "f.W-", "p.W+", "f.D-", "p.D+",
        "unlink p down", "unlink m right", "dealloc m",
        "move p>q right goToRoot instant", "p.W-", "q.W+", "p.D-", "q.D+",
        "move q>r down goToRoot instant", "q.W-", "r.W+", "q.D-", "r.D+",
      ])
    #expect(nav.state.focus == "r")
  }

  @Test func intendedRecordingsComeToRestWithOneVisibleController() throws {
    let nav = try navigator(
      home + """

        move left
        modal compose C up
        move down
        move right
        goToRoot
        """)
    #expect(nav.state.transitionInFlight == nil)
    #expect(nav.state.appearedCount == 1)
    #expect(nav.state[controller: "home"]?.phase == .appeared)
    #expect(nav.state.isAlive("compose") == false)
  }

  @Test func theHeaderNamesSessionScenarioAndProfile() throws {
    let script = "session app=Dicto build=\"2.1 (88)\" start=2026-11-29T11:00:00+01:00\ncontroller home H\n"
    let nav = try ScenarioCompiler.record(Array(script.utf8), script: "dir/login.flow.scenario", profile: .legacy)
    let header = try #require(nav.state.header)
    #expect(header.session == ScenarioParser.derivedSessionID(Array(script.utf8)))
    #expect(header.session.count == 8)
    #expect(header.app == "Dicto" && header.build == "2.1 (88)" && header.device == nil)
    #expect(header.profile == "legacy" && header.scenario == "login.flow")
    #expect(nav.records[0].time.rfc3339 == "2026-11-29T10:00:00.000000Z")
    #expect(nav.records[1].time.rfc3339 == "2026-11-29T10:00:00.001000Z")
    #expect(
      String(decoding: nav.journal, as: UTF8.self).hasPrefix(
        #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":""#
          + header.session + #"","app":"Dicto","build":"2.1 (88)","profile":"legacy","scenario":"login.flow"}"#
          + "\n"))
  }

  @Test func theSessionIDIsDerivedFromTheScriptUnlessGiven() throws {
    // FNV-1a 32 of the empty input and of "a" (published test vectors).
    #expect(ScenarioParser.derivedSessionID([]) == "811C9DC5")
    #expect(ScenarioParser.derivedSessionID(Array("a".utf8)) == "E40C292C")
    let nav = try navigator("session id=S-1\n")
    #expect(nav.state.header?.session == "S-1")
  }

  @Test func recordingIsDeterministic() throws {
    let script = home + "\nmove left\npan right distance=70 velocity=10\ngoToRoot\nmark done"
    for profile in Profile.allCases {
      let a = try navigator(script, profile: profile).journal
      let b = try navigator(script, profile: profile).journal
      #expect(a == b)
      #expect(!a.isEmpty)
    }
  }
}
