import Dispatch
import Journal
import Projection
import Rendering
import Synchronization

/// The recorder a production app ships: the whole session in rotating, compressed
/// segments with a bound on what is kept; a flight recorder that keeps the last
/// events in memory and writes them out only when a trigger fires (a finding of the
/// lifecycle rules, checked on the device by the same ``Checker`` as `check`, or the
/// app's own ``capture(reason:)``); call sites; redaction; sampling.
///
/// A recording call redacts the event (``SessionRecorderOptions/redaction``), takes
/// the time and puts it in a bounded queue: it never does I/O and never waits. A
/// writer on its own queue numbers the events, feeds the checker, keeps the flight
/// recorder's buffer and writes the segments, one `write` per batch.
///
/// ```swift
/// var options = SessionRecorderOptions()
/// options.flightRecorder = FlightRecorder(triggers: [.didWithoutWill])
/// options.callSites = true
/// let recorder = SessionRecorder(
///   base: "journals/notes", header: SessionHeader(session: id, app: "Notes"), options: options,
///   onFinding: { finding in print(finding.text) })
/// recorder.alloc("home#1", className: "HomeViewController")
/// recorder.capture(reason: "crash handler")
/// recorder.close()
/// ```
public final class SessionRecorder: Sendable {
  /// The segments' base path: `BASE.000001.ndjson`, … (and `BASE.capture-1.ndjson`, … for triggered journals).
  public let base: String
  public let options: SessionRecorderOptions
  /// What the draw at launch decided (see ``Sampling``).
  public let decision: Sampling.Decision
  private let redaction: Redaction?
  private let shared: Mutex<Shared>
  private let engine: Mutex<Engine>
  private let drainQueue = DispatchQueue(label: "spatial-replay.session-recorder", qos: .utility)

