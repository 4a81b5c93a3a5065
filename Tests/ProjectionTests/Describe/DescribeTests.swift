import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

@Suite struct DescribeTests {
  struct SentenceCase: CustomTestStringConvertible, Sendable {
    var event: Event
    var sentence: String
    var testDescription: String { event.typeName + ": " + sentence }
  }

  static let sentences: [SentenceCase] = [
    SentenceCase(
      event: .session(SessionHeader(session: "3F2A9C1E", app: "Dicto", build: "2.1 (88)", profile: "intended")),
      sentence: "session 3F2A9C1E (v1, app Dicto, build 2.1 (88), profile intended)"),
    SentenceCase(
      event: .alloc(controller: "notes", className: "NotesViewController"),
      sentence: "alloc notes (NotesViewController)"),
    SentenceCase(event: .root(controller: "home"), sentence: "root home"),
    SentenceCase(event: .link(from: "home", direction: .left, to: "notes"), sentence: "link home left → notes"),
    SentenceCase(event: .unlink(from: "notes", direction: .up), sentence: "unlink notes up"),
    SentenceCase(
      event: .modal(controller: "compose", presenter: "notes"), sentence: "modal compose presented by notes"),
    SentenceCase(
      event: .touches(controller: "home", direction: .down, min: 2), sentence: "touches home down: 2 fingers"),
    SentenceCase(
      event: .pan(
        Pan(controller: "home", direction: .left, touches: 2, distance: 120, velocity: 300, outcome: .committed)),
      sentence: "pan on home left, 2 fingers, 120 pt at 300 pt/s: committed"),
    SentenceCase(
      event: .pan(Pan(controller: "home", direction: .up, touches: 1, distance: 50.5, velocity: 0, outcome: .snapBack)),
      sentence: "pan on home up, 1 finger, 50.5 pt at 0 pt/s: snapBack"),
    SentenceCase(
      event: .move(Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true)),
      sentence: "home → notes (left, pan, animated)"),
    SentenceCase(
      event: .move(Move(from: "notes", to: "home", direction: .right, trigger: .goToRoot, animated: false)),
      sentence: "notes → home (right, goToRoot)"),
    SentenceCase(event: .lifecycle(controller: "notes", callback: .didAppear), sentence: "notes: didAppear"),
    SentenceCase(event: .dealloc(controller: "compose"), sentence: "dealloc compose"),
    SentenceCase(
      event: .mark(label: "login", fields: [.string("user", "ann"), Field(key: "n", value: RawJSON(unchecked: "3"))]),
      sentence: #"mark login user="ann" n=3"#),
    SentenceCase(event: .unknown(type: "gesture", raw: "{}"), sentence: "unknown event type 'gesture'"),
  ]

  @Test(arguments: sentences)
  func eventSentence(_ c: SentenceCase) {
    #expect(c.event.sentence == c.sentence)
  }

  @Test func sentencesEscapeJournalText() {
    let event = Event.link(from: "evil\u{1B}[2J", direction: .right, to: "rtl\u{202E}x")
    #expect(event.sentence == #"link evil\u{1B}[2J right → rtl\u{202E}x"#)
    #expect(!event.sentence.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
  }

