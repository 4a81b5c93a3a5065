import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import Stepper
@testable import TestSupport

/// What every screen of the stepper keeps to, whatever the keys and the size:
/// its size, the status line, escaped journal text, the same lines for the
/// same state; and how the lines are shared between the sections.
@Suite struct StepRenderTests {
  @Test func theSectionsFillTheScreenFromSixLinesUp() {
    for height in 6...120 {
      let layout = ScreenLayout(height: height)
      #expect(layout.total == height, "height \(height): \(layout)")
      #expect(layout.map == 0 || (layout.map + 1) % 4 == 0, "height \(height): whole rows of boxes")
    }
    func sections(_ height: Int) -> [Int] {
      let layout = ScreenLayout(height: height)
      return [layout.map, layout.context, layout.phases, layout.findings]
    }
    #expect(sections(24) == [7, 3, 2, 3])
    #expect(sections(50) == [19, 7, 4, 7])
    #expect(sections(40) == [15, 5, 3, 6])
    #expect(sections(30) == [11, 3, 2, 5])
    #expect(sections(12) == [0, 2, 1, 1])
    #expect(sections(16) == [3, 2, 1, 2])
    #expect(sections(7) == [0, 0, 1, 0])
    #expect(sections(5) == [0, 0, 0, 0])
  }

  static let keyNames = [
    "l", "h", "j", "k", "]", "[", "PgDn", "PgUp", "g", "G", "f", "F", "d", "D", "n", "N", "H", "Esc", "x",
    ":12", ":4000", "/didAppear", "?willAppear", "/zzz", "?", "Right", "Left", "Enter", "Backspace",
  ]

  @Test(arguments: [UInt64(1), 2, 3])
  func everyScreenHasItsSizeAndAStatusLine(seed: UInt64) {
    var random = SplitMix64(seed: seed)  // seeded, so that a failure can be replayed
    let steppers = [
      StepFixture.stepper(.intended), StepFixture.stepper(.legacy, ascii: true), StepFixture.comparison(),
    ]
    for (s, stepper) in steppers.enumerated() {
      var state = stepper.start()
      for _ in 0..<150 {
        let name = Self.keyNames[Int.random(in: 0..<Self.keyNames.count, using: &random)]
        for key in StepperKey.sequence(named: name)! { state = stepper.handle(key, in: state) }
        let width = Int.random(in: 1...200, using: &random)
        let height = Int.random(in: 1...70, using: &random)
        let lines = stepper.render(state, size: (width, height))
        #expect(lines.count == height, "stepper \(s) after \(name) at \(width)×\(height)")
        for line in lines {
          #expect(TextWidth.columns(of: line) <= width, "stepper \(s) at \(width)×\(height): \(line)")
          #expect(line.last != " ")
          #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
          #expect(!line.contains("+0 more"), "stepper \(s) at \(width)×\(height): \(line)")
        }
        let status = lines[height - 1]
        let start = s == 2 ? ["divergence", "before", "after", "no div"] : ["seq "]
        // Cut to the width, the status line keeps its first columns and an ellipsis.
        #expect(start.contains { status.hasPrefix(String($0.prefix(width - 1))) }, "status line: \(status)")
        #expect(stepper.render(state, size: (width, height)) == lines, "the same state renders the same")
      }
    }
  }

