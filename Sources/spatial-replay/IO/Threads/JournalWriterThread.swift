import Dispatch
import Journal
import Synchronization

/// Encodes records and writes them on a second thread while the caller makes
/// the next ones: `simulate` and `record` hand it the navigator's records in
/// batches.
///
/// ```swift
/// let writer = JournalWriterThread(.standardOutput)
/// for batch in batches { guard writer.put(batch) else { break } }
/// if let failure = writer.finish() { throw failure }
/// ```
///
/// Implementation note: encoding and writing are a large share of what these
/// commands do; on the second core they overlap the navigator. The class
/// is `@unchecked Sendable` because its mutable state (``file`` and ``output``)
/// belongs to the writing thread from ``init(_:)`` until ``finish()`` or
/// ``cancel()`` has waited for that thread, and to the caller after it; the
/// semaphore orders the two.
final class JournalWriterThread: @unchecked Sendable {
  /// Where the journal goes.
  enum Target {
    /// A file already opened.
    case file(AtomicFile)
    /// A file opened when the first batch arrives (so a script that fails
    /// before its first batch never touches the output's folder).
    case path(String)
    /// Standard output, as the batches come.
    case standardOutput
    /// A spool (``FileOutput/spool()``) the caller copies to standard output
    /// once it knows the journal is whole.
    case spool
  }

  /// The file written, once ``finish()`` has returned (nil for standard output, or
  /// when no batch came for ``Target/path(_:)``).
  private(set) var file: AtomicFile?
  /// Standard output, or for a ``Target/spool`` what was written, once ``finish()`` has returned.
  var output: FileOutput
  private let path: String?
  private let pipe = WorkPipe<[Record]>(capacity: 4)
  /// Batches written and emptied, their capacity kept, for the caller to fill again (``spare()``).
  private let written = Mutex<[[Record]]>([])
  /// The most batches kept in ``written``.
  private static let spareLimit = 2
  private let failure = Mutex<CommandFailure?>(nil)
  private let done = DispatchSemaphore(value: 0)
  /// Set by ``cancel()``: the queued batches are dropped, nothing more is written.
  private let cancelled = Atomic<Bool>(false)
  /// The caller's: a ``put(_:)`` has failed (the pipe takes no more).
  private var stopped = false
  /// Bytes encoded before each write.
  private static let chunk = 1 << 18

  /// Starts the writing thread.
  init(_ target: Target) {
    switch target {
    // A file target never writes to `output`: it gets no buffer.
    case .file(let file):
      (self.file, path, output) = (file, nil, FileOutput(fd: 1, capacity: 0))
    case .path(let path):
      (file, self.path, output) = (nil, path, FileOutput(fd: 1, capacity: 0))
    case .standardOutput:
      (file, path, output) = (nil, nil, FileOutput(fd: 1, capacity: Self.chunk))
    case .spool:
      (file, path, output) = (nil, nil, .spool())
    }
    DispatchQueue.global(qos: .userInitiated).async { self.drain() }
  }

  /// Queues a batch, waiting while four are queued; false once the writing
  /// thread has failed (this batch and later ones are not written: ``finish()``
  /// returns the failure).
  func put(_ batch: [Record]) -> Bool {
    guard !stopped else { return false }
    stopped = !pipe.put(batch)
    return !stopped
  }

  /// A batch already written and emptied (its capacity kept), or an empty array: the caller fills
  /// it again (``Navigator/takeRecords(leaving:)``).
  ///
  /// Implementation note: the records (a release for each of their strings) are destroyed on this
  /// thread once encoded: the caller's thread, which runs the navigator and its fold, is `record`'s
  /// longest (the encoding was, before the navigator's walks stopped saving the state). A batch's
  /// buffer is not allocated anew each time.
  func spare() -> [Record] {
    written.withLock { $0.popLast() } ?? []
  }

  /// Waits for the queued batches to be written; the first write error, if any.
  func finish() -> CommandFailure? {
    pipe.close()
    done.wait()
    return failure.withLock { $0 }
  }

  /// Stops the writing thread without writing the batches still queued (nor
  /// opening a ``Target/path(_:)`` not opened yet), and waits for it.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
    pipe.close()
    done.wait()
  }

  private func drain() {
    defer { done.signal() }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.chunk + 4096)
    var encoder = RecordEncoder()
    do throws(CommandFailure) {
      while var batch = pipe.take() {
        if cancelled.load(ordering: .acquiring) { continue }
        // Each record is moved out of its slot, encoded and put back as it was, rather than read
        // through the subscript, which would copy it (retaining its strings) and destroy the copy.
        batch.withUnsafeMutableBufferPointer { records in
          guard let slots = records.baseAddress else { return }
          for i in records.indices {
            let record = (slots + i).move()
            encoder.encode(record, into: &buffer)
            buffer.append(0x0A)
            (slots + i).initialize(to: record)
          }
        }
        // Emptied here, then handed back (swapped out of `batch`, so the caller gets its only reference).
        batch.removeAll(keepingCapacity: true)
        written.withLock { list in
          guard list.count < Self.spareLimit else { return }
          list.append([])
          swap(&list[list.count - 1], &batch)
        }
        guard buffer.count >= Self.chunk else { continue }
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
      if cancelled.load(ordering: .acquiring) { return }
      try write(buffer)
      if file == nil && !output.isSpool {
        output.flush()
        try checkStandardOutput()
      }
    } catch {
      failure.withLock { $0 = error }
      pipe.cancel()
    }
  }

  private func write(_ bytes: [UInt8]) throws(CommandFailure) {
    if file == nil, let path { file = try AtomicFile(path: path) }
    if let file {
      try file.write(bytes)
    } else {
      output.write(bytes: bytes)
      if !output.isSpool { try checkStandardOutput() }
    }
  }

  /// Throws if writing to standard output failed (a full disk): the journal did not get out.
  private func checkStandardOutput() throws(CommandFailure) {
    guard output.failed else { return }
    throw CommandFailure("cannot write to standard output: \(output.failureText)")
  }
}
