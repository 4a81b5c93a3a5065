import Journal
import Projection
import Testing

@Suite struct ScenarioParserTests {
  private func commands(_ text: String) throws -> [ScenarioCommand] {
    try ScenarioParser.parse(Array(text.utf8), script: "t.scenario").lines.map(\.command)
  }

  @Test func everyCommandParses() throws {
    let script = """
      session id=S1 app="My App" build=7 device=iPhone start=2026-11-29T10:00:00Z
      controller home HomeViewController
      root home
      link home left notes
      unlink home up
      touches home left 2
      threshold notes 80.5
      move up
      move down animated=false
      pan left distance=120
      pan right distance=1e2 velocity=900.5 touches=2 cancel
      modal compose ComposeViewController down animated=false
      goToRoot
      goToRoot animated=true
      dealloc compose
      wait 250
      mark "step 1" user=alice note="a b"
      """
    let start = try Timestamp(rfc3339: "2026-11-29T10:00:00Z")
    let expected: [ScenarioCommand] = [
      .session(SessionOptions(id: "S1", app: "My App", build: "7", device: "iPhone", start: start)),
      .controller("home", className: "HomeViewController"),
      .root("home"),
      .link("home", .left, "notes"),
      .unlink("home", .up),
      .touches("home", .left, min: 2),
      .threshold("notes", points: 80.5),
      .move(.up, animated: true),
      .move(.down, animated: false),
      .pan(.left, distance: 120, velocity: 0, touches: 1, cancelled: false),
      .pan(.right, distance: 100, velocity: 900.5, touches: 2, cancelled: true),
      .modal("compose", className: "ComposeViewController", .down, animated: false),
      .goToRoot(animated: true),
      .goToRoot(animated: true),
      .dealloc("compose"),
      .wait(milliseconds: 250),
      .mark(label: "step 1", fields: [MarkField("user", "alice"), MarkField("note", "a b")]),
    ]
    let actual = try commands(script)
    #expect(actual.count == expected.count)
    for (a, e) in zip(actual, expected) { #expect(a == e) }
  }

  /// Repeated lines come from the parser's cache of recent lines: each one must parse as
  /// it does alone, with its own number, whatever lines came between (more distinct
  /// lines than the cache's slots, lines that differ in one byte, lines too long to keep).
  @Test func repeatedLinesParseAsTheyDoAlone() throws {
    var pool: [String] = []
    for k in 0..<300 {
      pool.append("pan right distance=\(k) velocity=300")
      pool.append("pan left distance=\(k + 1) velocity=300")  // same length as a neighbour, another byte
      pool.append("modal \"Compose#\(k)\" ComposeViewController down")
      pool.append("move up # \(k)")
    }
    pool.append("mark long note=\(String(repeating: "x", count: 600))")
    pool.append("mark long note=\(String(repeating: "x", count: 599))y")
    var generator = SystemRandomNumberGenerator()
    let picks = (0..<5_000).map { _ in pool[Int.random(in: 0..<pool.count, using: &generator)] }
    let scenario = try ScenarioParser.parse(Array(picks.joined(separator: "\n").utf8), script: "t.scenario")
    #expect(scenario.lines.map(\.number) == Array(1...picks.count))
    for (line, text) in zip(scenario.lines, picks) {
      let alone = try commands(text)
      #expect([line.command] == alone, "line \(line.number): \(text)")
    }
  }

  /// A line seen before but for one byte is parsed, not taken from the cache: its error is reported.
  @Test func aLineLikeARepeatedOneIsStillChecked() {
    let script = "pan right distance=120\npan right distance=120\npan right distance=12x\n"
    do {
      _ = try ScenarioParser.parse(Array(script.utf8), script: "t.scenario")
      Issue.record("a script with a bad third line parsed")
    } catch {
      #expect(error.line == 3 && error.reason == .notNumber(.distance, "12x"), "\(error)")
    }
  }

  @Test func linesKeepTheirNumbers() throws {
    let scenario = try ScenarioParser.parse(
      Array("# intro\n\ncontroller a A\n   \nroot a # show it\n".utf8), script: "x")
    #expect(scenario.lines.map(\.number) == [3, 5])
  }

  @Test func tabsCarriageReturnsAndComments() throws {
    #expect(try commands("link\ta \t left\tb\r\nroot a#comment\r") == [.link("a", .left, "b"), .root("a")])
  }

  @Test func quotesEscapesAndHashes() throws {
    #expect(
      try commands(#"mark "a \"quoted\" # not a comment" path="C:\\dir" x=y"z w"v # comment"#) == [
        .mark(label: #"a "quoted" # not a comment"#, fields: [MarkField("path", #"C:\dir"#), MarkField("x", "yz wv")])
      ])
    // Quotes may sit inside a token; an `=` after a quote does not make an option.
    #expect(try commands(#"mark x"y z"w=1"#) == [.mark(label: "xy zw=1", fields: [])])
  }

  @Test func anEqualsSignInsideQuotesIsNoOption() throws {
    #expect(try commands(#"controller "a=b" "K=V""#) == [.controller("a=b", className: "K=V")])
    #expect(try commands(#"mark "x=1""#) == [.mark(label: "x=1", fields: [])])
  }

  @Test func optionsComeInAnyOrder() throws {
    #expect(
      try commands("pan up touches=3 velocity=1 distance=2") == [
        .pan(.up, distance: 2, velocity: 1, touches: 3, cancelled: false)
      ])
  }

  @Test func startIsConvertedToUTCAndZeroDigitsBeyondMicrosecondsAreFine() throws {
    let options = try ScenarioParser.parse(
      Array("session start=2026-03-01T01:30:00.123456000+02:00".utf8), script: "t"
    ).session
    #expect(options?.start?.rfc3339 == "2026-02-28T23:30:00.123456Z")
  }

  @Test func scenarioNames() {
    #expect(ScenarioParser.scenarioName(forScript: "Journals/demo.scenario") == "demo")
    #expect(ScenarioParser.scenarioName(forScript: "a.b.scenario") == "a.b")
    #expect(ScenarioParser.scenarioName(forScript: "plain") == "plain")
    #expect(ScenarioParser.scenarioName(forScript: "dir.d/.hidden") == ".hidden")
    #expect(ScenarioParser.scenarioName(forScript: "-") == "stdin")
  }

  @Test func anEmptyScriptRecordsTheHeaderOnly() throws {
    let nav = try ScenarioCompiler.record([], script: "empty.scenario", profile: .intended)
    #expect(nav.records.count == 1)
    #expect(
      String(decoding: nav.journal, as: UTF8.self)
        == #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"811C9DC5","profile":"intended","scenario":"empty"}"#
        + "\n")
  }
}
