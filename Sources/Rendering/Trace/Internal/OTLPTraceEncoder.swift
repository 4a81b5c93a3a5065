import Journal
import Projection

/// Writes OTLP/JSON as OpenTelemetry's file exporter does: JSON Lines, each a
/// `TracesData` (`{"resourceSpans":[…]}`) of at most ``spansPerLine`` spans.
///
/// One trace per run, its id the first 16 bytes of SHA-256 of the session id
/// (stable: the same session gives the same trace); a root span `session`
/// from the run's first event to its last, and one child span per visit
/// (``VisitTracker``'s, every row of the `visits` table), from its didAppear
/// (an incomplete one's willAppear) to its end. Span events: a controller's
/// callbacks, pans, moves, modal and dealloc, and findings go to the span of
/// its visit while it is open, up to its didDisappear; those before a visit
/// (didLoad, willAppear) wait for the controller's next visit; what no visit
/// takes ends on the root span. A span keeps at most ``eventLimit`` events
/// (OpenTelemetry's default limit), counts the rest in `droppedEventsCount`
/// and names them in its `dropped.events` attribute. A finding, or a visit
/// whose didAppear never came, sets its span's status to error.
///
/// Per the OTLP/JSON encoding: ids in lowercase hex, enums as integers, 64-bit
/// integers (times in ns, `intValue`) as decimal strings, lowerCamelCase keys.
///
/// This file keeps the runs, the lanes and their spans; what is kept per lane and span is in
/// `OTLPTraceEncoder+Lanes.swift`, the span events' text in `+SpanEvents.swift`, and the spans'
/// and lines' text in `+Lines.swift`.
struct OTLPTraceEncoder: TraceSink, Sendable {
  var json = JSONBuffer()
  static let spansPerLine = 512
  static let eventLimit = 128
  /// The bytes reserved for a visit's span events.
  static let spanEventBytes = 1024
  /// Span kind INTERNAL; status code ERROR.
  static let kindInternal = 1
  static let statusError = 2

  let version: String
  var header: SessionHeader?
  var file = ""
  var traceID = ""
  var spanBase: UInt64 = 0
  private var spanCount: UInt64 = 0
  private var previousSessions: [String] = []
  /// The line being gathered: its spans (``batchCount`` of them), after its `TracesData` prefix
  /// when ``linePrefixed``.
  var batch = JSONBuffer()
  var batchCount = 0
  /// The line's spans' array is open in ``batch``.
  var lineStarted = false
  /// ``batch`` begins with the line's prefix: the header was known when the line began (it is
  /// taken once per run, so it is the one the line ends with), and ``flushLine()`` hands the
  /// line over whole, without a copy when ``json`` is empty (it mostly is: it is drained often).
  var linePrefixed = false
  private var lanes: [LaneSpans] = []
  /// Per lane, whether its span is open, and whether its visit has ended (read on every event).
  ///
  /// Implementation note: apart from ``lanes``, of a plain type: reading a lane's optional span
  /// to find out would copy the lane (its span, its visit and their buffers retained and released).
  var spanStates: [SpanState] = []
  /// Per lane, its controller's text, made at its first span or move to it.
  ///
  /// Implementation note: apart from ``lanes`` too: read through the lane, each span and each
  /// move would copy the whole ``LaneSpans`` (its span's and its waiting events' buffers retained
  /// and released).
  var texts: [LaneText?] = []
  var root = Events()
  /// The lane of the visit that ended last (`last.screen.name`).
  var lastScreen: Int?
  /// Per lane, ``lastScreen`` at its first willAppear since its last span (-1: none; -2: no willAppear yet): the
  /// `last.screen.name` of an incomplete visit, which counts from there and is known only when it ends.
  var lastScreenAtWill: [Int32] = []
  /// Per run, pre-encoded: `{"traceId":"…","spanId":"` and `","parentSpanId":"…","name":` (the root's id).
  var spanOpen: [UInt8] = []
  var spanParent: [UInt8] = []
  /// Per run, pre-encoded: the attributes every span carries (``commonAttributes(_:)``), a comma before each.
  var common: [UInt8] = []
  var nanos = NanosText()
  /// Span events' buffers of spans written, emptied, for the next visits (their capacity kept).
  private var spareEvents: [Events] = []
  private static let spareLimit = 64

  init(version: String) {
    self.version = version
  }

  mutating func beginDocument() {}
  mutating func endDocument() {}

  mutating func beginRun(_ run: Int, file: String) {
    header = nil
    self.file = file
    lanes.removeAll()
    spanStates.removeAll()
    texts.removeAll()
    root = Events()
    lastScreen = nil
    lastScreenAtWill.removeAll()
    spanCount = 0
    batch = JSONBuffer()
    batchCount = 0
    (lineStarted, linePrefixed) = (false, false)
    identify(by: "file\u{0}" + file)
    encodeCommon()
  }

  mutating func start(at time: Timestamp) {}

  mutating func header(_ header: SessionHeader) {
    self.header = header
    identify(by: "session\u{0}" + header.session)
    encodeCommon()
  }

