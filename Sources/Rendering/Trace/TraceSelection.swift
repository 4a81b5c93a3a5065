import Journal

/// Which parts of a journal a trace draws: a slice or span by the event that
/// begins it (a visit by its didAppear, an incomplete one by its willAppear),
/// an instant by its event, a finding by its line's event, as `export` selects
/// the rows of its tables.
///
/// The model still folds every event: a window changes what is drawn, never
/// the state or the findings.
public struct TraceSelection: Sendable, Hashable {
  public var seqs: ClosedRange<Int>
  public var since: Timestamp?
  public var until: Timestamp?
  /// Only what names one of these controllers (every controller when empty).
  public var controllers: Set<ControllerID>

  public init(
    seqs: ClosedRange<Int> = 0...Int.max, since: Timestamp? = nil, until: Timestamp? = nil,
    controllers: Set<ControllerID> = []
  ) {
    self.seqs = seqs
    self.since = since
    self.until = until
    self.controllers = controllers
  }

  /// Everything.
  public static let all = TraceSelection()

  /// Whether an item that begins at `seq` and `time` is drawn (its controllers apart).
  @inline(__always)
  func selects(seq: Int, time: Timestamp) -> Bool {
    guard seqs.contains(seq) else { return false }
    if let since, time < since { return false }
    if let until, time > until { return false }
    return true
  }

  /// Whether a controller's thread or spans are drawn.
  @inline(__always)
  func selects(_ controller: ControllerID) -> Bool {
    controllers.isEmpty || controllers.contains(controller)
  }
}
