import Journal

/// One `move` of a journal and what became of its transition.
public struct MoveSummary: Sendable, Hashable {
  public var move: Move
  public var line: Int
  public var seq: Int
  public var time: Timestamp
  /// When the last of its four callbacks (`from.W-`, `to.W+`, `from.D-`, `to.D+`) arrived;
  /// nil when the next move or the end of the journal came first.
  public var completedAt: Timestamp?

  public init(move: Move, line: Int, seq: Int, time: Timestamp, completedAt: Timestamp?) {
    self.move = move
    self.line = line
    self.seq = seq
    self.time = time
    self.completedAt = completedAt
  }

  /// Milliseconds from the move to its last callback; nil when not completed.
  public var durationMilliseconds: Double? {
    completedAt.map { Double($0.microseconds - time.microseconds) / 1000 }
  }
}