  @Test func journalTextIsEscaped() throws {
    let evil = ControllerID("evil\u{1B}[2J\u{7}")
    var records: [Record] = []
    func add(_ event: Event) {
      records.append(Record(seq: records.count, time: .modelEpoch, event: event))
    }
    add(.session(SessionHeader(session: "S\u{1B}]0;title\u{7}", profile: "intended\u{9B}")))
    add(.alloc(controller: evil, className: "Class\u{202E}Reversed"))
    add(.root(controller: evil))
    add(.lifecycle(controller: evil, callback: .didLoad))
    add(.mark(label: "label\u{0}\n", fields: [.string("key\u{1B}", "value\u{1B}[31m")]))
    let stepper = Stepper(journal: StepperJournal(name: "name\u{1B}[1m.ndjson", records: records))
    var state = stepper.start()
    for key in StepperKey.sequence(named: "G")! + StepperKey.sequence(named: "/evil")! {
      state = stepper.handle(key, in: state)
    }
    for step in 0..<records.count {
      var at = stepper.start()
      for _ in 0..<step { at = stepper.handle(.character("l"), in: at) }
      for line in stepper.render(at, size: (200, 40)) {
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) })
        #expect(!line.unicodeScalars.contains { $0.value == 0x202E })
      }
    }
    let screen = stepper.render(state, size: (200, 40)).joined(separator: "\n")
    #expect(screen.contains(#"evil\u{1B}[2J\u{7}"#))
    #expect(screen.contains(#"name\u{1B}[1m.ndjson"#))
    // A mark's values are shown as their JSON text, escapes and all.
    #expect(screen.contains(#"mark label\u{0}\u{A} key\u{1B}="value\u001b[31m""#))
  }

  @Test func thePhasesCountWhatDoesNotFit() throws {
    var records = [Record(seq: 0, time: .modelEpoch, event: .session(SessionHeader(session: "MANY")))]
    for i in 0..<3000 {
      let event = Event.alloc(controller: ControllerID("c\(i)"), className: "C")
      records.append(Record(seq: records.count, time: .modelEpoch, event: event))
    }
    let stepper = Stepper(journal: StepperJournal(name: "many", records: records))
    var state = stepper.start()
    state = stepper.handle(.character("G"), in: state)
    let screen = stepper.render(state, size: (80, 24))
    // Two lines of phases after the transition line.
    let phases = try #require(screen.firstIndex { $0.hasPrefix("transition:") }).advanced(by: 1)
    let text = screen[phases] + ", " + screen[phases + 1]
    #expect(text.hasPrefix("disappeared: c0, c1, c2, "))
    // "disappeared: c0, c1, ... c28 +2,971 more"
    let parts = text.dropFirst("disappeared: ".count).split(separator: " +")
    try #require(parts.count == 2 && parts[1].hasSuffix(" more"), "\(text)")
    let names = parts[0].split(separator: ", ")
    let more = try #require(Int(parts[1].dropLast(5).filter { $0 != "," }))
    #expect(names.count + more == 3000, "names shown and the count of the others: \(text)")
  }

  @Test func theStatusLineShowsThePositionAndTheTotal() {
    let stepper = StepFixture.stepper(.legacy)
    var driver = StepDriver(stepper)
    #expect(driver.screen[23] == "seq 0 / 63 · move 0 / 8 · findings 0 / 20")
    driver.press("G")
    #expect(driver.screen[23] == "seq 62 / 63 · move 8 / 8 · findings 20 / 20")
    driver.press("/compose")
    let through = Checker.check(StepFixture.records(.legacy)).filter { $0.line - 1 <= 26 }.count
    #expect(driver.screen[23] == "seq 26 / 63 · move 2 / 8 · findings \(through) / 20 · search /compose")
  }

  @Test func theSideBySideStatusLineCountsDivergences() throws {
    let stepper = StepFixture.comparison()
    guard case .comparison(let comparison) = stepper.source else {
      Issue.record("not a comparison")
      return
    }
    let m = comparison.divergenceCount
    try #require(m == comparison.report.hunks.count && m > 2)
    var driver = StepDriver(stepper)
    // The runs differ from the start: the legacy root shows nothing (L1).
    try #require(comparison.hunkStarts[0] == 0)
    #expect(driver.screen[23].hasPrefix("divergence 1 of \(m) · A seq 6 / 68 · B seq 5 / 63 · row 1 / "))
    for k in 2...m {
      driver.press("d")
      #expect(driver.screen[23].hasPrefix("divergence \(k) of \(m) · "), "\(driver.screen[23])")
      #expect(driver.state.cursor == Int(comparison.hunkStarts[k - 1]))
    }
    driver.press("d")
    #expect(driver.state.message == "no divergence after this row")
    driver.press("N")
    #expect(driver.state.cursor == Int(comparison.hunkStarts[m - 2]))
    driver.press("n")
    #expect(driver.state.cursor == Int(comparison.hunkStarts[m - 1]))
    driver.press("g D")
    #expect(driver.state.message == "no divergence before this row")
    driver.press("G")
    let last = comparison.divergence(atRow: comparison.rowCount - 1) == nil ? "after divergence" : "divergence"
    #expect(driver.screen[23].hasPrefix("\(last) \(m) of \(m) · A seq "))
  }

  @Test func sideBySideRowsPairTheAlignedEvents() throws {
    let stepper = StepFixture.comparison()
    guard case .comparison(let comparison) = stepper.source else { return }
    let a = comparison.report.a
    let b = comparison.report.b
    var seenA: [Int] = []
    var seenB: [Int] = []
    for row in 0..<comparison.rowCount {
      let ta = comparison.token(.a, atRow: row)
      let tb = comparison.token(.b, atRow: row)
      #expect(ta != nil || tb != nil, "row \(row) has an event on one side at least")
      if let ta { seenA.append(ta) }
      if let tb { seenB.append(tb) }
      if comparison.divergence(atRow: row) == nil, let ta, let tb {
        #expect(a.tokens[ta] == b.tokens[tb], "matched rows hold equal events")
      }
    }
    #expect(seenA == Array(0..<a.count), "every compared event of A once, in order")
    #expect(seenB == Array(0..<b.count))
    // Jumping to a seq of either side lands on its row.
    for (side, run, prefix) in [(DiffSide.a, a, ":"), (.b, b, ":b")] {
      for token in stride(from: 0, to: run.count, by: 7) {
        var driver = StepDriver(stepper)
        driver.press(prefix + String(run.seqs[token]))
        #expect(comparison.token(side, atRow: driver.state.cursor) == token)
      }
    }
  }

  @Test func mapsAreTheSameWhetherDrawnOrRemembered() {
    // Stepping forwards fills the map cache; a fresh stepper draws every map anew.
    let stepped = StepFixture.stepper(.legacy)
    var state = stepped.start()
    var frames: [[String]] = []
    for _ in 0..<63 {
      frames.append(stepped.render(state, size: (80, 24)))
      state = stepped.handle(.character("l"), in: state)
    }
    for (i, frame) in frames.enumerated().reversed() {
      let fresh = StepFixture.stepper(.legacy)
      var at = fresh.start()
      for key in StepperKey.sequence(named: ":\(i)")! { at = fresh.handle(key, in: at) }
      #expect(fresh.render(at, size: (80, 24)) == frame, "frame \(i)")
    }
  }
}

