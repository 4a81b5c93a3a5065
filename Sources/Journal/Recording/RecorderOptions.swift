/// How a ``Recorder`` queues, writes and reacts to faults.
///
/// ```swift
/// var options = RecorderOptions()
/// options.capacity = 10_000
/// options.overflow = .dropNewest
/// options.durability = .batch
/// let recorder = Recorder(path: path, header: SessionHeader(session: id), options: options)
/// ```
public struct RecorderOptions: Sendable {
  /// What a recording call does when the queue already holds ``capacity`` events.
  public enum Overflow: Sendable, Hashable {
    /// Drop the event and count it; once the writer has caught up, a `mark`
    /// `recorder.dropped` with the `count` is journaled where the loss happened.
    /// The call never waits: the choice for an app.
    case dropNewest
    /// Wait until the writer has made room (for tests and tools, which must lose nothing).
    case block
  }

  /// What the writer does when the journal cannot be written (disk full, `EIO`, a
  /// failed sync, the file removed or replaced).
  public enum FaultPolicy: Sendable, Hashable {
    /// Keep the events that failed and try again after the interval (reopening the
    /// journal if it was removed or replaced); the queue's overflow policy applies
    /// meanwhile. ``Recorder/close()`` does not wait out the interval: it tries
    /// twice more at once, then gives up (the events count as lost).
    case retry(every: Duration)
    /// Stop recording: what is queued and everything recorded later is lost (and counted).
    case stop
  }

  /// The most events the queue holds (at least 1).
  public var capacity: Int
  /// What a call does when the queue is full.
  public var overflow: Overflow
  /// What the writer does on an I/O fault.
  public var onFault: FaultPolicy
  /// When written events are forced to the storage device (see ``Durability``).
  public var durability: Durability
  /// The most events in one write to the journal.
  public var batchSize: Int

  public init(
    capacity: Int = 65_536, overflow: Overflow = .dropNewest, onFault: FaultPolicy = .retry(every: .seconds(1)),
    durability: Durability = .batch, batchSize: Int = 4096
  ) {
    self.capacity = max(1, capacity)
    self.overflow = overflow
    self.onFault = onFault
    self.durability = durability
    self.batchSize = max(1, batchSize)
  }
}
