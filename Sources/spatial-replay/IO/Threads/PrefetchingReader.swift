import Dispatch
import Journal
import Synchronization

/// A ``JournalReader`` that reads and decodes in the background while the
/// caller works on the items already read: `check`, `stats` and `export` fold,
/// check and encode on one thread while the next lines are decoded on every core.
///
/// Items are handed over in batches of at most 4096 items and about
/// ``batchBytes`` bytes of lines (a batch ends at whichever comes first; it
/// always holds at least one item) through a queue of at most 4 batches, so
/// memory stays bounded by bytes whatever the journal's size or the length of
/// its lines; ``bytesRead`` and
/// ``readError`` are the reader's, as of the batches handed out.
///
/// ```swift
/// let reader = try PrefetchingReader(path: "big.ndjson", options: ReadOptions())
/// while let batch = reader.nextBatch() {
///   for item in batch { builder.consume(item) }
/// }
/// if let error = reader.readError { ... }
/// ```
///
/// Implementation note: decoding takes about half the time of `stats`; running
/// it beside the fold and the checker brings a 1M-event journal from the sum of
/// the two to about the larger of them. Handing out whole batches lets the
/// caller borrow each item in place instead of copying it out.
final class PrefetchingReader {
  private let pipe: WorkPipe<Batch>
  private var finished = false
  /// Bytes read from the input by the background thread, as of the batches handed out so far.
  private(set) var bytesRead: Int64 = 0
  /// Set when reading failed part way through; ``nextBatch()`` then returned `nil`.
  private(set) var readError: JournalFileError?

  /// Items per batch and batches queued at most.
  static let batchSize = 4096
  static let queueLength = 4
  /// The bytes of the lines of a batch's records (and of its findings' messages) past
  /// which the batch is handed over, however few items it holds.
  ///
  /// Implementation note: 4,096 items of about 150 bytes are some 600 kB; lines of
  /// 1 MB each would make a batch of 4 GB. A
  /// decoded record holds about the bytes of its line.
  static let batchBytes = 2 << 20

  /// Opens the journal (`-` for standard input) and starts reading it in the background.
  /// - Parameter decodingThreads: threads that decode lines, the background one among them.
  /// - Throws: ``JournalFileError`` if it cannot be opened, as ``JournalReader`` does.
  ///
  /// Implementation note: reading and decoding cost more than the fold and the
  /// rules of `check`, `stats` and `export`,
  /// so by default the lines are decoded on every core
  /// (the background thread and the workers of ``JournalReader``'s decoding
  /// ahead) while the caller's thread works on the items already decoded:
  /// with two cores, each carries about half of the whole.
  init(
    path: String, options: ReadOptions, decodingThreads: Int = JournalReader.availableThreads
  ) throws(JournalFileError) {
    let reader = OwnedReader(try JournalReader(path: path, options: options, decodingThreads: decodingThreads))
    let pipe = WorkPipe<Batch>(capacity: Self.queueLength)
    self.pipe = pipe
    DispatchQueue.global(qos: .userInitiated).async {
      Self.produce(reader.take(), into: pipe)
    }
  }

  deinit {
    pipe.cancel()
  }

  /// The next items (records and findings, in file order); `nil` at the end (see ``readError``).
  func nextBatch() -> [JournalItem]? {
    while !finished {
      guard let batch = pipe.take() else { return nil }
      bytesRead = batch.bytesRead
      if let end = batch.end {
        finished = true
        if case .failed(let error) = end { readError = error }
      }
      if !batch.items.isEmpty { return batch.items }
    }
    return nil
  }

  /// The background thread: reads every item and queues them in batches.
  private static func produce(_ reader: JournalReader, into pipe: WorkPipe<Batch>) {
    var items: [JournalItem] = []
    items.reserveCapacity(batchSize)
    var bytes = 0
    while let item = reader.next() {
      bytes += Self.weight(item, reader)
      // Moved, not copied: a copy would retain its strings, and destroying it would release them.
      items.append(consume item)
      if items.count == batchSize || bytes >= batchBytes {
        guard pipe.put(Batch(items: items, bytesRead: reader.bytesRead, end: nil)) else { return }
        items = []
        items.reserveCapacity(batchSize)
        bytes = 0
      }
    }
    let end: Batch.End = reader.readError.map { .failed($0) } ?? .finished
    _ = pipe.put(Batch(items: items, bytesRead: reader.bytesRead, end: end))
  }

  /// About the bytes `item` holds: its line's for a record, its message's for a finding.
  @inline(__always)
  static func weight(_ item: borrowing JournalItem, _ reader: JournalReader) -> Int {
    switch item {
    case .record: reader.withCurrentLine { $0.count } + 64
    case .diagnostic(let diagnostic): diagnostic.message.utf8.count + 64
    }
  }
}

extension PrefetchingReader {
  /// Opens a journal for a command that reads many (`stats`, `export`): on
  /// failure, ends the progress bar, reports the error and returns nil.
  static func open(
    _ path: String, options: ReadOptions, progress: inout FileProgress, context: inout Context
  ) -> PrefetchingReader? {
    do {
      return try PrefetchingReader(path: path, options: options)
    } catch {
      progress.finish(&context.stderr)
      context.error(displayText(error.description, limit: .max))
      return nil
    }
  }

  /// After the last batch: reports a read error (ending the progress bar first).
  /// - Returns: true when the journal was read to its end.
  func readToTheEnd(progress: inout FileProgress, context: inout Context) -> Bool {
    guard let error = readError else { return true }
    progress.finish(&context.stderr)
    context.error(displayText(error.description, limit: .max))
    return false
  }
}

/// Items read by the background thread, with how far it had read.
struct Batch: Sendable {
  enum End: Sendable {
    case finished
    case failed(JournalFileError)
  }

  var items: [JournalItem]
  var bytesRead: Int64
  /// Set on the last batch.
  var end: End?
}

/// Hands a reader to the background thread, which is its only user from then on.
///
/// Implementation note: `JournalReader` is not `Sendable` (it is a mutable
/// class); the box is `@unchecked Sendable` because the opening thread gives the
/// reader up (``take()``) before any other thread touches it.
private final class OwnedReader: @unchecked Sendable {
  private var reader: JournalReader?

  init(_ reader: JournalReader) { self.reader = reader }

  func take() -> JournalReader {
    defer { reader = nil }
    return reader!
  }
}
