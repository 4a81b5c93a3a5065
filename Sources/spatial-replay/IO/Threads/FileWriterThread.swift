import Dispatch
import Journal
import Synchronization

/// Writes byte chunks to an ``AtomicFile`` on a thread of its own while the
/// caller makes the next chunks (`trace` hands it each megabyte of its output),
/// syncing the file to the disk as it goes when asked to (`trace --durable`).
///
/// ```swift
/// let writer = FileWriterThread(try AtomicFile(path: "x.json"), sync: true)
/// try writer.write(chunk)   // queued; throws the thread's failure once it has failed
/// try writer.commit()       // waits for the queue, then commits (sync, rename)
/// ```
///
/// Implementation note: unsynced (the default), the writes leave the caller's
/// thread and the file is renamed into place as soon as the last is in the
/// page cache. Synced, the page cache would take a large output whole and the
/// commit's `fdatasync` would then write all of it while the command waited,
/// for a large trace longer than `check` of the journal takes. Syncing every ``syncEvery`` bytes
/// keeps the disk writing while the caller works, so the commit waits for the
/// last of it only; the writes (the copies into the page cache) leave the
/// caller's thread too. At most ``capacity`` chunks wait. The syncs run on a
/// third thread: on the writing thread, each one would stop the writes, the
/// queue would fill within a few milliseconds, and the caller would wait for
/// the disk at every ``syncEvery`` bytes (making an output and writing it to
/// the disk would take the sum of the two times, not the longer of them).
///
/// `@unchecked Sendable`: the file belongs to the writing thread from
/// ``init(_:)`` until ``commit()`` or ``abandon()`` has waited for it, then to
/// the caller; the semaphores order the two. The syncing thread only syncs it
/// (``AtomicFile/sync()`` reads its descriptor, which the writes leave as it is),
/// and has ended before the caller has the file back.
final class FileWriterThread: @unchecked Sendable {
  private let file: AtomicFile
  private let pipe = WorkPipe<[UInt8]>(capacity: FileWriterThread.capacity)
  private let failure = Mutex<CommandFailure?>(nil)
  /// Chunks written, for the caller to fill again (``spare()``); the semaphore counts them.
  private let written = Mutex<[[UInt8]]>([])
  private let writtenCount = DispatchSemaphore(value: 0)
  /// The caller's: buffers handed out by ``spare()`` so far.
  private var buffers = 0
  private let done = DispatchSemaphore(value: 0)
  /// A sync was asked for and has not begun (another request then adds nothing).
  private let syncWanted = Atomic<Bool>(false)
  private let syncRequests = DispatchSemaphore(value: 0)
  /// Set once the writing thread has ended: the syncing thread ends at its next request.
  private let closing = Atomic<Bool>(false)
  private let syncerDone = DispatchSemaphore(value: 0)
  /// The caller's: the writing thread has ended and been waited for.
  private var joined = false

  /// Chunks queued at most, and the buffers ``spare()`` makes at most.
  static let capacity = 4
  /// The capacity of a buffer ``spare()`` makes: `trace` hands over half a megabyte and what one
  /// batch of the reader adds; a buffer that grew past twice this is not kept (memory stays
  /// ``capacity`` buffers of this size, whatever a few large chunks did).
  static let bufferCapacity = 2 << 20
  /// Bytes written between two syncs.
  static let syncEvery = 16 << 20

  /// The file is synced as it is written and before it is committed.
  let sync: Bool

  /// Starts the writing thread (and, with `sync`, the syncing thread); the caller ends it with
  /// ``commit()`` or ``abandon()``.
  init(_ file: AtomicFile, sync: Bool) {
    self.file = file
    self.sync = sync
    // A thread of its own, not a block on Dispatch's pool: it waits for the disk,
    // and the reader decodes on that pool.
    startThread { self.drain() }
    if sync { startThread { self.syncWhenAsked() } }
  }

  /// Queues a chunk, waiting while ``capacity`` are queued.
  /// - Throws: the thread's first failure (that chunk and later ones are not written).
  func write(_ bytes: [UInt8]) throws(CommandFailure) {
    if pipe.put(bytes) { return }
    throw failure.withLock { $0 } ?? CommandFailure("cannot write \(displayText(file.path, limit: .max))")
  }

  /// An empty buffer to fill with the next chunk: one written already, else (up to ``capacity``
  /// of them) a new one; past that, waits for one to be written.
  ///
  /// Implementation note: a megabyte freshly allocated for every chunk would cost its page faults
  /// and an `munmap` once written, on the caller's thread; a few buffers go round instead.
  func spare() -> [UInt8] {
    let back: Bool
    if buffers < Self.capacity {
      back = writtenCount.wait(timeout: .now()) == .success
    } else {
      writtenCount.wait()
      back = true
    }
    if back {
      // Emptied here, not on the writing thread: see ``drain()``.
      // The first written, not the last: the writing thread lets go of each before the signal
      // that counts it, so the first is let go of; the last may not be yet, and a buffer still
      // shared would be copied whole at its first write.
      var buffer = written.withLock { $0.isEmpty ? nil : $0.removeFirst() } ?? []
      buffer.removeAll(keepingCapacity: true)
      return buffer
    }
    buffers += 1
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.bufferCapacity)
    return buffer
  }

  /// Waits for the queued chunks to be written, then commits the file.
  /// - Throws: the thread's first failure, or the commit's (the file is abandoned then).
  func commit() throws(CommandFailure) {
    join()
    if let failure = failure.withLock({ $0 }) {
      file.abandon()
      throw failure
    }
    try file.commit(sync: sync)
  }

  /// Stops writing (the queued chunks are dropped) and abandons the file.
  func abandon() {
    pipe.cancel()
    join()
    file.abandon()
  }

  private func join() {
    guard !joined else { return }
    joined = true
    pipe.close()
    done.wait()
    guard sync else { return }
    closing.store(true, ordering: .releasing)
    syncRequests.signal()
    syncerDone.wait()
  }

  /// The syncing thread: a sync of what was written so far at each request, until the writing
  /// thread has ended (the commit syncs the rest).
  private func syncWhenAsked() {
    while true {
      syncRequests.wait()
      if closing.load(ordering: .acquiring) { break }
      // Cleared before the sync: bytes written during it are synced by the next request.
      syncWanted.store(false, ordering: .releasing)
      file.sync()
    }
    syncerDone.signal()
  }

  private func drain() {
    defer {
      // A caller waiting for a buffer after a failure gets an empty one (its next write throws).
      for _ in 0..<Self.capacity { writtenCount.signal() }
      done.signal()
    }
    var unsynced = 0
    while var chunk = pipe.take() {
      do {
        try file.write(chunk)
      } catch {
        failure.withLock { $0 = error }
        pipe.cancel()
        return
      }
      unsynced += chunk.count
      // Handed back as it is, emptied by ``spare()`` on the caller's thread: emptied here, it
      // would often still be shared with the caller's reference to the chunk it had just queued
      // (the write of a chunk to /dev/null is over before the caller's `put` returns), and
      // emptying a shared array allocates a new one, whose pages would then be faulted in as the
      // next chunk is made.
      if chunk.capacity > 2 * Self.bufferCapacity { chunk = [] }
      written.withLock { $0.append(chunk) }
      // Given up before the caller may take it, so that the caller's is the only reference
      // (filling a shared buffer would copy it).
      chunk = []
      writtenCount.signal()
      if sync && unsynced >= Self.syncEvery {
        unsynced = 0
        if !syncWanted.exchange(true, ordering: .acquiringAndReleasing) { syncRequests.signal() }
      }
    }
  }
}
