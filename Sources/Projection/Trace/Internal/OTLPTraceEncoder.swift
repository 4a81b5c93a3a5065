import Journal

/// Writes OTLP/JSON as OpenTelemetry's file exporter does: JSON Lines, each a
/// `TracesData` (`{"resourceSpans":[…]}`) of at most ``spansPerLine`` spans.
///
/// One trace per run, its id the first 16 bytes of SHA-256 of the session id
/// (stable: the same session gives the same trace); a root span `session`
/// from the run's first event to its last, and one child span per visit
/// (``VisitTracker``'s, as the `visits` table), from its didAppear to its end.
/// Span events: a controller's callbacks, pans, moves, modal and dealloc, and
/// findings go to the span of its visit while it is open, up to its
/// didDisappear; those before a visit (didLoad, willAppear) wait for the
/// controller's next visit; what no visit takes ends on the root span. A span
/// keeps at most ``eventLimit`` events (OpenTelemetry's default limit) and
/// counts the rest in `droppedEventsCount`. A finding sets its span's status
/// to error.
///
/// Per the OTLP/JSON encoding: ids in lowercase hex, enums as integers, 64-bit
/// integers (times in ns, `intValue`) as decimal strings, lowerCamelCase keys.
struct OTLPTraceEncoder: TraceSink {
  var json = JSONBuffer()
  static let spansPerLine = 512
  static let eventLimit = 128
  /// The bytes reserved for a visit's span events.
  static let spanEventBytes = 1024
  /// Span kind INTERNAL; status code ERROR.
  private static let kindInternal = 1
  private static let statusError = 2

  private let version: String
  private var header: SessionHeader?
  private var file = ""
  private var traceID = ""
  private var spanBase: UInt64 = 0
  private var spanCount: UInt64 = 0
  private var previousSessions: [String] = []
  private var batch = JSONBuffer()
  private var batchCount = 0
  private var lanes: [LaneSpans] = []
  private var root = Events()
  /// The screen of the visit that ended last (`last.screen.name`).
  private var lastScreen: ControllerID?

  /// The events of a span (or waiting for one), as a JSON array being written.
  struct Events {
    var json = JSONBuffer()
    var count = 0
    var dropped = 0
    /// `rule: message` of the first finding.
    var error: String?

    init() { json.open("[") }
  }

  /// A visit's span while it takes events.
  struct OpenSpan {
    var id: UInt64
    var start: Timestamp
    var lastScreen: ControllerID?
    var events = Events()
    /// Set when the visit ended: the span still takes the didDisappear that follows.
    var visit: Visit?
  }

  struct LaneSpans {
    var span: OpenSpan?
    var pending = Events()
  }

  init(version: String) {
    self.version = version
  }

  mutating func beginDocument() {}
  mutating func endDocument() {}

  mutating func beginRun(_ run: Int, file: String) {
    header = nil
    self.file = file
    lanes.removeAll()
    root = Events()
    lastScreen = nil
    spanCount = 0
    batch = JSONBuffer()
    batch.open("[")
    batchCount = 0
    identify(by: "file\u{0}" + file)
  }

  mutating func start(at time: Timestamp) {}

  mutating func header(_ header: SessionHeader) {
    self.header = header
    identify(by: "session\u{0}" + header.session)
  }

  /// The trace id and the span ids' base, from the session id (or the file, without a header).
  private mutating func identify(by key: String) {
    var key = key
    // Two runs of one session id in one file get distinct traces.
    while previousSessions.contains(key) { key += "\u{0}again" }
    let digest = SHA256.hash(Array(key.utf8))
    traceID = Self.hex(digest[0..<16])
    spanBase = digest[16..<24].reduce(0) { $0 << 8 | UInt64($1) }
    if header != nil || previousSessions.isEmpty { previousSessions.append(key) }
  }

