import Dispatch
import Journal

/// A consumer of a ``JournalPass``: takes the journal batch by batch, each with
/// what the checker's one fold found in it.
///
/// `check` (``JournalCheck``), `stats` (``StatsBuilder``), `trace`
/// (``TraceWriter``), `report` and `export` each take the same batches: the
/// decoded items, which the consumer may read in place (it holds the batch
/// `inout`), and the ``CheckedBatch`` of the checker's pass, with the checker's
/// findings and (when ``readsFacts``) each record's ``RecordFacts``.
public protocol PassConsumer {
  /// Whether the consumer reads each record's ``RecordFacts`` (the pass keeps them only then).
  static var readsFacts: Bool { get }
  /// Takes the next batch of the journal, in file order, with what the checker found in it.
  mutating func consume(_ batch: inout JournalBatch, checked: CheckedBatch)
}

extension PassConsumer {
  public static var readsFacts: Bool { false }
}

/// One streaming pass over a journal, and the one owner of its threads: the
/// journal is decoded once, folded and checked once, and each batch is handed,
/// with the typed facts of that one fold, to the consumer on the calling thread.
///
/// ```text
///  read + decode           check (optional)             consume
///  ------------------  ->  ---------------------  ->  ------------------------
///  a Dispatch block and    a thread of its own:         the caller's thread:
///  the reader's decoding   CheckerPass folds each       JournalCheck merges and
///  workers, in batches     record once: findings,       writes, StatsBuilder,
///  (JournalBatch)          RecordFacts (CheckedBatch)   TraceWriter, the report...
/// ```
///
/// Every streaming command reads through it: `check`, `stats`, `trace` and
/// `report` with the checker's stage, `export`, `step`, `at` and the fleet's
/// pages without it (their batches come with an empty ``CheckedBatch``).
/// Batches of at most ``batchSize`` items and about ``batchBytes`` bytes go
/// through queues of ``queueLength`` batches, so memory stays bounded whatever
/// the journal's size or the length of its lines.
///
/// ```swift
/// let pass = try JournalPass(path: "big.ndjson", options: ReadOptions(), checking: CheckerPass(facts: true))
/// var stats = StatsBuilder(file: "big.ndjson")
/// pass.run(&stats)
/// if let error = pass.readError { ... }
/// let result = stats.finish(checked: pass.finalFindings, state: pass.finalState!)
/// ```
///
/// Implementation note: decoding costs more than the fold and the rules, so the
/// lines are decoded on every core (the reading block and the workers of the
/// reader's decoding ahead) while the checker and the consumer each work on
/// batches already decoded: no one thread does all of the work, so the busiest
/// one finishes sooner. The checker's stage is a thread of its own, not a block
/// on Dispatch's pool: it waits for the decoding (blocks on that pool), which a
/// pool filled with waiting checkers (`check --jobs`) would not run.
public final class JournalPass {
  /// A batch handed to the consumer: the items and what the checker found in them.
  public struct Batch: Sendable {
    public var items: JournalBatch
    /// Empty when the pass has no checker's stage.
    public var checked: CheckedBatch
  }

  /// Items per batch and batches queued at most between two stages.
  public static let batchSize = 4096
  public static let queueLength = 4
  /// The bytes of the lines of a batch's records (and of its findings' messages) past
  /// which the batch is handed over, however few items it holds.
  ///
  /// Implementation note: lines of 1 MB each would make a batch of 4,096 items
  /// 4 GB; a decoded record holds about the bytes of its line.
  public static let batchBytes = 2 << 20

  /// The queue of the last stage before the consumer. Cancelled when the pass goes; the checker's
  /// stage then cancels the reading stage's at its next batch (cancelled here, it could leave the
  /// checker's stage waiting for a batch that never comes).
  private let pipe: WorkPipe<Stage>
  private var finished = false
  /// Bytes read from the input, as of the batches handed out so far.
  public private(set) var bytesRead: Int64 = 0
  /// Set when reading failed part way through; ``next()`` then returned `nil`.
  public private(set) var readError: JournalFileError?
  /// The checker's findings at the end of the journal (after the last batch; empty without the checker).
  public private(set) var finalFindings: [Finding] = []
  /// The checker's state at the end of the journal (after the last batch; nil without the checker).
  public private(set) var finalState: State?
  /// The checker's ``CheckerPass/folding`` at the end of the journal (nil without one).
  public private(set) var finalFolding: (any FoldConsumer)?

