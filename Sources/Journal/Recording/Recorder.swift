import Dispatch
import Synchronization

/// Records events from an app into a journal without ever making the caller wait
/// for the disk.
///
/// A recording call (``record(_:extra:)`` or the typed calls such as
/// ``didAppear(_:)``) takes the event's time and puts it in a bounded queue:
/// it never does I/O, never throws and is safe from any thread or actor. A
/// background writer drains the queue in batches through a ``JournalWriter``,
/// so the file lock, `seq` assignment, torn-tail repair and the ``Durability``
/// policy hold as for any other writer, other processes included.
///
/// - When the queue is full, ``RecorderOptions/Overflow`` decides: drop and
///   count (a `mark` `recorder.dropped` with the `count` is journaled as soon as
///   the writer catches up, so `check` and `stats` show the loss where it
///   happened), or wait.
/// - An I/O fault (disk full, `EIO`, a short write, a failed sync, the journal
///   removed or replaced) never reaches the caller: ``status`` says what
///   happened, `onFault` is called, and ``RecorderOptions/FaultPolicy`` retries
///   (keeping the events) or stops. Every event written stays in a journal
///   that `check` accepts: a failed write is taken back out.
/// - When the journal is empty (new, or recreated after it was removed), the
///   `header` is written first.
///
/// Call ``flush()`` when the app goes to the background (the events recorded so
/// far are then written and, unless the durability is `none`, on the device),
/// and ``close()`` before it exits.
///
/// ```swift
/// let recorder = Recorder(path: journalPath, header: SessionHeader(session: sessionID, app: "Notes"))
/// recorder.alloc("home", className: "HomeViewController")
/// recorder.didLoad("home")
/// recorder.flush()           // going to the background
/// recorder.close()           // before exit
/// ```
public final class Recorder: Sendable {
  /// The journal's path.
  public let path: String
  /// How the recorder queues, writes and reacts to faults.
  public let options: RecorderOptions
  private let header: SessionHeader
  private let onFault: (@Sendable (JournalFileError) -> Void)?
  private let queue: Mutex<RecorderQueue>
  private let writerSide: Mutex<WriterSide>
  /// Where the drain runs: one batch at a time.
  private let drainQueue = DispatchQueue(label: "spatial-replay.recorder", qos: .utility)
  /// Producers waiting for room (under `.block`).
  private let space = DispatchSemaphore(value: 0)
  /// Wakes the writer from the pause between retries (on `close()`).
  private let wakeup = DispatchSemaphore(value: 0)

  /// Opens (creating it) the journal and starts recording.
  ///
  /// Opening never throws: a journal that cannot be opened is a fault like any
  /// other (see ``status``), retried or not as `options.onFault` says.
  /// - Parameters:
  ///   - path: the journal file.
  ///   - header: the session header, written first when the journal is empty (a
  ///     journal that is not empty keeps its own).
  ///   - options: capacity, overflow and fault policies, durability.
  ///   - onFault: called (on the recorder's own queue) with each fault; it must not
  ///     call ``flush()`` or ``close()``.
  public init(
    path: String, header: SessionHeader, options: RecorderOptions = RecorderOptions(),
    onFault: (@Sendable (JournalFileError) -> Void)? = nil
  ) {
    self.path = path
    self.header = header
    self.options = options
    self.onFault = onFault
    self.queue = Mutex(RecorderQueue())
    self.writerSide = Mutex(WriterSide())
    writerSide.withLock { w in
      do throws(JournalFileError) {
        try open(&w)
      } catch {
        fault(error, writer: &w)
      }
    }
  }

  /// What the recorder has done so far.
  public var status: RecorderStatus { queue.withLock { $0.status } }

  /// Records an event with the time of this call. Never blocks on I/O and never
  /// throws; under ``RecorderOptions/Overflow/block`` it waits while the queue is full.
  ///
  /// - Parameters:
  ///   - event: the event; its `seq` is assigned when it is written.
  ///   - extra: further keys of the line, kept verbatim.
  public func record(_ event: Event, extra: [Field] = []) {
    while true {
      let outcome = queue.withLock { q -> EnqueueOutcome in
        let time = Timestamp(microseconds: POSIX.wallClockMicroseconds())
        guard !q.closing, q.status.state != .stopped else {
          q.status.dropped += 1
          return .dropped
        }
        if q.pending.count >= options.capacity {
          if options.overflow == .block {
            q.spaceWaiters += 1
            return .wait
          }
          q.status.dropped += 1
          if q.droppedUnreported == 0 { q.firstDropTime = time }
          q.droppedUnreported += 1
          return .dropped
        }
        q.pending.append(Draft(time: time, event: event, extra: extra))
        q.status.accepted += 1
        if q.draining { return .queued }
        q.draining = true
        return .startDrain
      }
      switch outcome {
      case .wait: space.wait()
      case .startDrain:
        drainQueue.async { self.drain() }
        return
      case .queued, .dropped: return
      }
    }
  }

