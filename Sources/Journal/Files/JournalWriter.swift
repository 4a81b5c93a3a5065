import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends events to a journal, safely across threads, processes and crashes.
///
/// - Every append takes an exclusive `flock` on the file, re-reads the last
///   line's `seq` and `time` if another writer appended since (the file's size
///   changed), assigns `seq` (the last plus one, 0 in an empty journal) and
///   `time` (the draft's time or now, but never earlier than the last time),
///   and writes the whole batch with one `write` loop. Lines never interleave
///   and `seq` stays contiguous, whoever appends.
/// - A draft's own `seq` is ignored: the writer always assigns the next one.
/// - Opening checks the tail: a final line without `\n` that does not decode
///   (a writer died mid-append) is moved to `<path>.torn` and cut off, see
///   ``repairedTail``; a complete final line without `\n` gets its `\n`.
/// - ``Durability`` says when appended events reach the storage device.
///
/// ```swift
/// let writer = try JournalWriter(path: "journal.ndjson", durability: .always)
/// let record = try writer.append(Draft(event: .root(controller: "home")))
/// print(record.seq)
/// try writer.close()
/// ```
///
/// The writer is `Sendable`: any number of threads may append at once.
public final class JournalWriter: Sendable {
  /// The journal's path.
  public let path: String
  /// When appends are synced to the device.
  public let durability: Durability
  private let batchInterval: Duration
  private let batchSize: Int
  private let limits: DecodeLimits
  private let state: Mutex<WriterState>

  /// Opens (creating it, mode 0644) a journal for appending, repairing a torn tail.
  ///
  /// A journal it creates has its directory synced (unless the durability is
  /// `none`), so that the file itself survives a power cut, not only its data.
  ///
  /// - Parameters:
  ///   - path: the journal file.
  ///   - durability: when appends are synced (``Durability/batch`` by default).
  ///   - batchInterval: under `batch`, the longest time appended events stay unsynced.
  ///   - batchSize: under `batch`, how many events may be appended before a sync.
  ///   - limits: the limits of the journal's readers: an event whose line would be longer than
  ///     `maxLineLength` is refused before anything of its batch is written.
  /// - Throws: ``JournalFileError`` if the file cannot be opened, locked, read or
  ///   repaired, or its last complete line is not a valid record.
  public init(
    path: String, durability: Durability = .batch, batchInterval: Duration = .milliseconds(100),
    batchSize: Int = 512, limits: DecodeLimits = DecodeLimits()
  ) throws(JournalFileError) {
    self.path = path
    self.durability = durability
    self.batchInterval = batchInterval
    self.batchSize = max(1, batchSize)
    self.limits = limits
    let fd: Int32
    let created: Bool
    do {
      (fd, created) = try POSIX.openCreating(path, flags: O_RDWR | O_APPEND)
    } catch {
      throw JournalFileError(path: path, "cannot open", error)
    }
    // A new journal's name is synced too (its directory), or a power cut may take the
    // whole file and every event synced into it; `none` promises no sync at all.
    if created && durability != .none {
      do throws(Errno) {
        try POSIX.syncDirectory(of: path)
      } catch {
        _ = try? POSIX.close(fd)
        throw JournalFileError(path: path, "cannot sync the directory of", error)
      }
    }
    let inspector = TailInspector(fd: fd, path: path, limits: limits)
    let tail: JournalTail
    let torn: TornTail?
    do throws(JournalFileError) {
      if try inspector.stat().isDirectory {
        throw JournalFileError(path: path, message: "is a directory, not a journal")
      }
      (tail, torn) = try Self.locked(fd: fd, path: path) { () throws(JournalFileError) in try inspector.inspect() }
    } catch {
      _ = try? POSIX.close(fd)
      throw error
    }
    self.state = Mutex(WriterState(fd: fd, tail: tail, repairedTail: torn))
    if durability == .batch { startTimer() }
  }

  deinit {
    let timer = state.withLock { s in s.timer.take() }
    timer?.cancel()
    state.withLock { s in
      guard !s.closed else { return }
      s.closed = true
      if durability == .batch && s.unsynced > 0 { _ = try? POSIX.syncData(s.fd) }
      _ = try? POSIX.close(s.fd)
    }
  }

  /// The torn tail this writer cut off the journal, if any: on opening, or
  /// later when another process died mid-append. `nil` when the tail was sound.
  public var repairedTail: TornTail? { state.withLock { $0.repairedTail } }