  @Test func logLineHasTimeSeqAndSentence() {
    let time = Timestamp(microseconds: Timestamp.modelEpoch.microseconds + 36_001_250_999)
    let record = Record(seq: 13, time: time, event: .lifecycle(controller: "home", callback: .didDisappear))
    #expect(LogLine.text(record) == "10:00:01.250 #13 home: didDisappear")
    #expect(
      LogLine.text(record, color: true) == "\u{1B}[2m10:00:01.250\u{1B}[0m #13 \u{1B}[36mhome: didDisappear\u{1B}[0m")
    var out = ""
    LogLine.write(record, to: &out)
    #expect(out == "10:00:01.250 #13 home: didDisappear\n")
    #expect(LogLine.timeOfDay(Timestamp(microseconds: -1000)) == "23:59:59.999")
  }

  @Test func stateTextOfTheNotesApp() {
    let text = FixtureJournal.notesApp.state.text
    GoldenFile.check(text, "describe-notes.state.txt")
    #expect(text.contains("focus: compose\n"))
    #expect(
      text.contains("  compose: ComposeViewController, loaded, appeared; modal presented by notes; links down=notes\n"))
    #expect(text.contains("; min touches down=2"))
  }

  @Test func stateTextShowsATransitionInFlight() {
    var j = FixtureJournal(session: "FLIGHT", profile: nil)
    j.alloc("home", "notes")
    j.show("home")
    j.link("home", .left, "notes")
    j.add(.move(Move(from: "home", to: "notes", direction: .left, trigger: .fling, animated: true)))
    j.callback("home", .willDisappear)
    j.dealloc("ghost")
    let text = j.state.text
    #expect(
      text == """
        after seq 10 (11 events) at 2026-01-01T00:00:00.006000Z
        session FLIGHT (v1, scenario fixture)
        root: home
        focus: notes
        transition in flight: home → notes (left, fling, animated) at seq 8; arrived: home willDisappear; \
        missing: notes willAppear, home didDisappear, notes didAppear
        anomalies so far: 1
        controllers: 2 (2 alive)
          home: HomeViewController, loaded, disappearing; links left=notes
          notes: NotesViewController, not loaded, disappeared; links right=home

        """)
    #expect(State().text == "before any event\nroot: none\nfocus: none\ntransition: none\ncontrollers: 0 (0 alive)\n")
  }

  @Test func stateJSONHasEveryKeyInAFixedOrder() throws {
    var j = FixtureJournal(session: "JSON", profile: nil)
    j.alloc("home", "gone")
    j.show("home")
    j.dealloc("gone")
    j.add(.unknown(type: "zzz", raw: "{}"))
    let json = j.state.json()
    #expect(
      json
        == #"{"seq":8,"time":"2026-01-01T00:00:00.005000Z","events":9,"#
        + #""header":{"v":1,"session":"JSON","app":null,"build":null,"device":null,"profile":null,"scenario":"fixture"},"#
        + #""root":"home","focus":"home","transition":{"kind":"initialDisplay","seq":3,"from":null,"to":"home","#
        + #""direction":null,"trigger":null,"animated":false,"inFlight":false,"#
        + #""arrived":[{"controller":"home","callback":"didLoad"},{"controller":"home","callback":"willAppear"},"#
        + #"{"controller":"home","callback":"didAppear"}],"#
        + #""missing":[]},"controllers":[{"id":"home","class":"HomeViewController","alive":true,"allocatedAt":1,"#
        + #""deallocatedAt":null,"loadCount":1,"phase":"appeared","modal":false,"presenter":null,"presented":[],"#
        + #""links":{"left":null,"right":null,"up":null,"down":null},"minTouches":{"left":1,"right":1,"up":1,"down":1}},"#
        + #"{"id":"gone","class":"GoneViewController","alive":false,"allocatedAt":2,"deallocatedAt":7,"loadCount":0,"#
        + #""phase":"disappeared","modal":false,"presenter":null,"presented":[],"#
        + #""links":{"left":null,"right":null,"up":null,"down":null},"minTouches":{"left":1,"right":1,"up":1,"down":1}}],"#
        + #""counters":{"events":9,"anomalies":0,"interruptedTransitions":0,"unknownTypes":{"zzz":1}}}"#)
    #expect(
      State().json() == #"{"seq":null,"time":null,"events":0,"header":null,"root":null,"focus":null,"#
        + #""transition":null,"controllers":[],"counters":{"events":0,"anomalies":0,"interruptedTransitions":0,"#
        + #""unknownTypes":{}}}"#)
  }

  @Test func stateJSONWithTheMapIsOneValidObject() throws {
    let state = FixtureJournal.notesApp.state
    let json = state.json(map: MapLayout(state: state))
    GoldenFile.check(json + "\n", "describe-notes.state.json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["focus"] as? String == "compose")
    let map = try #require(object["map"] as? [String: Any])
    #expect(map["detached"] as? [String] == ["help"])
    #expect(!json.contains("\n"))
  }
}
