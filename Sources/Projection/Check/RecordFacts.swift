import Journal

/// What the model's fold says of one record, beside the checker's findings: the
/// facts a consumer of the streaming pass reads instead of folding the journal
/// again (the trace draws phases, moves and roots from them; stats follows each
/// lifecycle record's controller by its position).
///
/// The checker's pass (``CheckerPass``, made with `facts: true`) computes them
/// once per record as it folds, in a byte and a position, and hands them on in
/// each ``CheckedBatch`` (``CheckedBatch/facts(at:)``).
public struct RecordFacts: Sendable, Hashable {
  var bits: UInt8
  /// A lifecycle record's controller's position in the fold's state (-1: not allocated). An id
  /// keeps its position for good, so a consumer may key what it keeps per controller by position
  /// and not look the id up (the checker has the position at hand).
  public internal(set) var position: Int32 = -1

  /// Before an alloc or a dealloc, its controller was allocated and alive.
  private static let aliveBefore: UInt8 = 1
  /// After a lifecycle record, its controller is allocated and alive (its phase in ``phaseShift``).
  private static let alive: UInt8 = 2
  private static let phaseShift: UInt8 = 2
  /// After a move, the model accepted it (the fold's transition is this move's).
  private static let accepted: UInt8 = 16
  /// After a root, the model's root is this controller.
  private static let isRoot: UInt8 = 32

  /// No facts: a finding's, or a record's when the pass keeps none.
  public static let none = RecordFacts(bits: 0)

  init(bits: UInt8) { self.bits = bits }

  /// Whether the record's controller was allocated and alive before it (an alloc or a dealloc).
  public var wasAlive: Bool { bits & Self.aliveBefore != 0 }
  /// The lifecycle record's controller's phase after it, nil unless it is allocated and alive.
  public var phase: ControllerState.Phase? {
    guard bits & Self.alive != 0 else { return nil }
    switch bits >> Self.phaseShift & 3 {
    case 0: return .appearing
    case 1: return .appeared
    case 2: return .disappearing
    default: return .disappeared
    }
  }
  /// Whether the model accepted the move.
  public var moveAccepted: Bool { bits & Self.accepted != 0 }
  /// Whether the model's root is the root record's controller after it.
  public var rootTaken: Bool { bits & Self.isRoot != 0 }

  /// The facts of `state` before `record` is folded.
  @inline(__always)
  package static func before(_ record: Record, in state: State, _ recent: inout RecentIDs) -> UInt8 {
    switch record.event {
    case .alloc(let id, _), .dealloc(let id):
      if let p = recent.position(of: id, in: state), state.store[Int(p)].isAlive { return aliveBefore }
      return 0
    default:
      return 0
    }
  }

  /// The facts of `state` once `record` is folded, with those of ``before(_:in:_:)``; `position`,
  /// when given, is a lifecycle record's controller's (``Checker/lifecyclePosition``, -1 for none).
  @inline(__always)
  package static func after(
    _ record: Record, in state: State, before: UInt8, position: Int32? = nil, _ recent: inout RecentIDs
  ) -> RecordFacts {
    var facts = RecordFacts(bits: before)
    switch record.event {
    case .lifecycle(let id, _):
      let known: Int32?
      if let position {
        known = position >= 0 ? position : nil
      } else {
        known = recent.position(of: id, in: state)
      }
      if let p = known {
        facts.position = p
        if state.store[Int(p)].isAlive { facts.bits |= alive | state.store[Int(p)].phase.index << phaseShift }
      }
    case .move:
      if state.transition?.seq == record.seq { facts.bits |= accepted }
    case .root(let id):
      if state.root == id { facts.bits |= isRoot }
    default:
      break
    }
    return facts
  }
}

extension ControllerState.Phase {
  /// The phase's two bits in ``RecordFacts``.
  fileprivate var index: UInt8 {
    switch self {
    case .appearing: 0
    case .appeared: 1
    case .disappearing: 2
    case .disappeared: 3
    }
  }
}