  /// Starts recording (or not, as the sampling decides).
  ///
  /// - Parameters:
  ///   - base: the path the segments and triggered journals are named after; its folder must exist.
  ///   - header: the session header (redacted, with the sampling keys added).
  ///   - onFinding: called on the writer's queue with each finding of the on-device checker, as it
  ///     happens (a flight recorder must be set); it must not call ``flush()`` or ``close()``.
  ///   - onFault: called on the writer's queue with each I/O fault.
  public init(
    base: String, header: SessionHeader, options: SessionRecorderOptions = SessionRecorderOptions(),
    onFinding: (@Sendable (RecorderFinding) -> Void)? = nil,
    onFault: (@Sendable (JournalFileError) -> Void)? = nil
  ) {
    self.base = base
    self.options = options
    self.redaction = options.redaction
    let decision = options.sampling.decide()
    self.decision = decision
    var head = Record(
      seq: 0, time: Timestamp(microseconds: Files.wallClockMicroseconds()),
      event: .session(options.redaction?.header(header) ?? header))
    head.extra = [
      Field(key: "sampleSession", value: RawJSON(unchecked: Self.number(options.sampling.session))),
      Field(key: "sampleTriggered", value: RawJSON(unchecked: Self.number(options.sampling.triggered))),
      .string("sampled", decision.rawValue),
    ]
    shared = Mutex(Shared(active: decision != .off))
    engine = Mutex(
      Engine(
        base: base, header: head, options: options, decision: decision, onFinding: onFinding, onFault: onFault))
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// What the recorder has done so far.
  public var status: SessionRecorderStatus {
    let (accepted, dropped) = shared.withLock { ($0.accepted, $0.dropped) }
    var status = engine.withLock { $0.status }
    status.accepted = accepted
    status.dropped = dropped
    return status
  }

  /// Records an event with the time of this call; with ``SessionRecorderOptions/callSites``
  /// on, `file` and `line` (the caller's, by default) become its `source`.
  public func record(_ event: Event, extra: [Field] = [], file: StaticString = #fileID, line: UInt = #line) {
    guard shared.withLock({ $0.active }) else { return }
    var event = event
    var extra = extra
    if let redaction {
      event = redaction.apply(event)
      if !extra.isEmpty { extra = redaction.fields(nil, extra) }
    }
    enqueue(
      Pending(
        time: Files.wallClockMicroseconds(), item: .event(event, extra),
        site: options.callSites ? RecordingSite(file: file, line: line) : nil))
  }

  /// Writes the flight recorder's buffer out now as a journal of its own, ending with a
  /// `mark` `flight-recorder.trigger` whose `reason` is `reason` (from a crash or error
  /// handler, say). Events recorded before the call are in it. Nothing happens without
  /// a flight recorder, or when the session is not sampled.
  public func capture(reason: String) {
    guard shared.withLock({ $0.active }) else { return }
    enqueue(Pending(time: Files.wallClockMicroseconds(), item: .capture(reason), site: nil))
  }

  private func enqueue(_ pending: Pending) {
    let start = shared.withLock { s -> Bool in
      guard s.active else { return false }
      if s.pending.count >= options.capacity {
        s.dropped += 1
        return false
      }
      s.pending.append(pending)
      if case .event = pending.item { s.accepted += 1 }
      if s.draining { return false }
      s.draining = true
      return true
    }
    if start { drainQueue.async { self.drain() } }
  }

  /// Waits until every event recorded before the call is processed: written (and, unless the
  /// durability is `none`, synced) in a recorded session, in the buffer otherwise.
  /// - Returns: whether they all were, without a fault.
  @discardableResult
  public func flush() -> Bool {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex(false)
    let start = shared.withLock { s -> Bool in
      s.flushWaiters.append { ok in
        result.withLock { $0 = ok }
        done.signal()
      }
      if s.draining { return false }
      s.draining = true
      return true
    }
    if start { drainQueue.async { self.drain() } }
    done.wait()
    return result.withLock { $0 }
  }

  /// Writes what is queued, reports what only the end shows to the finding handler (an
  /// unfinished transition), closes (and compresses) the open segment and stops recording.
  @discardableResult
  public func close() -> SessionRecorderStatus {
    let first = shared.withLock { s in
      defer { s.closing = true }
      return !s.closing
    }
    if first {
      flush()
      drainQueue.sync { engine.withLock { $0.finish() } }
      shared.withLock { $0.active = false }
    }
    return status
  }

  private func drain() {
    engine.withLock { engine in
      var batch: [Pending] = []
      while true {
        let waiters = shared.withLock { s -> [@Sendable (Bool) -> Void] in
          swap(&batch, &s.pending)
          s.pending.removeAll(keepingCapacity: true)
          guard batch.isEmpty else { return [] }
          let waiters = s.flushWaiters
          s.flushWaiters.removeAll()
          if waiters.isEmpty { s.draining = false }
          return waiters
        }
        if !batch.isEmpty {
          engine.process(batch)
          batch.removeAll(keepingCapacity: true)
          continue
        }
        guard !waiters.isEmpty else { return }
        let ok = engine.sync()
        for waiter in waiters { waiter(ok) }
      }
    }
  }
}

/// The `FILE:LINE` of a recording call, kept as the compiler gave it until the writer formats it.
struct RecordingSite: Sendable {
  var file: StaticString
  var line: UInt
  var text: String { "\(file):\(line)" }
}

struct Pending: Sendable {
  enum Item: Sendable {
    case event(Event, [Field])
    case capture(String)
  }
  var time: Int64
  var item: Item
  var site: RecordingSite?
}

/// What the callers and the writer share, under the recorder's mutex.
struct Shared {
  var active: Bool
  var pending: [Pending] = []
  var accepted = 0
  var dropped = 0
  var draining = false
  var closing = false
  var flushWaiters: [@Sendable (Bool) -> Void] = []
}

/// A finding of the on-device checker, as the handler hears it.
public struct RecorderFinding: Sendable {
  /// The finding, as `check` reports it (its `line` is the event's line in the whole session: its seq + 1).
  public var finding: Finding
  /// The `source` of the event it is about, when call sites are on.
  public var source: String?
  /// The triggered journal it caused, if its rule is a trigger and a journal was written.
  public var capture: String?

  /// The finding as `check` words it, at the session's line, with the call site and the triggered journal:
  /// `session:245: error: … [did-without-will] (recorded at Shop/main.swift:31) → journals/shop.capture-1.ndjson`.
  public var text: String {
    var shown = finding
    shown.source = source
    return CheckFinding.rule(shown).formatted(file: "session") + (capture.map { " → \($0)" } ?? "")
  }
}

/// What a ``SessionRecorder`` has done so far.
public struct SessionRecorderStatus: Sendable, Hashable {
  /// Events taken into the queue.
  public var accepted = 0
  /// Events dropped: the queue was full (or the session is not recorded: those are not counted).
  public var dropped = 0
  /// Events processed by the writer (numbered, checked, buffered and, in a recorded session, encoded).
  public var processed = 0
  /// Events of a recorded session that could not be written (a fault).
  public var lost = 0
  /// Segments opened so far, and removed to keep within the bound.
  public var segments = 0
  public var segmentsRemoved = 0
  /// The triggered journals written, in order.
  public var captures: [String] = []
  /// Triggers that fired once ``FlightRecorder/maxCaptures`` was reached, or whose journal could not be written.
  public var capturesSkipped = 0
  /// Findings of the on-device checker.
  public var findings = 0
  /// The flight recorder's buffer now: events and encoded bytes.
  public var bufferedEvents = 0
  public var bufferedBytes = 0
  public var faults = 0
  public var lastFault: JournalFileError?

  public init() {}
}
