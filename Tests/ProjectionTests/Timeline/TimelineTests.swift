import Journal
import Testing

@testable import Projection
@testable import TestSupport

@Suite struct TimelineTests {
  /// A random journal over a small pool of ids: every event type, including
  /// ones that break the model (unknown ids, links to deallocated controllers,
  /// self links, moves from a controller that is not the focus).
  static func randomJournal(seed: UInt64, count: Int) -> [Record] {
    var random = SeededRandom(seed: seed)
    let pool: [ControllerID] = (0..<12).map { ControllerID("c\($0)") }
    var records = [Record(seq: 0, time: .modelEpoch, event: .session(SessionHeader(session: "R\(seed)")))]
    var time = Timestamp.modelEpoch
    func id() -> ControllerID { pool.randomElement(using: &random)! }
    func direction() -> Direction { Direction.allCases.randomElement(using: &random)! }
    while records.count < count {
      time = time.adding(milliseconds: Int64.random(in: 0...3, using: &random))
      let event: Event
      switch Int.random(in: 0..<15, using: &random) {
      case 0, 1: event = .alloc(controller: id(), className: "C")
      case 2: event = .root(controller: id())
      case 3, 4: event = .link(from: id(), direction: direction(), to: id())
      case 5: event = .unlink(from: id(), direction: direction())
      case 6: event = .modal(controller: id(), presenter: id())
      case 7: event = .touches(controller: id(), direction: direction(), min: Int.random(in: 1...3, using: &random))
      case 8:
        event = .pan(
          Pan(
            controller: id(), direction: direction(), touches: 1, distance: 60, velocity: 0,
            outcome: PanOutcome.allCases.randomElement(using: &random)!))
      case 9:
        event = .move(
          Move(
            from: id(), to: id(), direction: direction(), trigger: MoveTrigger.allCases.randomElement(using: &random)!,
            animated: Bool.random(using: &random)))
      case 10, 11: event = .lifecycle(controller: id(), callback: Callback.allCases.randomElement(using: &random)!)
      case 12: event = .dealloc(controller: id())
      case 13: event = .mark(label: "m", fields: [])
      default: event = .unknown(type: "future", raw: "{}")
      }
      records.append(Record(seq: records.count, time: time, event: event))
    }
    return records
  }