  private static func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  private func spanID(_ k: UInt64) -> String {
    let id = spanBase &+ k
    let value = id == 0 ? 1 : id
    let hex = Self.hex((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    return hex
  }

  private mutating func ensure(_ lane: Int) {
    while lanes.count <= lane { lanes.append(LaneSpans()) }
  }

  // MARK: Spans

  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp) {
    ensure(lane)
    closeSpan(lane)
    spanCount += 1
    var span = OpenSpan(id: spanCount, start: time, lastScreen: lastScreen)
    // The events that waited for this visit (didLoad, willAppear) come first.
    swap(&span.events, &lanes[lane].pending)
    // Room for a visit's usual events (a callback is about 110 bytes): its buffer grows once, not
    // at each doubling (a lane's waiting events, one per controller ever seen, get none).
    span.events.json.reserveCapacity(Self.spanEventBytes)
    lanes[lane].span = span
  }

  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp) {
    ensure(lane)
    lanes[lane].span?.visit = visit
    lastScreen = visit.controller
  }

  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp) {}
  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp) {}

  /// Writes the lane's span if its visit has ended.
  private mutating func closeSpan(_ lane: Int) {
    guard let visit = lanes[lane].span?.visit, var span = lanes[lane].span.take() else { return }
    // Taken out, not copied: the span's events are then written without a copy of their own.
    writeSpan(&span, visit)
  }

  /// The events a lane's item goes to: its open span, or its pending events.
  private mutating func withEvents(_ lane: Int, _ body: (inout Events) -> Void) {
    ensure(lane)
    if lanes[lane].span != nil {
      body(&lanes[lane].span!.events)
    } else {
      body(&lanes[lane].pending)
    }
  }

  /// Opens a span event, `{"timeUnixNano":…,"name":…,"attributes":[` and its first attribute,
  /// `journal.seq` (or nothing without a seq), unless the span's limit is reached.
  private static func open(_ events: inout Events, _ name: String, time: Timestamp, seq: Int?) -> Bool {
    guard events.count < eventLimit else {
      events.dropped += 1
      return false
    }
    events.count += 1
    events.json.element()
    events.json.raw(#"{"timeUnixNano":""#)
    events.json.int(Int(time.microseconds) * 1000)
    events.json.raw(#"","name":"#)
    events.json.string(name)
    if let seq {
      events.json.raw(#","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      events.json.int(seq)
      events.json.raw(#""}}"#)
    } else {
      events.json.raw(#","attributes":["#)
    }
    return true
  }

  private static func close(_ events: inout Events) {
    events.json.raw("]}")
  }

  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp) {
    ensure(lane)
    if callback != .didDisappear { closeSpan(lane) }
    withEvents(lane) { events in
      // Implementation note: most events are callbacks; theirs is written in few pieces.
      guard events.count < Self.eventLimit else {
        events.dropped += 1
        return
      }
      events.count += 1
      events.json.element()
      events.json.raw(#"{"timeUnixNano":""#)
      events.json.int(Int(time.microseconds) * 1000)
      switch callback {
      case .didLoad: events.json.raw(#"","name":"didLoad","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      case .willAppear:
        events.json.raw(#"","name":"willAppear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      case .didAppear:
        events.json.raw(#"","name":"didAppear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      case .willDisappear:
        events.json.raw(#"","name":"willDisappear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      case .didDisappear:
        events.json.raw(#"","name":"didDisappear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
      }
      events.json.int(seq)
      events.json.raw(#""}}]}"#)
    }
    if callback == .didDisappear { closeSpan(lane) }
  }

  mutating func move(from: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp) {
    withEvents(from) { events in
      guard Self.open(&events, "move", time: time, seq: seq) else { return }
      Self.attribute(&events.json, "move.to", move.to.rawValue)
      Self.attribute(&events.json, "move.direction", move.direction.rawValue)
      Self.attribute(&events.json, "move.trigger", move.trigger.rawValue)
      Self.attribute(&events.json, "move.animated", bool: move.animated)
      Self.close(&events)
    }
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {}

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    withEvents(lane) { events in
      guard Self.open(&events, "pan", time: time, seq: seq) else { return }
      Self.attribute(&events.json, "pan.direction", pan.direction.rawValue)
      Self.attribute(&events.json, "pan.outcome", pan.outcome.rawValue)
      Self.attribute(&events.json, "pan.fingers", int: pan.touches)
      Self.attribute(&events.json, "pan.distance", double: pan.distance)
      Self.attribute(&events.json, "pan.velocity", double: pan.velocity)
      Self.close(&events)
    }
  }

  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp) {
    withEvents(lane) { events in
      guard Self.open(&events, "modal presented", time: time, seq: seq) else { return }
      Self.attribute(&events.json, "modal.presenter", presenter.rawValue)
      Self.close(&events)
    }
  }

  mutating func dealloc(lane: Int, seq: Int, time: Timestamp) {
    withEvents(lane) { events in
      guard Self.open(&events, "deallocated", time: time, seq: seq) else { return }
      Self.close(&events)
    }
    closeSpan(lane)
  }

  mutating func finding(_ diagnostic: Diagnostic, lane: Int?, time: Timestamp) {
    func add(_ events: inout Events) {
      if events.error == nil { events.error = diagnostic.rule + ": " + diagnostic.message }
      guard Self.open(&events, "finding", time: time, seq: diagnostic.seq) else { return }
      Self.attribute(&events.json, "finding.rule", diagnostic.rule, first: diagnostic.seq == nil)
      Self.attribute(&events.json, "finding.message", diagnostic.message)
      Self.attribute(&events.json, "finding.severity", diagnostic.severity.rawValue)
      Self.attribute(&events.json, "finding.line", int: diagnostic.line)
      Self.attribute(&events.json, "exception.type", diagnostic.rule)
      Self.attribute(&events.json, "exception.message", diagnostic.message)
      Self.close(&events)
    }
    if let lane {
      withEvents(lane, add)
    } else {
      add(&root)
    }
  }

  mutating func endRun(lanes drawn: [TraceLane], root rootLane: Int?, first: Timestamp?, last: Timestamp?) {
    for k in lanes.indices {
      if var span = lanes[k].span.take() {
        // A visit still open at the end has already been ended by the builder.
        if let visit = span.visit {
          writeSpan(&span, visit)
        } else {
          span.events.json.close("]")
          move(span.events, into: &root)
        }
      }
      move(lanes[k].pending, into: &root)
    }
    writeRoot(first: first ?? Timestamp(microseconds: 0), last: last ?? Timestamp(microseconds: 0))
    flushLine()
  }

  /// Moves waiting events that no visit took onto the root span, within its limit.
  private func move(_ events: Events, into root: inout Events) {
    // Re-encoding is not needed: the count decides, the bytes are spliced.
    if root.error == nil { root.error = events.error }
    guard events.count > 0 else {
      root.dropped += events.dropped
      return
    }
    var bytes = events.json.bytes
    if bytes.last == UInt8(ascii: "]") { bytes.removeLast() }
    var items = Self.splitArray(bytes)
    let room = max(0, Self.eventLimit - root.count)
    root.dropped += events.dropped + max(0, items.count - room)
    items = Array(items.prefix(room))
    for item in items {
      root.json.element()
      root.json.raw(item)
      root.count += 1
    }
  }

  /// The top-level elements of a JSON array's text written by ``Events`` (`[{…},{…}`).
  private static func splitArray(_ bytes: [UInt8]) -> [[UInt8]] {
    var items: [[UInt8]] = []
    var depth = 0
    var inString = false
    var escaped = false
    var start = 1
    for i in 1..<bytes.count {
      let c = bytes[i]
      if inString {
        if escaped {
          escaped = false
        } else if c == UInt8(ascii: "\\") {
          escaped = true
        } else if c == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch c {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth == 0 {
          items.append(Array(bytes[start...i]))
          start = i + 2
        }
      default: break
      }
    }
    return items
  }

  // MARK: Writing

  private mutating func writeSpan(_ span: inout OpenSpan, _ visit: Visit) {
    batch.element()
    batch.open("{")
    spanHeader(id: span.id, parent: 0, name: visit.className ?? visit.controller.rawValue)
    batch.key("startTimeUnixNano")
    batch.intString(Int(visit.startTime.microseconds) * 1000)
    batch.key("endTimeUnixNano")
    batch.intString(Int(visit.endTime.microseconds) * 1000)
    batch.key("attributes")
    batch.open("[")
    Self.attribute(&batch, "screen.name", visit.controller.rawValue, first: true)
    if let className = visit.className { Self.attribute(&batch, "screen.class", className) }
    if let last = span.lastScreen { Self.attribute(&batch, "last.screen.name", last.rawValue) }
    commonAttributes(&batch)
    Self.attribute(&batch, "visit.number", int: visit.number)
    Self.attribute(&batch, "visit.start_seq", int: visit.startSeq)
    if let end = visit.endSeq { Self.attribute(&batch, "visit.end_seq", int: end) }
    Self.attribute(&batch, "visit.open", bool: visit.isOpen)
    batch.close("]")
    spanEvents(&span.events)
    batch.close("}")
    batchCount += 1
    if batchCount >= Self.spansPerLine { flushLine() }
  }

  private mutating func writeRoot(first: Timestamp, last: Timestamp) {
    batch.element()
    batch.open("{")
    spanHeader(id: 0, parent: nil, name: "session")
    batch.key("startTimeUnixNano")
    batch.intString(Int(first.microseconds) * 1000)
    batch.key("endTimeUnixNano")
    batch.intString(Int(last.microseconds) * 1000)
    batch.key("attributes")
    batch.open("[")
    Self.attribute(&batch, "journal.file", file, first: true)
    if let header { Self.attribute(&batch, "session.id", header.session) }
    commonAttributes(&batch)
    if let profile = header?.profile { Self.attribute(&batch, "session.profile", profile) }
    if let scenario = header?.scenario { Self.attribute(&batch, "session.scenario", scenario) }
    batch.close("]")
    var events = Events()
    swap(&events, &root)
    spanEvents(&events)
    batch.close("}")
    batchCount += 1
  }

  private mutating func spanHeader(id: UInt64, parent: UInt64?, name: String) {
    batch.key("traceId")
    batch.string(traceID)
    batch.key("spanId")
    batch.string(spanID(id))
    if let parent {
      batch.key("parentSpanId")
      batch.string(spanID(parent))
    }
    batch.key("name")
    batch.string(name)
    batch.key("kind")
    batch.int(Self.kindInternal)
  }

  private func commonAttributes(_ json: inout JSONBuffer) {
    if let build = header?.build { Self.attribute(&json, "app.build", build) }
    if let device = header?.device { Self.attribute(&json, "device.model.name", device) }
  }

  private mutating func spanEvents(_ events: inout Events) {
    if events.count > 0 {
      events.json.close("]")
      batch.key("events")
      batch.raw(events.json.bytes)
    }
    if events.dropped > 0 {
      batch.key("droppedEventsCount")
      batch.int(events.dropped)
    }
    if let error = events.error {
      batch.key("status")
      batch.open("{")
      batch.key("message")
      batch.string(error)
      batch.key("code")
      batch.int(Self.statusError)
      batch.close("}")
    }
  }

  /// Writes the spans gathered so far as one `TracesData` line.
  private mutating func flushLine() {
    guard batchCount > 0 else { return }
    batch.close("]")
    json.raw(#"{"resourceSpans":[{"resource":{"attributes":["#)
    Self.attribute(&json, "service.name", header?.app ?? "unknown_service", first: true)
    if let build = header?.build { Self.attribute(&json, "service.version", build) }
    if let session = header?.session { Self.attribute(&json, "session.id", session) }
    if let device = header?.device { Self.attribute(&json, "device.model.name", device) }
    json.raw(#"]},"scopeSpans":[{"scope":{"name":"spatial-replay","version":"#)
    json.string(version)
    json.raw(#"},"spans":"#)
    json.raw(batch.bytes)
    json.raw("}]}]}\n")
    // Emptied, its capacity kept for the next line.
    batch.drain { _ in }
    batch.open("[")
    batchCount = 0
  }

  // MARK: Attributes

  // Each attribute is `{"key":…,"value":{"TYPE":…}}`, after a comma unless `first`.

  private static func attribute(_ json: inout JSONBuffer, _ key: StaticString, _ value: String, first: Bool = false) {
    attributeKey(&json, key, first)
    json.raw(#"{"stringValue":"#)
    json.string(value)
    json.raw("}}")
  }

  private static func attribute(_ json: inout JSONBuffer, _ key: StaticString, int value: Int, first: Bool = false) {
    attributeKey(&json, key, first)
    json.raw(#"{"intValue":"#)
    json.intString(value)
    json.raw("}}")
  }

  private static func attribute(
    _ json: inout JSONBuffer, _ key: StaticString, double value: Double, first: Bool = false
  ) {
    attributeKey(&json, key, first)
    json.raw(#"{"doubleValue":"#)
    json.number(value)
    json.raw("}}")
  }

  private static func attribute(_ json: inout JSONBuffer, _ key: StaticString, bool value: Bool, first: Bool = false) {
    attributeKey(&json, key, first)
    json.raw(value ? #"{"boolValue":true}}"# : #"{"boolValue":false}}"#)
  }

  /// `,{"key":"KEY","value":` (the comma unless `first`); keys are spelled in the source.
  private static func attributeKey(_ json: inout JSONBuffer, _ key: StaticString, _ first: Bool) {
    json.raw(first ? #"{"key":""# : #",{"key":""#)
    json.raw(key)
    json.raw(#"","value":"#)
  }
}
