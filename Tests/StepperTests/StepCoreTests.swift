import Journal
import Projection
import Rendering
import Testing

@testable import Stepper
@testable import TestSupport

/// The stepper's keys, driven on the pure core: where each key puts the
/// cursor, what it says, and the prompts, the help and quitting.
@Suite struct StepCoreTests {
  let intended = StepFixture.stepper(.intended)
  let legacy = StepFixture.stepper(.legacy)
  let records = StepFixture.records(.intended)

  /// Presses the keys of `tokens` from the first screen.
  func state(_ stepper: Stepper, _ tokens: String) -> StepperState {
    var driver = StepDriver(stepper)
    driver.press(tokens)
    return driver.state
  }

  struct Motion: CustomTestStringConvertible, Sendable {
    var keys: String
    var cursor: Int
    var message: String?
    var testDescription: String { "'\(keys)' → \(cursor)" }
  }

  @Test(arguments: [
    Motion(keys: "l", cursor: 1), Motion(keys: "Right", cursor: 1), Motion(keys: "j", cursor: 1),
    Motion(keys: "Down", cursor: 1), Motion(keys: "l l l", cursor: 3), Motion(keys: "l l h", cursor: 1),
    Motion(keys: "l Left", cursor: 0), Motion(keys: "l k", cursor: 0), Motion(keys: "l Up", cursor: 0),
    Motion(keys: "h", cursor: 0, message: "at the first event"),
    Motion(keys: "PgDn", cursor: 50), Motion(keys: "Space", cursor: 50), Motion(keys: "PgDn PgDn", cursor: 67),
    Motion(keys: "PgDn PgDn PgUp", cursor: 17), Motion(keys: "PgUp", cursor: 0, message: "at the first event"),
    Motion(keys: "G", cursor: 67), Motion(keys: "End", cursor: 67), Motion(keys: "G g", cursor: 0),
    Motion(keys: "G Home", cursor: 0), Motion(keys: "G l", cursor: 67, message: "at the last event"),
    Motion(keys: "G PgDn", cursor: 67, message: "at the last event"), Motion(keys: "G h", cursor: 66),
  ])
  func stepping(_ motion: Motion) {
    let state = state(intended, motion.keys)
    #expect(state.cursor == motion.cursor)
    #expect(state.message == motion.message)
    #expect(state.mode == .browsing)
    #expect(!state.quit)
  }

  @Test func bracketsVisitEveryMoveEventInOrder() throws {
    let moves = records.indices.filter {
      if case .move = records[$0].event { return true }
      return false
    }
    try #require(moves.count == 8)
    var driver = StepDriver(intended)
    var visited: [Int] = []
    for _ in moves {
      driver.press("]")
      visited.append(driver.state.cursor)
    }
    #expect(visited == moves)
    driver.press("]")
    #expect(driver.state.cursor == moves.last)
    #expect(driver.state.message == "no move after this one")
    var back: [Int] = []
    for _ in moves.dropLast() {
      driver.press("[")
      back.append(driver.state.cursor)
    }
    #expect(back == Array(moves.dropLast().reversed()))
    driver.press("[")
    #expect(driver.state.message == "no move before this one")
    // From the middle of a move, [ goes to the move's own event first.
    driver.press(":\(records[moves[2] + 2].seq) [")
    #expect(driver.state.cursor == moves[2])
  }

  @Test func findingKeysVisitTheRecordOfEveryFindingInOrder() throws {
    let legacyRecords = StepFixture.records(.legacy)
    let findings = Checker.check(legacyRecords)
    try #require(findings.count > 10)
    // Each finding's line is its record's (line = index + 1); several can share a record.
    var expected: [Int] = []
    for finding in findings where expected.last != finding.line - 1 { expected.append(finding.line - 1) }
    var driver = StepDriver(legacy)
    var visited: [Int] = []
    for _ in expected {
      driver.press("f")
      visited.append(driver.state.cursor)
    }
    #expect(visited == expected)
    driver.press("f")
    #expect(driver.state.message == "no finding after this event")
    driver.press("F")
    #expect(driver.state.cursor == expected[expected.count - 2])
    driver.press("g F")
    #expect(driver.state.message == "no finding before this event")
    var clean = StepDriver(intended)
    clean.press("f")
    #expect(clean.state.cursor == 0)
    #expect(clean.state.message == "no findings in this journal")
  }

  @Test func jumpGoesToTheEventWithThatSeq() {
    for seq in [0, 1, 17, 42, 67] {
      #expect(state(intended, ":\(seq)").cursor == seq)
    }
    #expect(state(intended, ":1,2").cursor == 12)
    let missing = state(intended, "l :68")
    #expect(missing.cursor == 1)
    #expect(missing.message == "no event with seq 68 (seq 0…67)")
    let wrong = state(intended, "l :x1")
    #expect(wrong.cursor == 1)
    #expect(wrong.message == "not a seq: x1")
    #expect(state(intended, "l :").cursor == 1)
  }