/// A slice of a journal (seqs not from 0): the status line gives the seq and the event's place.
@Test func aSliceShowsItsSeqAndThePlaceOfTheEvent() {
  let records = Array(StepFixture.records(.intended).dropFirst(10))
  let stepper = Stepper(journal: StepperJournal(name: "slice", records: records), options: .init())
  var driver = StepDriver(stepper)
  #expect(driver.screen[23].hasPrefix("seq 10 · event 1 / \(records.count) · "), "\(driver.screen[23])")
  driver.press("G")
  let last = records[records.count - 1].seq
  #expect(
    driver.screen[23].hasPrefix("seq \(last) · event \(records.count) / \(records.count) · "), "\(driver.screen[23])")
}

/// A wrapped list keeps its comma at the break (`disappeared: a, b,` / `c`).
@Suite struct WrappedListTests {
  @Test func theCommaStaysAtTheBreak() {
    let words: [ScreenText.Word] =
      [.init(separator: " · ", text: "disappeared: alpha")]
      + ["bravo", "charlie", "delta", "echo"].map { .init(separator: ", ", text: $0) }
    let lines = ScreenText.wrap(words, width: 30, lines: 3, glyphs: .unicode).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    #expect(lines == ["disappeared: alpha, bravo,", "charlie, delta, echo"], "\(lines)")
    // No room for the comma: the last word moves down with it.
    let tight = ScreenText.wrap(words, width: 25, lines: 3, glyphs: .unicode).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    #expect(tight.allSatisfy { $0.count <= 25 }, "\(tight)")
    #expect(tight.first?.hasSuffix(",") == true, "\(tight)")
  }
}
