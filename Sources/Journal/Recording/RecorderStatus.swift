/// What a ``Recorder`` has done so far: counts, its state and its last fault.
///
/// At any time `accepted == written + lost + queued`; after ``Recorder/close()``
/// nothing is queued.
public struct RecorderStatus: Sendable, Hashable {
  /// Where the recorder stands.
  public enum State: Sendable, Hashable {
    /// Recording and writing normally.
    case running
    /// The last write failed; the writer keeps the events and tries again.
    case retrying
    /// A fault stopped it (``RecorderOptions/FaultPolicy/stop``): nothing more is written.
    case stopped
    /// ``Recorder/close()`` ran.
    case closed
  }

  /// Events taken into the queue (the calls that were not dropped).
  public var accepted = 0
  /// Events written to the journal (the recorder's own `recorder.dropped` marks not counted).
  public var written = 0
  /// Events a call dropped: the queue was full under `dropNewest`, or the recorder
  /// was stopped or closed.
  public var dropped = 0
  /// Accepted events that were never written: discarded when a fault stopped the
  /// recorder, or when ``Recorder/close()`` could not write them.
  public var lost = 0
  /// Where the recorder stands.
  public var state = State.running
  /// The last fault, if any (the journal's path and the system's reason).
  public var lastFault: JournalFileError?
  /// How many faults the writer met.
  public var faults = 0

  public init() {}

  /// Events accepted but not yet written or lost.
  public var queued: Int { accepted - written - lost }
}