  @Test func promptsEditCancelAndShowWhatIsTyped() {
    var driver = StepDriver(intended)
    driver.type([.character(":"), .character("4"), .character("2")])
    #expect(driver.state.prompt == .init(kind: .jump, text: "42"))
    #expect(driver.screen[22].hasPrefix(":42█"))
    driver.type([.backspace])
    #expect(driver.state.prompt == .init(kind: .jump, text: "4"))
    driver.type([.escape])
    #expect(driver.state.mode == .browsing)
    #expect(driver.state.cursor == 0)
    driver.type([.character("/"), .character("x"), .backspace, .backspace])
    #expect(driver.state.mode == .browsing)
    // Keys that are commands elsewhere are text in a prompt.
    driver.type([.character(":"), .character("q"), .character("G"), .right])
    #expect(driver.state.prompt == .init(kind: .jump, text: "qG"))
    #expect(!driver.state.quit)
    driver.type([.enter])
    #expect(driver.state.message == "not a seq: qG")
  }

  @Test func searchFindsTheNextEventWhoseTextMatches() {
    let matches = records.indices.filter {
      records[$0].event.sentence.contains("didAppear")
    }
    let first = state(intended, "/didAppear")
    #expect(first.cursor == matches[0])
    #expect(first.search == .init(text: "didAppear", forward: true))
    #expect(state(intended, "/didAppear n").cursor == matches[1])
    #expect(state(intended, "/didAppear n n N").cursor == matches[1])
    // Backwards from the start wraps around to the last match.
    let back = state(intended, "?didAppear")
    #expect(back.cursor == matches.last)
    #expect(back.message == "search went past the start and continued from the end")
    #expect(state(intended, "?didAppear n").cursor == matches[matches.count - 2])
    #expect(state(intended, "?didAppear N").cursor == matches[0])
    // Forwards past the last match wraps to the first.
    let wrapped = state(intended, "G /didAppear")
    #expect(wrapped.cursor == matches[0])
    #expect(wrapped.message == "search went past the end and continued from the start")
    // `/` then Enter repeats the last search forwards.
    #expect(state(intended, "/didAppear /").cursor == matches[1])
  }

  @Test func searchLooksAtTheTypeAndIgnoresCaseForLowercaseText() {
    let firstMove = records.firstIndex {
      if case .move = $0.event { return true }
      return false
    }
    #expect(state(intended, "/move").cursor == firstMove)
    let lower = state(intended, "/didappear").cursor
    #expect(lower == state(intended, "/didAppear").cursor)
    let exact = state(intended, "l /DidAppear")
    #expect(exact.cursor == 1)
    #expect(exact.message == "not found: DidAppear")
    #expect(state(intended, "n").message == "no search yet: / searches forwards, ? backwards")
    #expect(state(intended, "/").message == "nothing to search for")
  }

  @Test func helpOpensWithHOrF1OrAQuestionMarkAndEnterAndAnyKeyClosesIt() {
    for keys in ["H", "F1", "?"] {
      let shown = state(intended, keys)
      #expect(shown.isHelpVisible, "\(keys)")
      #expect(shown.cursor == 0)
      let closed = state(intended, keys + " l")
      #expect(!closed.isHelpVisible)
      #expect(closed.cursor == 0, "the key that closes the help does nothing else")
    }
    // q closes the help; a second q quits.
    let q = state(intended, "H q")
    #expect(!q.isHelpVisible)
    #expect(!q.quit)
    #expect(state(intended, "H q q").quit)
  }

  @Test func quitAndUnknownKeys() {
    #expect(state(intended, "l q").quit)
    #expect(state(intended, "l q").cursor == 1)
    let unknown = state(intended, "x")
    #expect(unknown.message == "x does nothing here; H shows the keys")
    #expect(state(intended, "Tab").message == "Tab does nothing here; H shows the keys")
    #expect(state(intended, "d").message == "d and D jump between divergences of 'step A B'")
    // A message lasts one key.
    #expect(state(intended, "x l").message == nil)
  }

  /// The table of bindings is what the stepper dispatches: every key it lists
  /// does something, in the scope it is listed for, and nothing else does.
  @Test func everyKeyOfTheTableIsDispatchedAndNoOther() {
    for comparison in [false, true] {
      var listed: Set<StepperKey> = []
      for binding in StepperBinding.table where binding.applies(comparison: comparison) {
        for label in binding.labels {
          switch label {
          case .key(let key, let action):
            listed.insert(key)
            #expect(StepperBinding.action(of: key, comparison: comparison) == action, "\(key)")
          case .prompt(let text, let action):
            let key = StepperKey.character(text.first!)
            listed.insert(key)
            #expect(StepperBinding.action(of: key, comparison: comparison) == action, "\(text)")
          case .typed:
            break
          }
        }
      }
      let others: [StepperKey] = [.tab, .backspace, .character("x"), .character("Z"), .character("1")]
      for key in others {
        #expect(!listed.contains(key))
        #expect(StepperBinding.action(of: key, comparison: comparison) == nil, "\(key)")
      }
    }
    // A key of the other scope still reaches its action, which says what it is for.
    #expect(StepperBinding.action(of: .character("d"), comparison: false) == .nextDivergence)
    #expect(StepperBinding.action(of: .character("n"), comparison: false) == .repeatSearch)
    #expect(StepperBinding.action(of: .character("n"), comparison: true) == .nextDivergence)
  }

