import Journal

/// What a ``TraceBuilder`` reads of the model's fold around one record, in a
/// byte: the checker folds the journal anyway (a ``CheckerPass`` made for the
/// trace, on its own thread, or the ``JournalCheck`` of an item-by-item
/// trace), and the trace reads these rather than folding it a second time.
///
/// Implementation note: the trace folded beside the checker, which cost a
/// sixth of its main thread (Benchmarks/README.md, the trace's section).
struct TraceFacts: Sendable {
  var bits: UInt8

  /// Before an alloc or a dealloc, its controller was allocated and alive.
  private static let aliveBefore: UInt8 = 1
  /// After a lifecycle record, its controller is allocated and alive (its phase in ``phaseShift``).
  private static let alive: UInt8 = 2
  private static let phaseShift: UInt8 = 2
  /// After a move, the model accepted it (the fold's transition is this move's).
  private static let accepted: UInt8 = 16
  /// After a root, the model's root is this controller.
  private static let isRoot: UInt8 = 32

  init(bits: UInt8) { self.bits = bits }

  /// Whether the record's controller was allocated and alive before it (an alloc or a dealloc).
  var wasAlive: Bool { bits & Self.aliveBefore != 0 }
  /// The lifecycle record's controller's phase after it, nil unless it is allocated and alive.
  var phase: ControllerState.Phase? {
    guard bits & Self.alive != 0 else { return nil }
    switch bits >> Self.phaseShift & 3 {
    case 0: return .appearing
    case 1: return .appeared
    case 2: return .disappearing
    default: return .disappeared
    }
  }
  /// Whether the model accepted the move.
  var moveAccepted: Bool { bits & Self.accepted != 0 }
  /// Whether the model's root is the root record's controller after it.
  var rootTaken: Bool { bits & Self.isRoot != 0 }

  /// The facts of `state` before `record` is folded.
  @inline(__always)
  static func before(_ record: Record, in state: State, _ recent: inout RecentIDs) -> UInt8 {
    switch record.event {
    case .alloc(let id, _), .dealloc(let id):
      if let p = recent.position(of: id, in: state), state.store[Int(p)].isAlive { return aliveBefore }
      return 0
    default:
      return 0
    }
  }

  /// The facts of `state` once `record` is folded, with those of ``before(_:in:_:)``.
  @inline(__always)
  static func after(_ record: Record, in state: State, before: UInt8, _ recent: inout RecentIDs) -> TraceFacts {
    var bits = before
    switch record.event {
    case .lifecycle(let id, _):
      if let p = recent.position(of: id, in: state), state.store[Int(p)].isAlive {
        bits |= alive | state.store[Int(p)].phase.index << phaseShift
      }
    case .move:
      if state.transition?.seq == record.seq { bits |= accepted }
    case .root(let id):
      if state.root == id { bits |= isRoot }
    default:
      break
    }
    return TraceFacts(bits: bits)
  }
}

extension ControllerState.Phase {
  /// The phase's two bits in ``TraceFacts``.
  fileprivate var index: UInt8 {
    switch self {
    case .appearing: 0
    case .appeared: 1
    case .disappearing: 2
    case .disappeared: 3
    }
  }
}