  /// The state after each record, by folding the journal once (folding each prefix).
  static func prefixStates(_ records: [Record]) -> [State] {
    var state = State()
    return records.map { record in
      reduce(into: &state, record)
      return state
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var seed: UInt64
    var count: Int
    var interval: Int
    var testDescription: String { "seed \(seed), \(count) events, a snapshot every \(interval)" }
  }

  static let cases = [
    Case(seed: 1, count: 600, interval: 256),
    Case(seed: 2, count: 500, interval: 7),
    Case(seed: 3, count: 300, interval: 1),
    Case(seed: 4, count: 257, interval: 64),
    Case(seed: 5, count: 1, interval: 256),
  ]

  @Test(arguments: cases)
  func everyPositionEqualsFoldingThePrefix(_ c: Case) throws {
    let records = Self.randomJournal(seed: c.seed, count: c.count)
    let expected = Self.prefixStates(records)
    if c.count > 100 {
      // The generator exercises the model: controllers, links and moves, and anomalies.
      let end = try #require(expected.last)
      #expect(end.controllerCount > 3 && end.counters.moves > 0 && end.counters.anomalies > 0)
    }
    var timeline = Timeline(records: records, interval: c.interval)
    #expect(timeline.index == records.count - 1)
    #expect(timeline.state == expected.last)
    #expect(timeline.snapshotCount == records.count / c.interval + 1)

    // Backwards, one step at a time, to before the first record.
    var mismatches: [Int] = []
    for i in stride(from: records.count - 1, through: 0, by: -1) {
      if timeline.index != i || timeline.state != expected[i] { mismatches.append(i) }
      let stepped = timeline.stepBackward()
      #expect(stepped)
    }
    #expect(timeline.index == -1)
    #expect(timeline.state == State())
    let steppedBeforeFirst = timeline.stepBackward()
    #expect(!steppedBeforeFirst)

    // Forwards again.
    for i in 0..<records.count {
      let stepped = timeline.stepForward()
      #expect(stepped)
      if timeline.state != expected[i] { mismatches.append(i) }
    }
    let steppedAfterLast = timeline.stepForward()
    #expect(!steppedAfterLast)

    // Random jumps, by seq and by index, and `state(at:)` without moving.
    var random = SeededRandom(seed: c.seed &* 31)
    for _ in 0..<200 {
      let i = Int.random(in: 0..<records.count, using: &random)
      let found = timeline.jump(toSeq: records[i].seq)
      #expect(found)
      if timeline.state != expected[i] || timeline.seq != records[i].seq { mismatches.append(i) }
      let j = Int.random(in: 0..<records.count, using: &random)
      if timeline.state(at: j) != expected[j] { mismatches.append(j) }
      let k = Int.random(in: -3...3, using: &random)
      let before = timeline.index
      let moved = timeline.step(by: k)
      #expect(timeline.index == min(max(before + k, -1), records.count - 1))
      #expect(moved == timeline.index - before)
      if timeline.index >= 0, timeline.state != expected[timeline.index] { mismatches.append(timeline.index) }
    }
    #expect(mismatches.isEmpty, "positions whose state differs from folding the prefix: \(mismatches.prefix(10))")
  }

  @Test func firstLastAndEmpty() {
    let records = Self.randomJournal(seed: 9, count: 40)
    var timeline = Timeline(records: records, interval: 8)
    timeline.first()
    #expect(timeline.index == 0)
    #expect(timeline.state.header?.session == "R9")
    #expect(timeline.state.counters.events == 1)
    timeline.last()
    #expect(timeline.index == 39)
    #expect(timeline.state.counters.events == 40)
    #expect(timeline.seqRange == 0...39)

    var empty = Timeline(records: [])
    #expect(empty.index == -1)
    #expect(empty.state == State())
    #expect(empty.seqRange == nil)
    let stepped = empty.stepForward()
    let jumped = empty.jump(toSeq: 0)
    #expect(!stepped && !jumped)
    empty.first()
    #expect(empty.index == -1)
  }

  @Test func seqsWithGapsAndRepeatsAreFoundByValue() {
    // seq 0, 1, 5, 6, 6, 9: a gap, then a repeated 6 (the first one is found).
    var records = Self.randomJournal(seed: 11, count: 6)
    for (i, seq) in [0, 1, 5, 6, 6, 9].enumerated() { records[i].seq = seq }
    let expected = Self.prefixStates(records)
    var timeline = Timeline(records: records, interval: 2)
    #expect(timeline.seqRange == 0...9)
    #expect(timeline.index(ofSeq: 5) == 2)
    #expect(timeline.index(ofSeq: 6) == 3)
    #expect(timeline.index(ofSeq: 2) == nil)
    #expect(timeline.state(afterSeq: 4) == nil)
    let found9 = timeline.jump(toSeq: 9)
    #expect(found9)
    #expect(timeline.state == expected[5])
    let found6 = timeline.jump(toSeq: 6)
    #expect(found6)
    #expect(timeline.index == 3)
    #expect(timeline.state == expected[3])
    let found7 = timeline.jump(toSeq: 7)
    #expect(!found7)
    #expect(timeline.index == 3)
  }

  @Test func loadReadsAFileAndReportsItsFindings() throws {
    var bytes = FixtureJournal.notesApp.bytes
    bytes += Array("not json\n".utf8)
    let path = TemporaryFiles.journal(bytes)
    let (timeline, diagnostics) = try Timeline.load(path: path, interval: 4)
    #expect(timeline.records == FixtureJournal.notesApp.records)
    #expect(timeline.state == FixtureJournal.notesApp.state)
    #expect(diagnostics.map(\.rule) == [.malformed])
    #expect(throws: JournalFileError.self) { try Timeline.load(path: path + ".missing") }
  }
}
