import Journal
import Projection

/// A ``PrefetchingReader`` followed by a ``CheckerPass`` on a thread of its
/// own: `check` merges, compares with the model and writes the findings of
/// each batch on the caller's thread while the checker runs on the next one.
///
/// ```swift
/// let reader = try CheckingReader(path: path, options: options, pass: CheckerPass(rules: rules))
/// while let batch = reader.nextBatch() {
///   batch.items.withUnsafeBufferPointer { check.consume($0, checked: batch.checked, into: &findings) }
/// }
/// check.finish(checked: reader.finalFindings, into: &findings)
/// ```
///
/// Implementation note: with two cores, the lines are decoded on both, and
/// the checker and the caller's work (the model comparison with `--model`,
/// writing some 600k findings on a legacy journal) each take one, faster
/// than the checker and the rest one after the other.
final class CheckingReader {
  /// Items with what the checker found in them.
  struct Batch: Sendable {
    var items: [JournalItem]
    var checked: CheckedBatch
    var bytesRead: Int64
    /// Set on the last batch: the checker's findings at the end, its state and any read error.
    var end: (findings: [Diagnostic], state: State, error: JournalFileError?)?
  }

  private let pipe: WorkPipe<Batch>
  private var finished = false
  /// Bytes read from the input, as of the batches handed out so far.
  private(set) var bytesRead: Int64 = 0
  /// Set when reading failed part way through; ``nextBatch()`` then returned `nil`.
  private(set) var readError: JournalFileError?
  /// The checker's findings at the end of the journal (after the last batch).
  private(set) var finalFindings: [Diagnostic] = []
  /// The checker's state at the end of the journal (after the last batch; `stats` reads its counters).
  private(set) var finalState: State?

  /// Opens the journal (`-` for standard input) and starts reading and checking it in the background.
  /// - Throws: ``JournalFileError`` if it cannot be opened.
  init(path: String, options: ReadOptions, pass: CheckerPass) throws(JournalFileError) {
    let reader = Owned(try PrefetchingReader(path: path, options: options))
    let pipe = WorkPipe<Batch>(capacity: PrefetchingReader.queueLength)
    self.pipe = pipe
    // A thread of its own, not a block on Dispatch's pool: it waits for the
    // reader's decoding (a block on that pool), which a pool filled with
    // waiting checkers (`check --jobs`) would not run.
    startThread {
      Self.check(reader.take(), pass, into: pipe)
    }
  }

  deinit {
    pipe.cancel()
  }

  /// The next batch; `nil` at the end (see ``readError`` and ``finalFindings``).
  func nextBatch() -> Batch? {
    while !finished {
      guard var batch = pipe.take() else { return nil }
      bytesRead = batch.bytesRead
      if let end = batch.end {
        finished = true
        finalFindings = end.findings
        finalState = end.state
        readError = end.error
        batch.end = nil
      }
      if !batch.items.isEmpty { return batch }
    }
    return nil
  }

  /// The checking thread: checks each batch the reader hands out and passes it on.
  private static func check(_ reader: PrefetchingReader, _ pass: CheckerPass, into pipe: WorkPipe<Batch>) {
    var pass = pass
    while let items = reader.nextBatch() {
      let checked = items.withUnsafeBufferPointer { pass.check($0) }
      guard pipe.put(Batch(items: items, checked: checked, bytesRead: reader.bytesRead, end: nil)) else { return }
    }
    let findings = reader.readError == nil ? pass.finish() : []
    _ = pipe.put(
      Batch(
        items: [], checked: CheckedBatch(), bytesRead: reader.bytesRead,
        end: (findings, pass.state, reader.readError)))
  }
}

/// Hands the prefetching reader to the checking thread, its only user from then on.
///
/// Implementation note: `@unchecked Sendable` as ``PrefetchingReader``'s own box:
/// the opening thread gives the reader up (``take()``) before the other one touches it.
private final class Owned: @unchecked Sendable {
  private var reader: PrefetchingReader?

  init(_ reader: PrefetchingReader) { self.reader = reader }

  func take() -> PrefetchingReader {
    defer { reader = nil }
    return reader!
  }
}
