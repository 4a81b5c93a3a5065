import Journal

/// One place where a recording differs from what the reference model predicts
/// for the same inputs (`check --model`, rule `model-divergence`).
///
/// A divergence is one hunk of the comparison of one input's events: the events
/// the model expects there and those the recording has, anchored at the first
/// recorded line that differs, with the last few matching events before it.
///
/// ```text
/// j.ndjson:14: error: intended model expects notes didAppear; found notes willAppear (in move at seq 9: home → notes) [model-divergence]
///      11 = home willDisappear
///      12 = notes willAppear
///      13 = home didDisappear
///         - notes didAppear
///      14 + notes willAppear
/// ```
public struct ModelDivergence: Sendable, Hashable {
  /// A recorded event and its line.
  public struct Entry: Sendable, Hashable {
    public var line: Int
    public var record: Record
  }

  /// The finding: rule `model-divergence`, the anchor's line and `seq`, a one-line message.
  public var finding: Finding
  /// The last matching recorded events before the divergence (at most three).
  public var context: [Entry]
  /// What the model writes there (its own `seq` and `time`), in order; empty when
  /// the recording has extra events or the model refused the input.
  public var expected: [Record]
  /// What the recording has there instead, in order.
  public var found: [Entry]
  /// The recorded event right after a divergence that only misses events (where
  /// they were expected), if the journal goes on.
  public var following: Entry?

  public init(finding: Finding, context: [Entry], expected: [Record], found: [Entry], following: Entry? = nil) {
    self.finding = finding
    self.context = context
    self.expected = expected
    self.found = found
    self.following = following
  }
}