  /// Waits until every event recorded before the call is written and (unless the
  /// durability is `none`) on the storage device.
  ///
  /// - Returns: whether all of them were written and synced; false as soon as a
  ///   fault stops the writer from doing so (it may still write them on a retry).
  @discardableResult
  public func flush() -> Bool {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex(false)
    enqueueFlush { ok in
      result.withLock { $0 = ok }
      done.signal()
    }
    done.wait()
    return result.withLock { $0 }
  }

  /// Suspends until every event recorded before the call is written and (unless
  /// the durability is `none`) on the storage device.
  ///
  /// - Returns: whether all of them were written and synced.
  @discardableResult
  public func flush() async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      enqueueFlush { ok in continuation.resume(returning: ok) }
    }
  }

  /// Writes what is queued (one more attempt after a fault), closes the journal
  /// and stops recording: later calls drop their events. Closing twice does nothing.
  ///
  /// - Returns: the final status (`lost` counts what could not be written).
  @discardableResult
  public func close() -> RecorderStatus {
    let first = queue.withLock { q in
      defer { q.closing = true }
      return !q.closing
    }
    if first {
      wakeup.signal()
      flush()
      drainQueue.sync {
        writerSide.withLock { w in
          guard let writer = w.writer.take() else { return }
          do throws(JournalFileError) {
            try writer.close()
          } catch {
            fault(error, writer: &w)
          }
        }
      }
      queue.withLock { q in q.status.state = .closed }
      releaseWaiters()
    }
    return status
  }

  // MARK: - The writer side (on `drainQueue`)

  private func enqueueFlush(_ resume: @escaping @Sendable (Bool) -> Void) {
    let start = queue.withLock { q -> Bool in
      q.flushWaiters.append(FlushWaiter(target: q.status.accepted, lostBefore: q.status.lost, resume: resume))
      if q.draining { return false }
      q.draining = true
      return true
    }
    if start { drainQueue.async { self.drain() } }
  }

  /// Writes batches until the queue is empty and every flush is answered.
  private func drain() {
    writerSide.withLock { w in
      while true {
        if w.carry.isEmpty {
          let taken = queue.withLock { q -> (waiters: Int, more: Bool) in
            swap(&w.carry, &q.pending)
            w.carryHasMark = false
            if q.droppedUnreported > 0 {
              w.carry.append(
                Draft(
                  time: q.firstDropTime,
                  event: .mark(
                    label: "recorder.dropped",
                    fields: [Field(key: "count", value: RawJSON(unchecked: String(q.droppedUnreported)))])))
              w.carryHasMark = true
              q.droppedUnreported = 0
            }
            let waiters = q.spaceWaiters
            q.spaceWaiters = 0
            if w.carry.isEmpty && q.flushWaiters.isEmpty { q.draining = false }
            return (waiters, !w.carry.isEmpty || !q.flushWaiters.isEmpty)
          }
          for _ in 0..<taken.waiters { space.signal() }
          guard taken.more else { return }
        }
        if !w.carry.isEmpty && !write(&w) { continue }
        answerFlushes(&w)
      }
    }
  }

  /// Writes the carried batch; on a fault, keeps it for a retry or gives it up.
  /// - Returns: whether the batch is done with (written or given up).
  private func write(_ w: inout WriterSide) -> Bool {
    do throws(JournalFileError) {
      if w.writer == nil { try open(&w) }
      guard let writer = w.writer else { return false }
      while w.written < w.carry.count {
        let end = min(w.carry.count, w.written + options.batchSize)
        try writer.append(w.carry[w.written..<end], keepingRecords: false)
        let own = w.carryHasMark && end == w.carry.count ? 1 : 0
        queue.withLock { q in
          q.status.written += end - w.written - own
          if q.status.state == .retrying { q.status.state = .running }
        }
        w.written = end
      }
      w.carry.removeAll(keepingCapacity: true)
      w.written = 0
      w.carryHasMark = false
      try checkIdentity(&w)
      return true
    } catch {
      fault(error, writer: &w)
      // A flush waiting for these events answers now (false) rather than after the retries.
      let (waiting, closing) = queue.withLock { q in
        defer { q.flushWaiters.removeAll() }
        return (q.flushWaiters, q.closing)
      }
      for waiter in waiting { waiter.resume(false) }
      switch options.onFault {
      case .retry(let interval) where !closing:
        _ = wakeup.wait(timeout: .now() + DispatchTimeInterval(interval))
        return false
      case .retry where w.retriesWhileClosing < Self.retriesWhileClosing:
        // Closing does not wait out the interval, but a passing fault gets a few more tries.
        w.retriesWhileClosing += 1
        return false
      case .retry, .stop:
        if options.onFault == .stop { w.writer = nil }
        giveUp(&w)
        return true
      }
    }
  }

  /// Notices a journal removed or replaced underneath: reopening (under `retry`)
  /// creates or continues the file that the path names now.
  private func checkIdentity(_ w: inout WriterSide) throws(JournalFileError) {
    guard let writer = w.writer else { return }
    let current = try? POSIX.identity(path: path)
    guard current != (try writer.identity()) else { return }
    w.writer = nil
    _ = try? writer.close()
    throw JournalFileError(
      path: path,
      message: current == nil ? "the journal was removed while recording" : "the journal was replaced while recording")
  }

  /// Answers the flushes whose events are all written, after a sync.
  private func answerFlushes(_ w: inout WriterSide) {
    let (ready, lost) = queue.withLock { q -> ([FlushWaiter], Int) in
      let processed = q.status.written + q.status.lost
      let ready = q.flushWaiters.filter { $0.target <= processed }
      q.flushWaiters.removeAll { $0.target <= processed }
      return (ready, q.status.lost)
    }
    guard !ready.isEmpty else { return }
    var synced = true
    if options.durability != .none, let writer = w.writer {
      do throws(JournalFileError) {
        try writer.sync()
      } catch {
        synced = false
        fault(error, writer: &w)
      }
    }
    for waiter in ready { waiter.resume(synced && waiter.lostBefore == lost && w.writer != nil) }
  }

  /// Opens the journal and writes the header into an empty one.
  private func open(_ w: inout WriterSide) throws(JournalFileError) {
    let writer = try JournalWriter(path: path, durability: options.durability)
    if writer.isEmpty {
      do throws(JournalFileError) {
        try writer.append(Draft(event: .session(header)))
      } catch {
        _ = try? writer.close()
        throw error
      }
    }
    w.writer = writer
  }

  /// Records a fault in the status and tells the app.
  private func fault(_ error: JournalFileError, writer w: inout WriterSide) {
    queue.withLock { q in
      q.status.faults += 1
      q.status.lastFault = error
      if q.status.state == .running {
        if case .retry = options.onFault { q.status.state = .retrying } else { q.status.state = .stopped }
      }
    }
    onFault?(error)
  }

  /// Under `stop` (or when closing): the carried batch and, when stopped, the queue are lost.
  private func giveUp(_ w: inout WriterSide) {
    let unwritten = w.carry.count - w.written - (w.carryHasMark ? 1 : 0)
    w.carry.removeAll(keepingCapacity: true)
    w.written = 0
    w.carryHasMark = false
    queue.withLock { q in
      q.status.lost += max(0, unwritten)
      if options.onFault == .stop {
        q.status.state = .stopped
        q.status.lost += q.pending.count
        q.pending.removeAll()
        q.droppedUnreported = 0
      }
    }
    releaseWaiters()
  }

  /// Lets producers waiting for room see that the recorder stopped or closed.
  private func releaseWaiters() {
    let waiters = queue.withLock { q in
      defer { q.spaceWaiters = 0 }
      return q.spaceWaiters
    }
    for _ in 0..<waiters { space.signal() }
  }

  /// How many times a write that fails while closing is tried again at once.
  static let retriesWhileClosing = 2
}

/// What a recording call did.
private enum EnqueueOutcome {
  case queued, startDrain, wait, dropped
}

/// A flush waiting for the events recorded before it.
struct FlushWaiter {
  /// Answered once `written + lost` reaches this count of accepted events.
  var target: Int
  var lostBefore: Int
  var resume: @Sendable (Bool) -> Void
}

/// The queue shared by the callers and the writer, guarded by the recorder's mutex.
struct RecorderQueue {
  var pending: [Draft] = []
  var status = RecorderStatus()
  /// Whether a drain is scheduled or running (a call that finds none starts one).
  var draining = false
  var closing = false
  var droppedUnreported = 0
  var firstDropTime: Timestamp?
  var spaceWaiters = 0
  var flushWaiters: [FlushWaiter] = []
}

/// What only the writer touches: the journal and the batch being written.
struct WriterSide {
  var writer: JournalWriter?
  /// The batch being written (kept across retries).
  var carry: [Draft] = []
  /// How many of `carry` are written.
  var written = 0
  /// Whether `carry` ends with the recorder's own `recorder.dropped` mark.
  var carryHasMark = false
  /// Failed writes since ``Recorder/close()`` began.
  var retriesWhileClosing = 0
}