  /// Appends one event and returns it as written, with its `seq` and `time`.
  /// - Throws: ``JournalFileError`` (disk full, permission, closed writer, a last
  ///   line that is not a record); nothing is appended then.
  @discardableResult
  public func append(_ draft: Draft) throws(JournalFileError) -> Record {
    let records = try append(contentsOf: [draft])
    return records[0]
  }

  /// Appends events in one locked write: either all of them are appended,
  /// contiguous, or (on an error) none.
  ///
  /// - Returns: the records as written, with their `seq` and `time`.
  /// - Throws: ``JournalFileError``; the journal is then left as it was (under
  ///   `always`, a failed sync takes the written batch back out). Under `batch`,
  ///   a failed group or background sync is reported by the next call, which
  ///   then appends nothing.
  @discardableResult
  public func append(contentsOf drafts: [Draft]) throws(JournalFileError) -> [Record] {
    try append(drafts[...], keepingRecords: true)
  }

  /// Appends events in one locked write; returns the records as written only when
  /// `keepingRecords` (the recorder does not need them, and building them costs a copy of each event).
  @discardableResult
  func append(_ drafts: ArraySlice<Draft>, keepingRecords: Bool) throws(JournalFileError) -> [Record] {
    guard !drafts.isEmpty else { return [] }
    return try state.withLock { s throws(JournalFileError) -> [Record] in
      if let error = s.deferredError.take() { throw error }
      guard !s.closed else { throw JournalFileError(path: path, message: "cannot append: the journal is closed") }
      let before = s.tail
      return try Self.locked(fd: s.fd, path: path) { () throws(JournalFileError) -> [Record] in
        let records = try write(drafts, keepingRecords: keepingRecords, state: &s)
        switch durability {
        case .always:
          do throws(JournalFileError) {
            try syncNow(&s)
          } catch {
            // Not durable, so not appended: take the batch back out, still under the lock.
            _ = try? POSIX.truncate(s.fd, to: before.size)
            s.tail = before
            throw error
          }
        case .batch:
          s.unsynced += drafts.count
          if s.unsynced >= batchSize || ContinuousClock.now - s.lastSync >= batchInterval {
            // The events are written (a process kill keeps them): a failed group sync does
            // not undo them but is reported by the next call, as a background sync's is.
            do throws(JournalFileError) {
              try syncNow(&s)
            } catch {
              s.deferredError = error
            }
          }
        case .none:
          break
        }
        return records
      }
    }
  }

  /// Forces every appended event to the storage device now, whatever the durability.
  public func sync() throws(JournalFileError) {
    try state.withLock { s throws(JournalFileError) in
      if let error = s.deferredError.take() { throw error }
      guard !s.closed else { return }
      try syncNow(&s)
    }
  }

  /// Stops the writer: under `batch` syncs what is unsynced, then closes the file.
  /// Further appends throw. Closing twice does nothing.
  /// - Throws: ``JournalFileError`` if the last sync or the close failed (or a
  ///   background sync had failed).
  public func close() throws(JournalFileError) {
    let timer = state.withLock { s in s.timer.take() }
    timer?.cancel()
    try state.withLock { s throws(JournalFileError) in
      guard !s.closed else { return }
      s.closed = true
      var failure = s.deferredError.take()
      if durability == .batch && s.unsynced > 0 {
        do throws(Errno) {
          try POSIX.syncData(s.fd)
        } catch {
          failure = failure ?? JournalFileError(path: path, "cannot sync", error)
        }
      }
      do throws(Errno) {
        try POSIX.close(s.fd)
      } catch {
        failure = failure ?? JournalFileError(path: path, "cannot close", error)
      }
      if let failure { throw failure }
    }
  }

  /// Whether nothing was ever appended: the journal is empty (it needs its header).
  var isEmpty: Bool { state.withLock { $0.tail.size == 0 } }

  /// The identity of the file the writer appends to (to notice it removed or replaced).
  func identity() throws(JournalFileError) -> FileIdentity {
    try state.withLock { s throws(JournalFileError) in
      do throws(Errno) {
        return try POSIX.identity(s.fd)
      } catch {
        throw JournalFileError(path: path, "cannot read", error)
      }
    }
  }

