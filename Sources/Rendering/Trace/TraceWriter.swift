import Journal
import Projection

/// Turns journals into a trace for the tools engineers already use: the Trace
/// Event Format of Chrome's tracing and Perfetto (``TraceFormat/chrome``), or
/// OTLP/JSON for an OpenTelemetry collector (``TraceFormat/otlp``).
///
/// Streaming: each journal is read once, item by item or batch by batch, and
/// folded once (by its checker); memory is the model's state, one entry per controller drawn and (OTLP) the
/// spans of one output line, whatever the journal's length. The bytes are
/// taken out as they are written (``drain(_:)``). `docs/trace.md` describes
/// the mapping.
///
/// ```swift
/// var trace = TraceWriter(format: .chrome)
/// trace.beginRun(file: "a.ndjson")
/// let reader = try JournalReader(path: "a.ndjson")
/// while let item = reader.next() { trace.consume(item) }
/// trace.endRun()
/// trace.finish()
/// try trace.drain { bytes in out.append(contentsOf: bytes) }
/// ```
public struct TraceWriter: Sendable, PassConsumer {
  public let format: TraceFormat
  // Implementation note: two optionals rather than an enum with payloads, so that each
  // call mutates the builder in place (a payload taken out of an enum is a copy).
  private var chrome: TraceBuilder<ChromeTraceEncoder>?
  private var otlp: TraceBuilder<OTLPTraceEncoder>?

  /// - Parameters:
  ///   - format: the trace format.
  ///   - selection: what is drawn (the model still reads everything).
  ///   - version: the writer's version, for OTLP's instrumentation scope.
  public init(format: TraceFormat, selection: TraceSelection = .all, version: String = "") {
    self.format = format
    switch format {
    case .chrome:
      chrome = TraceBuilder(sink: ChromeTraceEncoder(), selection: selection)
    case .otlp:
      otlp = TraceBuilder(sink: OTLPTraceEncoder(version: version), selection: selection)
    }
  }

  /// Starts a run: the first journal, then (drawn beside it) a second one.
  public mutating func beginRun(file: String) {
    if chrome != nil { chrome!.beginRun(file: file) } else { otlp!.beginRun(file: file) }
  }

  /// Takes the reader's next item (the lifecycle checker runs here).
  public mutating func consume(_ item: JournalItem) {
    if chrome != nil { chrome!.consume(item) } else { otlp!.consume(item) }
  }

  /// Takes a batch of the reader's items, checked on another thread by a ``CheckerPass`` that keeps
  /// each record's facts (`CheckerPass(facts: true)`: all rules, no model), whose fold the trace reads.
  public mutating func consume(_ batch: inout JournalBatch, checked: CheckedBatch) {
    if chrome != nil { chrome!.consume(&batch, checked: checked) } else { otlp!.consume(&batch, checked: checked) }
  }

  /// The trace draws phases, moves and roots from the checker's fold.
  public static var readsFacts: Bool { true }

  /// From here on, draws nothing whose seq is past `seq`, as if the selection's seqs had ended
  /// there from the start (the report's automatic window, known once its last event is read):
  /// for a journal whose seqs increase, the trace is then that of `trace --to SEQ`.
  public mutating func drawNothing(after seq: Int) {
    if chrome != nil { chrome!.drawNothing(after: seq) } else { otlp!.drawNothing(after: seq) }
  }

  /// Ends the run; `checked` is the ``CheckerPass``'s ``CheckerPass/finish()`` when batches were checked apart.
  public mutating func endRun(checked: [Finding]? = nil) {
    if chrome != nil { chrome!.endRun(checked: checked) } else { otlp!.endRun(checked: checked) }
  }

  /// Ends the document after the last run.
  public mutating func finish() {
    if chrome != nil { chrome!.finish() } else { otlp!.finish() }
  }

  /// Bytes written and not yet drained.
  public var pendingBytes: Int { chrome?.sink.json.count ?? otlp!.sink.json.count }

  /// Hands the bytes written so far to `body` and forgets them.
  public mutating func drain<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
    if chrome != nil { try chrome!.sink.json.drain(body) } else { try otlp!.sink.json.drain(body) }
  }

  /// Takes the bytes written so far, leaving `spare` (emptied, its capacity kept) to write the
  /// next ones into: a caller that gets its written buffers back hands each one in again.
  public mutating func take(leaving spare: consuming [UInt8]) -> [UInt8] {
    if chrome != nil {
      chrome!.sink.json.take(leaving: consume spare)
    } else {
      otlp!.sink.json.take(leaving: consume spare)
    }
  }

  /// The whole trace of some journals' items, in one piece (for small inputs and tests).
  public static func document(
    format: TraceFormat, runs: [(file: String, items: [JournalItem])], selection: TraceSelection = .all,
    version: String = ""
  ) -> [UInt8] {
    var trace = TraceWriter(format: format, selection: selection, version: version)
    for run in runs {
      trace.beginRun(file: run.file)
      for item in run.items { trace.consume(item) }
      trace.endRun()
    }
    trace.finish()
    var out: [UInt8] = []
    trace.drain { out.append(contentsOf: $0) }
    return out
  }
}
