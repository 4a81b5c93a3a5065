import Journal

/// Follows the transition of the last move as the fold sees it (``State/transition``,
/// the one definition of when a transition is complete): a move's row is settled
/// when its transition completes, or when the next transition replaces it or the
/// journal ends first.
///
/// A `move` the fold rejects (naming a controller that is not alive) starts no
/// transition and gets no row; the transition in flight goes on. Only one move is
/// pending at a time, so moves come out in journal order.
struct MoveTracker {
  private var pending: MoveSummary?

  /// Moves on by one record, given the state after folding it; returns the move
  /// it settled (completed, or replaced by the transition this record started).
  mutating func consume(_ record: Record, line: Int, after state: State) -> MoveSummary? {
    guard let transition = state.transition else { return nil }
    switch record.event {
    case .move, .root:
      // A move or root the fold accepted starts a transition: it replaces the pending move.
      guard transition.seq == record.seq else { return nil }
      let replaced = pending
      pending = nil
      if case .move(let move) = record.event {
        pending = MoveSummary(move: move, line: line, seq: record.seq, time: record.time, completedAt: nil)
      }
      return replaced
    case .lifecycle:
      guard transition.isComplete, var done = pending, done.seq == transition.seq else { return nil }
      done.completedAt = record.time
      pending = nil
      return done
    case .session, .alloc, .link, .unlink, .modal, .touches, .pan, .dealloc, .mark, .unknown:
      return nil
    }
  }

  /// The move still pending at the end of the journal, not completed.
  mutating func finish() -> MoveSummary? {
    defer { pending = nil }
    return pending
  }
}