  /// The pieces every span of the run writes the same.
  private mutating func encodeCommon() {
    var json = JSONBuffer()
    json.raw(#"{"traceId":"#)
    json.string(traceID)
    json.raw(#","spanId":""#)
    spanOpen = json.take()
    json.raw(#"","parentSpanId":"#)
    json.string(spanID(0))
    json.raw(#","name":"#)
    spanParent = json.take()
    commonAttributes(&json)
    common = json.take()
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

  func spanID(_ k: UInt64) -> String {
    let id = spanBase &+ k
    let value = id == 0 ? 1 : id
    let hex = Self.hex((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    return hex
  }

  @inline(__always)
  mutating func ensure(_ lane: Int) {
    if lane >= lanes.count { grow(to: lane) }
  }

  /// ``ensure(_:)`` for a lane not seen yet.
  @inline(never)
  private mutating func grow(to lane: Int) {
    while lanes.count <= lane {
      lanes.append(LaneSpans())
      spanStates.append(.none)
      texts.append(nil)
      lastScreenAtWill.append(-2)
    }
  }

  /// Makes lane `lane`'s text for `id` if it has none (or one of another id).
  @inline(__always)
  mutating func ensureText(_ lane: Int, _ id: ControllerID) {
    ensure(lane)
    if texts[lane] == nil || texts[lane]!.id != id { texts[lane] = LaneText(id) }
  }

  // MARK: Spans

  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp) {
    ensure(lane)
    closeSpan(lane)
    spanCount += 1
    var events: Events
    if let spare = spareEvents.popLast() {
      events = spare
    } else {
      events = Events()
      // Room for a visit's usual events (a callback is about 110 bytes): its buffer grows once, not
      // at each doubling (a lane's waiting events, one per controller ever seen, get none).
      events.json.reserveCapacity(Self.spanEventBytes)
    }
    // The events that waited for this visit (didLoad, willAppear) come first.
    events.take(lanes[lane].pending)
    lanes[lane].pending.reset()
    lanes[lane].span = OpenSpan(id: spanCount, start: time, lastScreen: lastScreen, events: events)
    spanStates[lane] = .open
    lastScreenAtWill[lane] = -2
  }

  /// The span of a visit whose didAppear never came: it takes the events that waited (from its willAppear on,
  /// and those before it), and the willDisappear and didDisappear that follow its end, as a visit's span does;
  /// its status is ERROR, saying what is missing (``writeSpan(_:lane:)``).
  mutating func incompleteVisit(lane: Int, _ visit: Visit, time: Timestamp) {
    ensure(lane)
    let before = lastScreenAtWill[lane]
    visitBegan(lane: lane, number: visit.number, seq: visit.startSeq, time: visit.startTime)
    if before != -2 { lanes[lane].span!.lastScreen = before < 0 ? nil : Int(before) }
    visitEnded(lane: lane, visit, time: time)
  }

  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp) {
    ensureText(lane, visit.controller)
    if spanStates[lane] != .none {
      lanes[lane].span!.visit = visit
      spanStates[lane] = .ended
    }
    lastScreen = lane
  }

  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp) {}
  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp) {}

  /// Writes the lane's span if its visit has ended.
  mutating func closeSpan(_ lane: Int) {
    guard spanStates[lane] == .ended, var span = lanes[lane].span.take() else { return }
    spanStates[lane] = .none
    // Taken out, not copied: the span's events are then written without a copy of their own.
    writeSpan(&span, lane: lane)
    if spareEvents.count < Self.spareLimit {
      // Swapped out, not copied (a copy would retain and release its buffer).
      var events = Events(taken: ())
      swap(&events, &span.events)
      events.reset()
      spareEvents.append(events)
    }
  }

  /// The events a lane's item goes to: its open span, or its pending events.
  mutating func withEvents(_ lane: Int, _ body: (inout Events, inout NanosText) -> Void) {
    ensure(lane)
    if spanStates[lane] != .none {
      body(&lanes[lane].span!.events, &nanos)
    } else {
      body(&lanes[lane].pending, &nanos)
    }
  }

  mutating func endRun(lanes drawn: [TraceLane], root rootLane: Int?, first: Timestamp?, last: Timestamp?) {
    for k in lanes.indices {
      spanStates[k] = .none
      if var span = lanes[k].span.take() {
        // A visit still open at the end has already been ended by the builder.
        if span.visit != nil {
          writeSpan(&span, lane: k)
        } else {
          span.events.json.close("]")
          Self.move(span.events, into: &root)
        }
      }
      Self.move(lanes[k].pending, into: &root)
    }
    writeRoot(first: first ?? Timestamp(microseconds: 0), last: last ?? Timestamp(microseconds: 0))
    flushLine()
  }

  /// Moves waiting events that no visit took onto the root span, within its limit.
  ///
  /// Implementation note: static: a method of the encoder writing into its own root copied the
  /// whole encoder at each call (one a lane, at the end of the run).
  private static func move(_ events: Events, into root: inout Events) {
    // Re-encoding is not needed: the count decides, the bytes are spliced.
    if root.error == nil { root.error = events.error }
    for (name, count) in events.droppedNames { root.drop(name, count: count) }
    guard events.count > 0 else { return }
    let room = max(0, Self.eventLimit - root.count)
    var bytes = events.json.bytes
    if bytes.last == UInt8(ascii: "]") { bytes.removeLast() }
    var items = Self.splitArray(bytes)
    // The root's limit cuts the last ones (most lanes of a long journal come after it filled): counted by name.
    for item in items.dropFirst(room) { root.drop(Self.eventName(item)) }
    items = Array(items.prefix(room))
    for item in items {
      root.json.element()
      root.json.raw(item)
      root.count += 1
    }
  }

  /// The name of a span event written by ``Events``: its `"name"`, the first string after `"name":"`
  /// (never escaped: every name is spelled in the source, a finding's too).
  private static func eventName(_ item: [UInt8]) -> String {
    let key = Array(#""name":""#.utf8)
    guard let start = item.indices.first(where: { item[$0...].starts(with: key) }).map({ $0 + key.count }),
      let end = item[start...].firstIndex(of: UInt8(ascii: "\""))
    else { return "event" }
    return String(decoding: item[start..<end], as: UTF8.self)
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
}