  @Test func emptyJournal() {
    let stepper = Stepper(journal: StepperJournal(name: "empty", records: []))
    for keys in ["l", "h", "G", "g", "]", "f", "/x", ":3", "PgDn"] {
      let state = state(stepper, keys)
      #expect(state.cursor == 0)
    }
    let screen = stepper.render(stepper.start(), size: (80, 24))
    #expect(screen.count == 24)
    #expect(screen[23] == "seq - / 0 · the journal has no events")
    #expect(screen.contains { $0.contains("(the journal has no events)") })
  }

  @Test func findingsStillBeingComputed() {
    let pending = Stepper(journal: StepperJournal(name: "p", records: records, findings: nil))
    #expect(!pending.isChecked)
    let state = state(pending, "f")
    #expect(state.message == "the findings are not computed yet: the check is still running")
    let screen = pending.render(state, size: (80, 24))
    #expect(screen.contains("findings: checking the journal…"))
    #expect(screen[23].hasSuffix("findings …"))
    let checked = pending.withFindings(Checker.check(records).map(CheckFinding.rule))
    #expect(checked.isChecked)
  }
}

/// The keys of the side-by-side view that look at both runs: moves and findings.
@Suite struct StepComparisonKeyTests {
  let stepper = StepFixture.comparison()

  var comparison: StepperComparison {
    guard case .comparison(let comparison) = stepper.source else { preconditionFailure("a comparison") }
    return comparison
  }

  /// Rows visited by pressing `key` from `start` until it says there is no more.
  func visits(_ key: String, from start: String = "g") -> (rows: [Int], message: String?) {
    var driver = StepDriver(stepper)
    driver.press(start)
    var rows: [Int] = []
    for _ in 0..<200 {
      driver.press(key)
      if driver.state.message != nil { return (rows, driver.state.message) }
      rows.append(driver.state.cursor)
    }
    return (rows, nil)
  }

  @Test func bracketsVisitEveryRowWithAMoveOnEitherSide() {
    let c = comparison
    func isMove(_ side: DiffSide, _ row: Int) -> Bool {
      guard let token = c.token(side, atRow: row) else { return false }
      if case .move = (side == .a ? c.report.a : c.report.b).event(at: token) { return true }
      return false
    }
    let expected = (1..<c.rowCount).filter { isMove(.a, $0) || isMove(.b, $0) }
    let forward = visits("]")
    #expect(forward.rows == expected)
    #expect(forward.message == "no move after this row")
    let backward = visits("[", from: "G")
    #expect(backward.rows == Array(expected.reversed()))
    #expect(backward.message == "no move before this row")
  }

  @Test func findingKeysVisitTheRowOfEveryFindingOnEitherSide() throws {
    let c = comparison
    try #require(c.a.findings.isEmpty && c.b.findings.count > 10)
    // A finding on an event that is not compared shows at the side's next compared event.
    var expected = Set<Int>()
    for record in c.b.findingRecords {
      if let row = c.firstRow(.b, atOrAfterRecord: Int(record)) { expected.insert(row) }
    }
    let forward = visits("f")
    #expect(forward.rows == expected.filter { $0 > 0 }.sorted())
    #expect(forward.message == "no finding after this row")
    let backward = visits("F", from: "G")
    #expect(backward.rows == expected.filter { $0 < c.rowCount - 1 }.sorted().reversed())
    #expect(visits("/x").message == "search works on one journal; in 'step A B' d/D and n/N jump between divergences")
  }
}

/// The search index finds what scanning every event's text finds, from every
/// place, both ways, smart case included.
@Test func theSearchIndexFindsWhatAScanFinds() {
  for profile in [Profile.intended, .legacy] {
    let records = StepFixture.records(profile)
    let text = SearchIndex.Text(records)
    #expect(text.starts.count == records.count + 1)
    for needle in ["didAppear", "didappear", "DidAppear", "home", "→", "pan on", "1 finger", "zzz", "", "e", "(left"] {
      let matcher = TextMatcher(needle)
      for cursor in records.indices {
        for forward in [true, false] {
          let indexed = matcher.find(in: text, from: cursor, forward: forward)
          let scanned = Stepper.scan(records, matcher, from: cursor, forward: forward)
          #expect(indexed == scanned, "\(profile) '\(needle)' from \(cursor) \(forward ? "forwards" : "backwards")")
        }
      }
    }
  }
}

/// `prepareSearch` builds the index ahead of the first search, for every copy of the journal.
@Test func prepareSearchBuildsTheIndexForEveryCopy() {
  let journal = StepFixture.journal(.intended)
  let copy = journal.withFindings([])
  #expect(!journal.searchIndex.isBuilt)
  copy.prepareSearch()
  #expect(journal.searchIndex.isBuilt)
  let stepper = Stepper(journal: journal)
  var state = stepper.start()
  for key in StepperKey.sequence(named: "/didAppear")! { state = stepper.handle(key, in: state) }
  #expect(state.cursor > 0)
}
