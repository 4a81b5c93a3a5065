import Journal

/// One visit of a controller: from its didAppear to its next willDisappear.
///
/// A controller that got its willAppear but never its didAppear was still on
/// display: its visit counts from the willAppear and is *incomplete*
/// (``isComplete`` false), never silently left out.
///
/// A controller deallocated while visible ends its visit at its `dealloc`; a
/// visit still going on at the end of the journal is *open* and lasts up to
/// the journal's last event.
public struct Visit: Sendable, Hashable {
  public var controller: ControllerID
  /// The class of its `alloc`, nil if it was never allocated.
  public var className: String?
  /// 1 for the controller's first visit in the session, then 2, 3...
  public var number: Int
  public var startSeq: Int
  public var startTime: Timestamp
  /// `seq` of the willDisappear or dealloc that ended it; nil when open.
  public var endSeq: Int?
  /// When it ended; for an open visit, the time of the journal's last event.
  public var endTime: Timestamp
  /// False when didAppear never came: the visit runs from the willAppear.
  public var isComplete: Bool

  public init(
    controller: ControllerID, className: String?, number: Int, startSeq: Int, startTime: Timestamp, endSeq: Int?,
    endTime: Timestamp, isComplete: Bool = true
  ) {
    self.controller = controller
    self.className = className
    self.number = number
    self.startSeq = startSeq
    self.startTime = startTime
    self.endSeq = endSeq
    self.endTime = endTime
    self.isComplete = isComplete
  }

  /// Whether the visit had not ended by the end of the journal.
  public var isOpen: Bool { endSeq == nil }

  /// How long it lasted, in microseconds (never negative).
  public var dwellMicroseconds: Int64 { max(0, endTime.microseconds - startTime.microseconds) }

  /// How long it lasted, in milliseconds.
  public var dwellMilliseconds: Double { Double(dwellMicroseconds) / 1000 }
}