  /// Under the file lock: brings the cached tail up to date, encodes the drafts and writes them.
  private func write(
    _ drafts: ArraySlice<Draft>, keepingRecords: Bool, state s: inout WriterState
  ) throws(JournalFileError) -> [Record] {
    let inspector = TailInspector(fd: s.fd, path: path, limits: limits)
    if try inspector.stat().size != s.tail.size {
      let (tail, torn) = try inspector.inspect()
      s.tail = tail
      if let torn { s.repairedTail = torn }
    }
    let now = Timestamp(microseconds: POSIX.wallClockMicroseconds())
    let lastSeq = s.tail.lastSeq ?? -1
    // A journal may end with any seq a line can hold, Int.max included: refuse, do not overflow.
    guard lastSeq <= Int.max - drafts.count else {
      throw JournalFileError(
        path: path, message: "cannot append: the last seq \(lastSeq) leaves no room for \(drafts.count) more")
    }
    var seq = lastSeq + 1
    var lastTime = s.tail.lastTime
    var records: [Record] = []
    if keepingRecords { records.reserveCapacity(drafts.count) }
    s.buffer.removeAll(keepingCapacity: true)
    var encoder = RecordEncoder()
    for (k, draft) in drafts.enumerated() {
      var time = draft.time ?? now
      if let lastTime, time < lastTime { time = lastTime }
      // A line its readers would refuse is never written: nothing of the batch is.
      guard time <= .latest else {
        throw JournalFileError(
          path: path, message: "cannot append: event \(k + 1) of the batch has a time after 9999-12-31T23:59:59.999999Z"
        )
      }
      let record = Record(seq: seq, time: time, event: draft.event, extra: draft.extra)
      let start = s.buffer.count
      encoder.encode(record, into: &s.buffer)
      guard s.buffer.count - start <= limits.maxLineLength else {
        throw JournalFileError(
          path: path,
          message: "cannot append: event \(k + 1) of the batch would be a line of \(s.buffer.count - start) bytes, "
            + "over the limit of \(limits.maxLineLength) that readers read")
      }
      s.buffer.append(0x0A)
      if keepingRecords { records.append(record) }
      seq += 1
      lastTime = time
    }
    do {
      try POSIX.writeAll(s.fd, s.buffer)
    } catch {
      // Leave no partial batch behind: the file is as it was before this append.
      _ = try? POSIX.truncate(s.fd, to: s.tail.size)
      throw JournalFileError(path: path, "cannot write", error)
    }
    s.tail = JournalTail(size: s.tail.size + Int64(s.buffer.count), lastSeq: seq - 1, lastTime: lastTime)
    if s.buffer.count > 1 << 22 { s.buffer = [] }
    return records
  }

  private func syncNow(_ s: inout WriterState) throws(JournalFileError) {
    do {
      try POSIX.syncData(s.fd)
    } catch {
      throw JournalFileError(path: path, "cannot sync", error)
    }
    s.unsynced = 0
    s.lastSync = .now
  }

  /// Runs `body` holding the exclusive `flock` on the journal.
  private static func locked<R>(
    fd: Int32, path: String, _ body: () throws(JournalFileError) -> R
  ) throws(JournalFileError) -> R {
    do {
      try POSIX.lockFile(fd, LOCK_EX)
    } catch {
      throw JournalFileError(path: path, "cannot lock", error)
    }
    defer { _ = try? POSIX.lockFile(fd, LOCK_UN) }
    return try body()
  }

  /// Under `batch`, syncs a quiet writer: every `batchInterval`, whatever is unsynced.
  private func startTimer() {
    let interval = DispatchTimeInterval(max(batchInterval, .milliseconds(1)))
    state.withLock { s in
      let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
      timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
      timer.setEventHandler { [weak self] in self?.backgroundSync() }
      timer.resume()
      s.timer = timer
    }
  }

  private func backgroundSync() {
    state.withLock { s in
      guard !s.closed, s.unsynced > 0 else { return }
      do throws(JournalFileError) {
        try syncNow(&s)
      } catch {
        s.deferredError = error
      }
    }
  }
}

/// The writer's mutable state, guarded by its mutex.
struct WriterState {
  var fd: Int32
  var tail: JournalTail
  var repairedTail: TornTail?
  var closed = false
  /// Events appended since the last sync.
  var unsynced = 0
  var lastSync = ContinuousClock.now
  /// A background sync's failure, thrown by the next call.
  var deferredError: JournalFileError?
  /// The encoding buffer, reused across appends.
  var buffer: [UInt8] = []
  var timer: DispatchSourceTimer?

  init(fd: Int32, tail: JournalTail, repairedTail: TornTail?) {
    self.fd = fd
    self.tail = tail
    self.repairedTail = repairedTail
  }
}
