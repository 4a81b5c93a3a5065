import Foundation
import Journal
import Rendering
import Testing

@testable import Projection

/// The trace reads the checker's fold (each record's ``RecordFacts``) rather than
/// folding the journal itself: what it draws from the fold must be what the fold
/// says, item by item and in batches checked apart.
@Suite struct TraceFactsTests {
  /// Records as items, one a line.
  static func items(_ events: [Event]) -> [JournalItem] {
    events.enumerated().map { k, event in
      let time = Timestamp(microseconds: Timestamp.modelEpoch.microseconds + Int64(k) * 1000)
      return .record(Record(seq: k + 1, time: time, event: event), line: k + 1, offset: Int64(k * 100))
    }
  }

  /// The threads' names of a Chrome trace, by tid.
  static func threadNames(_ bytes: [UInt8]) throws -> [String] {
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    let events = try #require(document["traceEvents"] as? [[String: Any]])
    return events.filter { $0["name"] as? String == "thread_name" }.compactMap {
      ($0["args"] as? [String: Any])?["name"] as? String
    }
  }

  /// A reused id names its class as the fold does: a fresh instance (after a dealloc) takes the
  /// new class, an alive one keeps its own; allocs before and after the controller is first drawn.
  @Test func aThreadIsNamedWithTheClassTheFoldKeeps() throws {
    let items = Self.items([
      .alloc(controller: "home", className: "Home"),
      .root(controller: "home"),
      .lifecycle(controller: "home", callback: .didLoad),
      .alloc(controller: "b", className: "First"),
      .lifecycle(controller: "b", callback: .didLoad),
      .dealloc(controller: "b"),
      .alloc(controller: "b", className: "Second"),
      .alloc(controller: "c", className: "Kept"),
      .alloc(controller: "c", className: "Ignored"),
      .lifecycle(controller: "c", callback: .didLoad),
      .lifecycle(controller: "never", callback: .didLoad),
    ])
    let whole = TraceWriter.document(format: .chrome, runs: [("t.ndjson", items)])
    let names = try Self.threadNames(whole)
    #expect(names.contains("home (Home)"))
    #expect(names.contains("b (Second)"))
    #expect(names.contains("c (Kept)"))
    #expect(names.contains("never"))
    var state = State()
    for case .record(let record, _, _) in items { reduce(into: &state, record) }
    #expect(state[controller: "b"]?.className == "Second")
    #expect(state[controller: "c"]?.className == "Kept")

    // Batches checked apart by a pass made for the trace give the same bytes.
    var trace = TraceWriter(format: .chrome)
    var pass = CheckerPass(facts: true)
    trace.beginRun(file: "t.ndjson")
    for start in stride(from: 0, to: items.count, by: 3) {
      var batch = JournalBatch(Array(items[start..<min(items.count, start + 3)]))
      let checked = pass.check(&batch)
      trace.consume(&batch, checked: checked)
    }
    trace.endRun(checked: pass.finish())
    trace.finish()
    var bytes: [UInt8] = []
    trace.drain { bytes.append(contentsOf: $0) }
    #expect(bytes == whole)
  }

  /// The facts of the fold around records, against the fold itself.
  @Test func factsSayWhatTheFoldSays() {
    let records = Self.items([
      .alloc(controller: "home", className: "Home"),
      .alloc(controller: "next", className: "Next"),
      .root(controller: "home"),
      .lifecycle(controller: "home", callback: .willAppear),
      .lifecycle(controller: "home", callback: .didAppear),
      .move(Move(from: "home", to: "next", direction: .right, trigger: .programmatic, animated: false)),
      .lifecycle(controller: "next", callback: .willAppear),
      .dealloc(controller: "gone"),
      .dealloc(controller: "next"),
    ]).compactMap { item -> Record? in
      guard case .record(let record, _, _) = item else { return nil }
      return record
    }
    var state = State()
    var recent = RecentIDs()
    for record in records {
      let before = RecordFacts.before(record, in: state, &recent)
      let aliveBefore = record.event.controllers.first.map { state.isAlive($0) } ?? false
      reduce(into: &state, record)
      let facts = RecordFacts.after(record, in: state, before: before, &recent)
      switch record.event {
      case .alloc, .dealloc:
        #expect(facts.wasAlive == aliveBefore, "\(record.event)")
      case .lifecycle(let id, _):
        #expect(facts.phase == (state.isAlive(id) ? state[controller: id]?.phase : nil), "\(record.event)")
      case .move:
        #expect(facts.moveAccepted == (state.transition?.seq == record.seq))
        #expect(facts.moveAccepted)
      case .root(let id):
        #expect(facts.rootTaken == (state.root == id))
        #expect(facts.rootTaken)
      default:
        break
      }
    }
  }
}
