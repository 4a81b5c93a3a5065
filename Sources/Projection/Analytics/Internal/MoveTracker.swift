import Journal

/// Follows the transition of the last move: it completes when its four
/// callbacks have arrived, and is cut short by the next move or the end.
///
/// Only one move is pending at a time, so moves come out in journal order.
struct MoveTracker {
  private var pending: MoveSummary?
  /// Bit 0 `from.W-`, 1 `to.W+`, 2 `from.D-`, 3 `to.D+`.
  private var arrived: UInt8 = 0

  /// Moves on by one record; returns the move it settled (completed, or cut short by this move).
  mutating func consume(_ record: Record, line: Int) -> MoveSummary? {
    switch record.event {
    case .move(let move):
      let previous = pending
      pending = MoveSummary(move: move, line: line, seq: record.seq, time: record.time, completedAt: nil)
      arrived = 0
      return previous
    case .lifecycle(let controller, let callback):
      guard let move = pending?.move else { return nil }
      switch callback {
      case .willDisappear where controller == move.from: arrived |= 0b0001
      case .willAppear where controller == move.to: arrived |= 0b0010
      case .didDisappear where controller == move.from: arrived |= 0b0100
      case .didAppear where controller == move.to: arrived |= 0b1000
      default: return nil
      }
      guard arrived == 0b1111, var done = pending else { return nil }
      done.completedAt = record.time
      pending = nil
      return done
    default:
      return nil
    }
  }

  /// The move still pending at the end of the journal, not completed.
  mutating func finish() -> MoveSummary? {
    defer { pending = nil }
    return pending
  }
}