  /// Opens the journal (`-` for standard input) and starts reading (and checking) it in the background.
  /// - Parameters:
  ///   - checking: the checker's stage, run on a thread of its own (nil: none).
  ///   - decodingThreads: threads that decode lines, the reading one among them.
  /// - Throws: ``JournalFileError`` if it cannot be opened, as ``JournalReader`` does.
  public init(
    path: String, options: ReadOptions, checking: CheckerPass? = nil,
    decodingThreads: Int = JournalReader.availableThreads
  ) throws(JournalFileError) {
    let reader = Owned(try JournalReader(path: path, options: options, decodingThreads: decodingThreads))
    let decoded = WorkPipe<Stage>(capacity: Self.queueLength)
    DispatchQueue.global(qos: .userInitiated).async {
      Self.decode(reader.take(), into: decoded)
    }
    if let checking {
      let checked = WorkPipe<Stage>(capacity: Self.queueLength)
      startThread { Self.check(decoded, checking, into: checked) }
      pipe = checked
    } else {
      pipe = decoded
    }
  }

  deinit {
    pipe.cancel()
  }

  /// The next batch; `nil` at the end (see ``readError``, ``finalFindings`` and ``finalState``).
  public func next() -> Batch? {
    while !finished {
      guard let stage = pipe.take() else { return nil }
      bytesRead = stage.bytesRead
      if let end = stage.end {
        finished = true
        finalFindings = end.findings
        finalState = end.state
        readError = end.error
        finalFolding = stage.folding
      }
      if !stage.items.isEmpty { return Batch(items: stage.items, checked: stage.checked) }
    }
    return nil
  }

  /// Hands every batch to `consumer` on the calling thread, calling `afterEach` after each (for
  /// progress and output); then see ``readError``.
  public func run<Consumer: PassConsumer, E: Error>(
    _ consumer: inout Consumer, afterEach: (inout Consumer) throws(E) -> Void
  ) throws(E) {
    while var batch = next() {
      consumer.consume(&batch.items, checked: batch.checked)
      try afterEach(&consumer)
    }
  }

  /// Hands every batch to `consumer` on the calling thread; then see ``readError``.
  public func run<Consumer: PassConsumer>(_ consumer: inout Consumer) {
    run(&consumer) { _ in }
  }

  /// What one stage hands the next.
  private struct Stage: Sendable {
    var items: JournalBatch
    var checked = CheckedBatch()
    var bytesRead: Int64
    /// Set on the last batch: the checker's findings at the end, its state and any read error.
    var end: (findings: [Finding], state: State?, error: JournalFileError?)?
    /// Set on the last batch: the checker's ``CheckerPass/folding``.
    var folding: (any FoldConsumer)?
  }

  /// The reading stage: reads and decodes every item and queues them in batches.
  private static func decode(_ reader: JournalReader, into pipe: WorkPipe<Stage>) {
    var items = JournalBatch()
    items.items.reserveCapacity(batchSize)
    var bytes = 0
    while let item = reader.next() {
      bytes += weight(item, reader)
      // Moved, not copied: copying an item and destroying the copy shows at every item.
      items.append(consume item)
      if items.count == batchSize || bytes >= batchBytes {
        // Moved into the queue: a reference kept here would make the next stage's writes copy the batch.
        guard pipe.put(Stage(items: consume items, bytesRead: reader.bytesRead, end: nil)) else { return }
        items = JournalBatch()
        items.items.reserveCapacity(batchSize)
        bytes = 0
      }
    }
    _ = pipe.put(Stage(items: consume items, bytesRead: reader.bytesRead, end: ([], nil, reader.readError)))
  }

  /// About the bytes `item` holds: its line's for a record, its message's for a finding.
  @inline(__always)
  private static func weight(_ item: borrowing JournalItem, _ reader: JournalReader) -> Int {
    switch item {
    case .record: reader.withCurrentLine { $0.count } + 64
    case .diagnostic(let diagnostic): diagnostic.message.utf8.count + 64
    }
  }

  /// The checker's stage: checks each batch the reading stage hands on and passes it on.
  private static func check(_ decoded: WorkPipe<Stage>, _ pass: CheckerPass, into pipe: WorkPipe<Stage>) {
    var pass = pass
    while var stage = decoded.take() {
      stage.checked = pass.check(&stage.items)
      if let end = stage.end {
        stage.end = (end.error == nil ? pass.finish() : [], pass.state, end.error)
        stage.folding = pass.folding
        _ = pipe.put(stage)
        return
      }
      // Moved on (out of `stage`, which the loop keeps), as the reading stage moves it here.
      var checked = Stage(items: JournalBatch(), bytesRead: 0, end: nil)
      swap(&checked, &stage)
      guard pipe.put(consume checked) else {
        decoded.cancel()
        return
      }
    }
  }
}

/// Hands a reader to the reading stage, its only user from then on.
///
/// Implementation note: `JournalReader` is not `Sendable` (it is a mutable
/// class); the box is `@unchecked Sendable` because the opening thread gives the
/// reader up (``take()``) before any other thread touches it.
private final class Owned: @unchecked Sendable {
  private var reader: JournalReader?

  init(_ reader: JournalReader) { self.reader = reader }

  func take() -> JournalReader {
    defer { reader = nil }
    return reader!
  }
}
