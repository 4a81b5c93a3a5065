import Dispatch
import Journal
import Projection
import Rendering

/// The Chrome trace a report's page carries for its "download trace" link:
/// the bytes `spatial-replay trace --format chrome` writes for the same
/// journals and selection (``TraceWriter``), built in the same read as the
/// page and compressed as they are written (gzip), so that the page grows by
/// a fraction of its size rather than by a trace's (about twice the journal).
///
/// ```swift
/// let trace = ReportTrace()
/// let (run, _, _) = try ReportRun.read(path: "Journals/notes.legacy.ndjson", trace: trace)
/// trace.finish()
/// let page = ReportPage(run: run, trace: trace)
/// ```
///
/// Memory: the trace writer's (one entry per controller), the compressed trace
/// so far, and at most ``batchesInFlight`` batches of items.
///
/// Implementation note: the trace is written and compressed on a queue of its
/// own, a batch of items at a time, while the report goes on reading (about
/// half of what the report's own work costs, which would otherwise make it
/// half slower). It does not fold the journal: it reads each record's facts of
/// the checker's pass (``RecordFacts``), which the report keeps for it.
/// `@unchecked Sendable`: the writer and the compressor belong to that queue,
/// from ``init(selection:)`` to ``finish()``, which waits for it; the caller's
/// thread only hands batches over and gathers names.
public final class ReportTrace: @unchecked Sendable {
  // The queue's.
  private var writer: TraceWriter
  private let gzip = Gzip.Stream(level: ReportTrace.level)
  private var finished: Embedded?
  // The caller's.
  /// Each run's name for the downloaded file: its session id, else its file's name.
  private var names: [String] = []
  private var sawHeader = false
  private let queue = DispatchQueue(label: "spatial-replay.report-trace")
  private let inFlight = DispatchSemaphore(value: ReportTrace.batchesInFlight)

  /// Batches that wait for the queue at most.
  static let batchesInFlight = 4

  /// The zlib level: on a trace, level 5 is much smaller than level 1 for a little more time, and
  /// level 6 (zlib's default) barely smaller than level 5 for much more time.
  static let level: Int32 = 5

  /// What the page holds once the trace is finished.
  struct Embedded: Sendable {
    /// The name the page downloads it as: `SESSION.trace.json` (`A-vs-B.trace.json` for two runs).
    var file: String
    /// The trace's length.
    var byteCount: Int
    /// The trace, gzip-compressed.
    var gzip: [UInt8]
  }

  /// - Parameter selection: what is drawn, as `trace`'s `--from/--to`, `--since/--until` and `--controller`.
  public init(selection: TraceSelection = .all) {
    writer = TraceWriter(format: .chrome, selection: selection)
  }

  /// Starts the next journal (`file` as `trace` names it: its name as shown).
  func beginRun(file: String) {
    names.append(Self.baseName(of: file))
    sawHeader = false
    submit { $0.writer.beginRun(file: file) }
  }

  /// Takes the next batch of the journal's items, checked by a ``CheckerPass`` that keeps each
  /// record's facts (``CheckerPass/init(rules:model:facts:folding:)``); `batch` is left empty.
  func consume(_ batch: inout JournalBatch, checked: CheckedBatch) {
    if !sawHeader {
      for case .record(let record, _, _) in batch.items {
        guard case .session(let header) = record.event else { continue }
        sawHeader = true
        names[names.count - 1] = header.session
        break
      }
    }
    let handed = Handed()
    swap(&handed.batch, &batch)
    submit { trace in
      var batch = handed.take()
      trace.writer.consume(&batch, checked: checked)
    }
  }

  /// A batch handed to the queue, its one holder: the writer reads the items in place, which
  /// would copy every one of them were the batch also held by the caller or a closure's capture.
  /// `@unchecked Sendable`: the caller gives the batch up before the queue takes it.
  private final class Handed: @unchecked Sendable {
    var batch = JournalBatch()

    func take() -> JournalBatch {
      var taken = JournalBatch()
      swap(&taken, &batch)
      return taken
    }
  }

  /// From here on draws nothing past `seq` (``TraceWriter/drawNothing(after:)``), after the items so far.
  func drawNothing(after seq: Int) {
    submit { $0.writer.drawNothing(after: seq) }
  }

  /// Ends the journal; `checked` is its ``CheckerPass``'s ``CheckerPass/finish()``.
  func endRun(checked: [Finding]) {
    submit { $0.writer.endRun(checked: checked) }
  }

  /// Ends the trace after the last journal (and waits for it).
  public func finish() {
    queue.sync {
      guard finished == nil else { return }
      writer.finish()
      drain()
      finished = Embedded(file: Self.fileName(names), byteCount: gzip.bytesIn, gzip: gzip.finish())
    }
  }

  /// The finished trace (nil before ``finish()``).
  var embedded: Embedded? { queue.sync { finished } }

  /// Hands `work` to the queue (waiting while it has ``batchesInFlight`` to do).
  private func submit(_ work: @escaping @Sendable (ReportTrace) -> Void) {
    inFlight.wait()
    queue.async {
      work(self)
      if self.writer.pendingBytes >= 1 << 20 { self.drain() }
      self.inFlight.signal()
    }
  }

  /// The queue's: compresses what the writer wrote so far.
  private func drain() {
    writer.drain { gzip.append($0) }
  }

  /// A file's name without its folders and its journal extensions.
  static func baseName(of file: String) -> String {
    var name = Substring(file.split(separator: "/").last ?? "")
    for suffix in [".gz", ".ndjson", ".jsonl", ".json"] where name.hasSuffix(suffix) {
      name = name.dropLast(suffix.count)
    }
    return String(name)
  }

  /// `NAME.trace.json`, the runs' names joined by `-vs-`, each kept to letters, digits, `.`, `-`
  /// and `_` (any other run of characters one `_`), at most 60 characters, never starting with a dot.
  static func fileName(_ names: [String]) -> String {
    let parts = names.map { name -> String in
      var out = ""
      var replaced = false
      for scalar in name.unicodeScalars {
        let kept: Bool
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": kept = true
        default: kept = false
        }
        if kept {
          out.unicodeScalars.append(scalar)
          replaced = false
        } else if !replaced {
          out += "_"
          replaced = true
        }
      }
      while out.hasPrefix(".") { out.removeFirst() }
      out = String(out.prefix(60))
      return out.isEmpty ? "session" : out
    }
    return (parts.isEmpty ? "session" : parts.joined(separator: "-vs-")) + ".trace.json"
  }
}
