import Journal
import Testing

@testable import Projection
@testable import TestSupport

/// The fold finds a record's controllers at the positions they most likely have (the focus, the
/// last controller allocated, the neighbour a move goes to, a position its caller knows) before it
/// asks the index. On journals that do not follow the map, with ids of one length that differ in a
/// byte, ids reused after their dealloc and ids that never were, every controller must still resolve
/// as a plain table of ids says: the same anomalies, the same focus, the same state whichever way
/// the fold is driven (`reduce`, the checker with its positions).
@Suite struct FoldResolutionTests {
  /// Ids of one length (small strings, and 24 bytes in the heap) and a few of other lengths.
  static let pool: [String] =
    (1...6).map { "S\($0)#1" } + (10...17).map { "ComposeViewController#\($0)" } + ["ComposeViewController#1", "X"]

  /// A fresh string with the id's bytes (its own storage), or the pool's (shared), at random.
  static func id(_ k: Int, _ random: inout SplitMix64) -> ControllerID {
    let text = pool[k]
    return random.next() % 2 == 0 ? ControllerID(text) : ControllerID(String(decoding: Array(text.utf8), as: UTF8.self))
  }

  /// A journal of `count` random events over the pool.
  static func journal(seed: UInt64, count: Int) -> [Record] {
    var random = SplitMix64(seed: seed)
    var builder = RecordBuilder()
    func pick() -> ControllerID { id(Int(random.next() % UInt64(pool.count)), &random) }
    func direction() -> Direction { Direction.allCases[Int(random.next() % 4)] }
    for _ in 0..<count {
      switch random.next() % 12 {
      case 0, 1: builder.add(.alloc(controller: pick(), className: "C"))
      case 2: builder.add(.dealloc(controller: pick()))
      case 3, 4: builder.move(pick(), direction(), pick())
      case 5: builder.link(pick(), direction(), pick())
      case 6: builder.unlink(pick(), direction())
      case 7: builder.add(.modal(controller: pick(), presenter: pick()))
      case 8:
        builder.add(
          .pan(
            Pan(
              controller: pick(), direction: direction(), touches: 1, distance: 10, velocity: 100,
              outcome: random.next() % 2 == 0 ? .committed : .blocked)))
      case 9: builder.add(.touches(controller: pick(), direction: direction(), min: 2))
      case 10: builder.root(pick())
      default: builder.callback(pick(), Callback.allCases[Int(random.next() % 5)])
      }
    }
    return builder.records
  }

  /// The ids a record's fold resolves, in the fold's order (one when both are the same id).
  static func resolved(_ event: Event) -> [ControllerID] {
    switch event {
    case .root(let id), .touches(let id, _, _), .lifecycle(let id, _), .dealloc(let id): return [id]
    case .unlink(let from, _): return [from]
    case .pan(let pan): return [pan.controller]
    case .move(let move): return move.from == move.to ? [move.from] : [move.from, move.to]
    case .link(let from, _, let to): return from == to ? [from] : [from, to]
    case .modal(let modal, let presenter): return modal == presenter ? [modal] : [modal, presenter]
    case .session, .alloc, .mark, .unknown: return []
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func everyControllerResolvesAsATableOfIDsSays(seed: UInt64) {
    let records = Self.journal(seed: seed, count: 3_000)
    var state = State()
    // The reference: ids by their bytes, alive or not; the focus a move or the first root sets.
    var alive: [[UInt8]: Bool] = [:]
    var focus: [UInt8]?
    var resolutions = 0
    for record in records {
      let anomalies = reduce(into: &state, record)
      let found = anomalies.compactMap { anomaly -> String? in
        switch anomaly.fact {
        case .unknownController(let id): return "unknown \(id)"
        case .useAfterDealloc(let id): return "dead \(id)"
        default: return nil
        }
      }
      var expected: [String] = []
      var all = true
      for id in Self.resolved(record.event) {
        switch alive[Array(id.rawValue.utf8)] {
        case nil: expected.append("unknown \(id)")
        case false?: expected.append("dead \(id)")
        case true?: resolutions += 1
        }
        if alive[Array(id.rawValue.utf8)] != true { all = false }
      }
      #expect(found == expected, "seq \(record.seq): \(record.event)")
      switch record.event {
      case .alloc(let id, _): alive[Array(id.rawValue.utf8)] = true
      case .dealloc(let id) where all: alive[Array(id.rawValue.utf8)] = false
      case .move(let move) where all: focus = Array(move.to.rawValue.utf8)
      case .root(let id) where all && focus == nil: focus = Array(id.rawValue.utf8)
      default: break
      }
      #expect(state.focus.map { Array($0.rawValue.utf8) } == focus, "seq \(record.seq)")
    }
    // The journals resolve controllers, not only fail to.
    #expect(resolutions > 1_000)

    // The checker folds with the positions it looked up: the same state.
    var checker = Checker()
    var findings: [Finding] = []
    for (k, record) in records.enumerated() { checker.check(record, line: k + 1, into: &findings) }
    #expect(checker.state == state)
  }
}
