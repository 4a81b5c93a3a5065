import Journal
import Projection
import Rendering

/// The writer's side of a ``SessionRecorder`` (on its queue only): numbers the events,
/// feeds the checker, keeps the flight recorder's buffer and writes the segments.
struct Engine {
  /// The label of the mark that ends a triggered journal.
  static let triggerLabel = "flight-recorder.trigger"

  let base: String
  let header: Record
  let options: SessionRecorderOptions
  let decision: Sampling.Decision
  let onFinding: (@Sendable (RecorderFinding) -> Void)?
  let onFault: (@Sendable (JournalFileError) -> Void)?

  private var segments: SegmentSet?
  private var buffer: FlightBuffer?
  /// The on-device checker (with a flight recorder), else the model's state alone.
  private var checker: Checker?
  private var plainState = State()
  private var nextSeq = 1
  private var lastTime: Timestamp
  private var diagnostics: [Finding] = []
  private var finished = false
  private(set) var status = SessionRecorderStatus()

  init(
    base: String, header: Record, options: SessionRecorderOptions, decision: Sampling.Decision,
    onFinding: (@Sendable (RecorderFinding) -> Void)?, onFault: (@Sendable (JournalFileError) -> Void)?
  ) {
    self.base = base
    self.header = header
    self.options = options
    self.decision = decision
    self.onFinding = onFinding
    self.onFault = onFault
    lastTime = header.time
    if decision == .session {
      segments = SegmentSet(base: base, rotation: options.rotation, durability: options.durability, header: header)
    }
    if decision != .off, let flight = options.flightRecorder {
      buffer = FlightBuffer(limits: flight)
      var checker = Checker(rules: flight.reported)
      checker.check(header, line: 1, into: &diagnostics)
      self.checker = checker
    } else {
      reduce(into: &plainState, header)
    }
  }

  private var state: State { checker?.state ?? plainState }

  mutating func process(_ batch: [Pending]) {
    let now = Files.monotonicNanoseconds()
    for pending in batch {
      switch pending.item {
      case .capture(let reason):
        capture(fields: [
          .string("reason", reason), Field(key: "triggerSeq", value: RawJSON(unchecked: String(nextSeq - 1))),
        ])
      case .event(let event, var extra):
        if let site = pending.site { extra.append(.string(Record.sourceKey, site.text)) }
        let time = Timestamp(microseconds: max(pending.time, lastTime.microseconds))
        lastTime = time
        let record = Record(seq: nextSeq, time: time, event: event, extra: extra)
        nextSeq += 1
        status.processed += 1
        if segments != nil { appendToSegment(record, now: now) }
        buffer?.append(record)
        if checker != nil {
          checker!.check(record, line: record.seq + 1, into: &diagnostics)
          report()
        } else {
          reduce(into: &plainState, record)
        }
      }
    }
    if var set = segments {
      do throws(Files.Failure) {
        try set.write()
      } catch {
        status.lost += set.bufferedEvents
        set.abandon()
        fault(error)
      }
      segments = set
    }
    if let buffer {
      status.bufferedEvents = buffer.count
      status.bufferedBytes = buffer.bytes
    }
  }

  /// Appends to the open segment, first closing it and opening the next when it is due and no
  /// transition is in flight (so that the next one starts from a state at rest).
  private mutating func appendToSegment(_ record: Record, now: UInt64) {
    guard var set = segments else { return }
    segments = nil
    defer { segments = set }
    do throws(Files.Failure) {
      if set.isDue(now: now) && state.transitionInFlight == nil {
        try set.close()
        status.segmentsRemoved = set.removed
      }
      if !set.isOpen {
        try set.open(state: state, from: record.seq, time: record.time, now: now)
        status.segments += 1
      }
      set.append(record)
      if set.bytes > 1 << 20 || set.bufferedEvents >= 4096 { try set.write() }
    } catch {
      status.lost += set.bufferedEvents
      set.abandon()
      fault(error)
    }
  }

  /// Hands the checker's new findings to the handler; a trigger's finding writes the buffer out.
  private mutating func report() {
    guard !diagnostics.isEmpty else { return }
    let found = diagnostics
    diagnostics.removeAll(keepingCapacity: true)
    for diagnostic in found {
      status.findings += 1
      var capturePath: String?
      if let triggers = options.flightRecorder?.triggers, triggers.contains(diagnostic.rule) {
        capturePath = capture(fields: [
          .string("rule", diagnostic.rule.id),
          Field(key: "triggerSeq", value: RawJSON(unchecked: String(diagnostic.seq ?? (nextSeq - 1)))),
          .string("message", diagnostic.message(.unicode)),
        ])
      }
      let source = diagnostic.source ?? diagnostic.seq.flatMap(source(ofSeq:))
      onFinding?(RecorderFinding(finding: diagnostic, source: source, capture: capturePath))
    }
  }

  private func source(ofSeq seq: Int) -> String? {
    guard let buffer else { return nil }
    for record in buffer.events.reversed() where record.seq <= seq {
      return record.seq == seq ? record.source : nil
    }
    return nil
  }

  /// Writes the flight recorder's buffer as `BASE.capture-N.ndjson`, ending with the trigger's mark.
  @discardableResult
  private mutating func capture(fields: [Field]) -> String? {
    guard let buffer, let flight = options.flightRecorder else { return nil }
    guard status.captures.count < flight.maxCaptures else {
      status.capturesSkipped += 1
      return nil
    }
    let index = status.captures.count + 1
    let path = "\(base).capture-\(index).ndjson"
    var head = header
    head.extra.append(Field(key: "capture", value: RawJSON(unchecked: String(index))))
    let bytes = buffer.journal(header: head, last: .mark(label: Self.triggerLabel, fields: fields))
    do throws(Files.Failure) {
      try Files.writeAtomically(bytes, to: path, sync: options.durability != .none)
      status.captures.append(path)
      return path
    } catch {
      status.capturesSkipped += 1
      fault(error)
      return nil
    }
  }

  /// Syncs the open segment (for a flush).
  mutating func sync() -> Bool {
    guard let set = segments else { return true }
    do throws(Files.Failure) {
      try set.sync()
      return status.lost == 0
    } catch {
      fault(error)
      return false
    }
  }

  /// The end of the session: the checker's last findings, the open segment closed.
  mutating func finish() {
    guard !finished else { return }
    finished = true
    if checker != nil {
      checker!.finish(into: &diagnostics)
      report()
    }
    if var set = segments {
      do throws(Files.Failure) {
        try set.close()
      } catch {
        status.lost += set.bufferedEvents
        set.abandon()
        fault(error)
      }
      status.segmentsRemoved = set.removed
      segments = set
    }
  }

  private mutating func fault(_ failure: Files.Failure) {
    status.faults += 1
    status.lastFault = failure.error
    onFault?(failure.error)
  }
}
