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
struct OTLPTraceEncoder: TraceSink, Sendable {
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
  /// The line being gathered: its spans (``batchCount`` of them), after its `TracesData` prefix
  /// when ``linePrefixed``.
  private var batch = JSONBuffer()
  private var batchCount = 0
  /// The line's spans' array is open in ``batch``.
  private var lineStarted = false
  /// ``batch`` begins with the line's prefix: the header was known when the line began (it is
  /// taken once per run, so it is the one the line ends with), and ``flushLine()`` hands the
  /// line over whole, without a copy when ``json`` is empty (it mostly is: it is drained often).
  private var linePrefixed = false
  private var lanes: [LaneSpans] = []
  /// Per lane, whether its span is open, and whether its visit has ended (read on every event).
  ///
  /// Implementation note: apart from ``lanes``, of a plain type: reading a lane's optional span
  /// to find out would copy the lane (its span, its visit and their buffers retained and released).
  private var spanStates: [SpanState] = []
  /// Per lane, its controller's text, made at its first span or move to it.
  ///
  /// Implementation note: apart from ``lanes`` too: read through the lane, each span and each
  /// move would copy the whole ``LaneSpans`` (its span's and its waiting events' buffers retained
  /// and released).
  private var texts: [LaneText?] = []
  private var root = Events()
  /// The lane of the visit that ended last (`last.screen.name`).
  private var lastScreen: Int?
  /// Per lane, ``lastScreen`` at its first willAppear since its last span (-1: none; -2: no willAppear yet): the
  /// `last.screen.name` of an incomplete visit, which counts from there and is known only when it ends.
  private var lastScreenAtWill: [Int32] = []
  /// Per run, pre-encoded: `{"traceId":"…","spanId":"` and `","parentSpanId":"…","name":` (the root's id).
  private var spanOpen: [UInt8] = []
  private var spanParent: [UInt8] = []
  /// Per run, pre-encoded: the attributes every span carries (``commonAttributes(_:)``), a comma before each.
  private var common: [UInt8] = []
  private var nanos = NanosText()
  /// Span events' buffers of spans written, emptied, for the next visits (their capacity kept).
  private var spareEvents: [Events] = []
  private static let spareLimit = 64

  /// The events of a span (or waiting for one), as a JSON array being written.
  struct Events {
    var json = JSONBuffer()
    var count = 0
    var dropped = 0
    /// The events dropped, by name (``dropped`` in all): the span says which (`dropped.events`).
    ///
    /// Implementation note: empty, a dictionary allocates nothing; a lane's waiting events are one
    /// per controller ever seen.
    var droppedNames: [String: Int] = [:]
    /// `rule: message` of the first finding.
    var error: String?

    init() { json.open("[") }

    /// No events and no buffer (not even the bracket): what a span's events leave behind when
    /// they are taken out of it (``closeSpan(_:)``) without a copy.
    init(taken: Void) {}

    /// Empties the events, keeping the buffer's capacity.
    mutating func reset() {
      json.close("]")  // never closed: ``spanEvents(_:)`` writes the bracket after them
      json.drain { _ in }
      json.open("[")
      (count, dropped, error) = (0, 0, nil)
      if !droppedNames.isEmpty { droppedNames.removeAll() }
    }

    /// Counts an event the span's limit leaves out.
    mutating func drop(_ name: String, count: Int = 1) {
      dropped += count
      droppedNames[name, default: 0] += count
    }

    /// What was dropped, `N NAME` by name: `7 deallocated, 5 didLoad`.
    var droppedText: String {
      droppedNames.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// Appends `other`'s events (a lane's waiting ones) to these, which have none yet.
    mutating func take(_ other: Events) {
      if other.count > 0 {
        json.element()
        // Through a buffer pointer: a slice of the array would retain and release it.
        other.json.bytes.withUnsafeBufferPointer { bytes in
          json.withBytes { $0.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[1...])) }
        }
      }
      (count, dropped, error, droppedNames) = (other.count, other.dropped, other.error, other.droppedNames)
    }
  }

  /// A lane's controller as the spans write it, made at its first span or move to it.
  struct LaneText {
    var id: ControllerID
    /// `"ID"`, escaped.
    var quotedID: [UInt8]
    /// The class that ``quotedName`` and ``quotedClass`` were made for.
    var className: String?
    /// `"CLASS"` (the id's without a class): the span's name.
    var quotedName: [UInt8]

    init(_ id: ControllerID) {
      self.id = id
      quotedID = []
      JSONWriter.appendString(id.rawValue, to: &quotedID)
      quotedName = quotedID
    }

    mutating func name(_ className: String?) {
      guard className != self.className else { return }
      self.className = className
      if let className {
        quotedName.removeAll(keepingCapacity: true)
        JSONWriter.appendString(className, to: &quotedName)
      } else {
        quotedName = quotedID
      }
    }
  }

  /// A visit's span while it takes events.
  struct OpenSpan {
    var id: UInt64
    var start: Timestamp
    /// The lane of `last.screen.name`.
    var lastScreen: Int?
    var events: Events
    /// Set when the visit ended: the span still takes the willDisappear and didDisappear that follow.
    var visit: Visit?
  }

  enum SpanState: UInt8 {
    case none, open, ended
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

  /// The room a visit's span needs besides its strings: its fixed text (at most 470 bytes), its
  /// id (16), two times (``NanosText/room``) and three integers (20 each).
  private static var spanRoom: Int { 620 }

  /// An id's 16 lowercase hex digits, as ``spanID(_:)`` spells them.
  @inline(__always)
  private static func writeHex(_ id: UInt64, to out: inout ByteWriter) {
    var value = id
    var digits: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      let hex: StaticString = "0123456789abcdef"
      for i in (0..<16).reversed() {
        buffer[i] = hex.utf8Start[Int(value & 15)]
        value >>= 4
      }
      out.bytes(UnsafeRawBufferPointer(buffer))
    }
  }

  private func spanID(_ k: UInt64) -> String {
    let id = spanBase &+ k
    let value = id == 0 ? 1 : id
    let hex = Self.hex((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    return hex
  }

  @inline(__always)
  private mutating func ensure(_ lane: Int) {
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
  private mutating func ensureText(_ lane: Int, _ id: ControllerID) {
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
  private mutating func closeSpan(_ lane: Int) {
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
  private mutating func withEvents(_ lane: Int, _ body: (inout Events, inout NanosText) -> Void) {
    ensure(lane)
    if spanStates[lane] != .none {
      body(&lanes[lane].span!.events, &nanos)
    } else {
      body(&lanes[lane].pending, &nanos)
    }
  }

  /// Opens a span event, `{"timeUnixNano":…,"name":…,"attributes":[` and its first attribute,
  /// `journal.seq` (or nothing without a seq), unless the span's limit is reached.
  private static func open(_ events: inout Events, _ name: String, time: Timestamp, seq: Int?) -> Bool {
    guard events.count < eventLimit else {
      events.drop(name)
      return false
    }
    events.count += 1
    events.json.element()
    events.json.raw(#"{"timeUnixNano":""#)
    events.json.write(atMost: NanosText.room) { NanosText.write(time, to: &$0) }
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

  /// ``open(_:_:time:seq:)`` for a name spelled in the source: `name` is
  /// `","name":"NAME","attributes":[{"key":"journal.seq","value":{"intValue":"`, `kind` is NAME; `rest` writes
  /// what follows the seq's attribute, in the same piece, in at most `room` bytes.
  ///
  /// Implementation note: an event in one piece, its attributes with it. Written as pieces of
  /// their own (a few calls of ``JSONBuffer/raw(_:)-(StaticString)`` per attribute), a pan's
  /// eleven appends would cost more than its text, and every event of a trace goes through here.
  @inline(__always)
  private static func open(
    _ events: inout Events, _ nanos: inout NanosText, _ name: StaticString, kind: String, time: Timestamp, seq: Int,
    room: Int = 0, _ rest: (inout ByteWriter) -> Void = { _ in }
  ) -> Bool {
    guard events.count < eventLimit else {
      events.drop(kind)
      return false
    }
    events.count += 1
    events.json.element()
    events.json.writeCopied(atMost: eventRoom + room) { out in
      out.raw(#"{"timeUnixNano":""#)
      nanos.write(time, to: &out)
      out.raw(name)
      out.int(seq)
      out.raw(#""}}"#)
      rest(&out)
    }
    return true
  }

  /// The room for a span event's fixed text and integers: its time (``NanosText/room``), its name
  /// and `journal.seq` attribute (at most 100 bytes and a seq of 20 digits), and what follows
  /// them. Written on the stack and copied (``JSONBuffer/writeCopied(atMost:_:)``): a lane's
  /// waiting events are one small array per controller, and a room reserved in each would add
  /// that much memory per controller to `trace --format otlp`'s peak.
  private static var eventRoom: Int { 200 }

  private static func close(_ events: inout Events) {
    events.json.raw("]}")
  }

  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp) {
    ensure(lane)
    // A visit that ended still takes the willDisappear that ended it (the builder hands it over after the
    // visit's end) and the didDisappear after: the next callback of another kind closes its span.
    if callback != .didDisappear && callback != .willDisappear { closeSpan(lane) }
    if callback == .willAppear, spanStates[lane] == .none, lastScreenAtWill[lane] == -2 {
      lastScreenAtWill[lane] = Int32(lastScreen ?? -1)
    }
    withEvents(lane) { events, nanos in
      // Implementation note: most events are callbacks; theirs is written in few pieces.
      guard events.count < Self.eventLimit else {
        events.drop(callback.rawValue)
        return
      }
      events.count += 1
      events.json.element()
      events.json.writeCopied(atMost: Self.eventRoom) { out in
        out.raw(#"{"timeUnixNano":""#)
        nanos.write(time, to: &out)
        switch callback {
        case .didLoad: out.raw(#"","name":"didLoad","attributes":[{"key":"journal.seq","value":{"intValue":""#)
        case .willAppear:
          out.raw(#"","name":"willAppear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
        case .didAppear:
          out.raw(#"","name":"didAppear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
        case .willDisappear:
          out.raw(#"","name":"willDisappear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
        case .didDisappear:
          out.raw(#"","name":"didDisappear","attributes":[{"key":"journal.seq","value":{"intValue":""#)
        }
        out.int(seq)
        out.raw(#""}}]}"#)
      }
    }
    if callback == .didDisappear { closeSpan(lane) }
  }

  mutating func move(from: Int, to: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp) {
    ensureText(to, move.to)
    let target = texts[to]!.quotedID
    withEvents(from) { events, nanos in
      let name: StaticString = #"","name":"move","attributes":[{"key":"journal.seq","value":{"intValue":""#
      guard
        Self.open(
          &events, &nanos, name, kind: "move", time: time, seq: seq, room: 50,
          { $0.raw(#",{"key":"move.to","value":{"stringValue":"#) })
      else { return }
      events.json.raw(target)
      // The direction's, trigger's and animated attributes: at most 190 bytes.
      events.json.writeCopied(atMost: 200) { out in
        switch move.direction {
        case .left: out.raw(#"}},{"key":"move.direction","value":{"stringValue":"left"}}"#)
        case .right: out.raw(#"}},{"key":"move.direction","value":{"stringValue":"right"}}"#)
        case .up: out.raw(#"}},{"key":"move.direction","value":{"stringValue":"up"}}"#)
        case .down: out.raw(#"}},{"key":"move.direction","value":{"stringValue":"down"}}"#)
        }
        switch move.trigger {
        case .programmatic: out.raw(#",{"key":"move.trigger","value":{"stringValue":"programmatic"}}"#)
        case .pan: out.raw(#",{"key":"move.trigger","value":{"stringValue":"pan"}}"#)
        case .fling: out.raw(#",{"key":"move.trigger","value":{"stringValue":"fling"}}"#)
        case .goToRoot: out.raw(#",{"key":"move.trigger","value":{"stringValue":"goToRoot"}}"#)
        }
        out.raw(
          move.animated
            ? #",{"key":"move.animated","value":{"boolValue":true}}]}"#
            : #",{"key":"move.animated","value":{"boolValue":false}}]}"#)
      }
    }
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {}

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    withEvents(lane) { events, nanos in
      let name: StaticString = #"","name":"pan","attributes":[{"key":"journal.seq","value":{"intValue":""#
      // The direction's, outcome's and fingers' attributes and the distance's and velocity's: at
      // most 330 bytes, the numbers' included.
      _ = Self.open(&events, &nanos, name, kind: "pan", time: time, seq: seq, room: 340) { out in
        switch pan.direction {
        case .left: out.raw(#",{"key":"pan.direction","value":{"stringValue":"left"}}"#)
        case .right: out.raw(#",{"key":"pan.direction","value":{"stringValue":"right"}}"#)
        case .up: out.raw(#",{"key":"pan.direction","value":{"stringValue":"up"}}"#)
        case .down: out.raw(#",{"key":"pan.direction","value":{"stringValue":"down"}}"#)
        }
        switch pan.outcome {
        case .committed: out.raw(#",{"key":"pan.outcome","value":{"stringValue":"committed"}}"#)
        case .snapBack: out.raw(#",{"key":"pan.outcome","value":{"stringValue":"snapBack"}}"#)
        case .blocked: out.raw(#",{"key":"pan.outcome","value":{"stringValue":"blocked"}}"#)
        case .refused: out.raw(#",{"key":"pan.outcome","value":{"stringValue":"refused"}}"#)
        case .cancelled: out.raw(#",{"key":"pan.outcome","value":{"stringValue":"cancelled"}}"#)
        }
        out.raw(#",{"key":"pan.fingers","value":{"intValue":""#)
        out.int(pan.touches)
        out.raw(#""}},{"key":"pan.distance","value":{"doubleValue":"#)
        out.number(pan.distance)
        out.raw(#"}},{"key":"pan.velocity","value":{"doubleValue":"#)
        out.number(pan.velocity)
        out.raw("}}]}")
      }
    }
  }

  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp) {
    withEvents(lane) { events, nanos in
      let name: StaticString =
        #"","name":"modal presented","attributes":[{"key":"journal.seq","value":{"intValue":""#
      guard
        Self.open(
          &events, &nanos, name, kind: "modal presented", time: time, seq: seq, room: 50,
          { $0.raw(#",{"key":"modal.presenter","value":{"stringValue":"#) })
      else { return }
      events.json.string(presenter.rawValue)
      events.json.raw("}}]}")
    }
  }

  mutating func dealloc(lane: Int, seq: Int, time: Timestamp) {
    withEvents(lane) { events, nanos in
      let name: StaticString = #"","name":"deallocated","attributes":[{"key":"journal.seq","value":{"intValue":""#
      _ = Self.open(&events, &nanos, name, kind: "deallocated", time: time, seq: seq, room: 2, { $0.raw("]}") })
    }
    closeSpan(lane)
  }

  mutating func finding(_ diagnostic: CheckFinding, lane: Int?, time: Timestamp) {
    func add(_ events: inout Events) {
      if events.error == nil { events.error = diagnostic.rule.id + ": " + diagnostic.message }
      guard Self.open(&events, "finding", time: time, seq: diagnostic.seq) else { return }
      Self.attribute(&events.json, "finding.rule", diagnostic.rule.id, first: diagnostic.seq == nil)
      Self.attribute(&events.json, "finding.message", diagnostic.message)
      Self.attribute(&events.json, "finding.severity", diagnostic.severity.rawValue)
      Self.attribute(&events.json, "finding.line", int: diagnostic.line)
      Self.attribute(&events.json, "exception.type", diagnostic.rule.id)
      Self.attribute(&events.json, "exception.message", diagnostic.message)
      Self.close(&events)
    }
    if let lane {
      withEvents(lane) { events, _ in add(&events) }
    } else {
      add(&root)
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

  // MARK: Writing

  /// Writes lane `lane`'s span, whose visit has ended.
  ///
  /// Implementation note: of pieces made once per run and per lane (``encodeCommon()``,
  /// ``LaneText``) and fixed ones spelled out; it is the same text as ``writeRoot(first:last:)``'s
  /// way (keys escaped, ids as strings), which would be a large share of the trace's own work
  /// if every span were written so.
  private mutating func writeSpan(_ span: inout OpenSpan, lane: Int) {
    // Taken out, not copied (a copy would retain and release its id and class).
    let visit = span.visit.take()!
    ensureText(lane, visit.controller)
    texts[lane]!.name(visit.className)
    let lastID = span.lastScreen.map { texts[$0]!.quotedID }
    // Taken out and put back after, not copied (a copy would retain and release its three texts).
    let text = texts[lane].take()!
    defer { texts[lane] = text }
    let (open, parent, common) = (spanOpen, spanParent, self.common)
    let id = spanBase &+ span.id
    // Implementation note: the span's head in one piece (``JSONBuffer/write(atMost:_:)``); the
    // times' cache is lent to it (a copy would copy its digits when they change).
    var nanos = NanosText()
    swap(&nanos, &self.nanos)
    let strings = open.count + parent.count + 2 * text.quotedName.count + text.quotedID.count + (lastID?.count ?? 0)
    startLine()
    batch.element()
    batch.write(atMost: Self.spanRoom + strings + common.count) { out in
      out.bytes(open)
      Self.writeHex(id == 0 ? 1 : id, to: &out)
      out.bytes(parent)
      out.bytes(text.quotedName)
      out.raw(#","kind":1,"startTimeUnixNano":""#)
      nanos.write(visit.startTime, to: &out)
      out.raw(#"","endTimeUnixNano":""#)
      nanos.write(visit.endTime, to: &out)
      out.raw(#"","attributes":[{"key":"screen.name","value":{"stringValue":"#)
      out.bytes(text.quotedID)
      if visit.className != nil {
        out.raw(#"}},{"key":"screen.class","value":{"stringValue":"#)
        out.bytes(text.quotedName)
      }
      if let lastID {
        out.raw(#"}},{"key":"last.screen.name","value":{"stringValue":"#)
        out.bytes(lastID)
      }
      out.raw("}}")
      out.bytes(common)
      out.raw(#",{"key":"visit.number","value":{"intValue":""#)
      out.int(visit.number)
      out.raw(#""}},{"key":"visit.start_seq","value":{"intValue":""#)
      out.int(visit.startSeq)
      if let end = visit.endSeq {
        out.raw(#""}},{"key":"visit.end_seq","value":{"intValue":""#)
        out.int(end)
      }
      out.raw(
        visit.isOpen
          ? #""}},{"key":"visit.open","value":{"boolValue":true}}"#
          : #""}},{"key":"visit.open","value":{"boolValue":false}}"#)
      out.raw(
        visit.isComplete
          ? #",{"key":"visit.complete","value":{"boolValue":true}}"#
          : #",{"key":"visit.complete","value":{"boolValue":false}}"#)
    }
    swap(&nanos, &self.nanos)
    if span.events.dropped > 0 { Self.attribute(&batch, "dropped.events", span.events.droppedText) }
    batch.raw("]")
    if !visit.isComplete {
      // What is missing first; the first finding's `rule: message` after it.
      let missing = "incomplete visit: no didAppear after the willAppear at seq \(visit.startSeq)"
      span.events.error = span.events.error.map { missing + "; " + $0 } ?? missing
    }
    spanEvents(&span.events)
    batch.raw("}")
    batchCount += 1
    if batchCount >= Self.spansPerLine { flushLine() }
  }

  private mutating func writeRoot(first: Timestamp, last: Timestamp) {
    startLine()
    batch.element()
    batch.open("{")
    spanHeader(id: 0, parent: nil, name: "session")
    batch.key("startTimeUnixNano")
    batch.write(atMost: NanosText.room + 2) { NanosText.write(first, quoted: true, to: &$0) }
    batch.key("endTimeUnixNano")
    batch.write(atMost: NanosText.room + 2) { NanosText.write(last, quoted: true, to: &$0) }
    batch.key("attributes")
    batch.open("[")
    Self.attribute(&batch, "journal.file", file, first: true)
    if let header { Self.attribute(&batch, "session.id", header.session) }
    commonAttributes(&batch)
    if let profile = header?.profile { Self.attribute(&batch, "session.profile", profile) }
    if let scenario = header?.scenario { Self.attribute(&batch, "session.scenario", scenario) }
    if root.dropped > 0 { Self.attribute(&batch, "dropped.events", root.droppedText) }
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

  /// `,"events":[…]`, `,"droppedEventsCount":N` and `,"status":{…}`, each when there is one
  /// (after the span's attributes: a comma before each).
  private mutating func spanEvents(_ events: inout Events) {
    if events.count > 0 {
      batch.raw(#","events":"#)
      batch.raw(events.json.bytes)
      batch.raw("]")
    }
    if events.dropped > 0 {
      batch.raw(#","droppedEventsCount":"#)
      batch.int(events.dropped)
    }
    if let error = events.error {
      batch.raw(#","status":{"message":"#)
      batch.string(error)
      batch.raw(#","code":"#)
      batch.int(Self.statusError)
      batch.raw("}")
    }
  }

  /// Opens the line's array of spans before its first span, after the line's prefix when the
  /// header is known.
  @inline(__always)
  private mutating func startLine() {
    guard !lineStarted else { return }
    lineStarted = true
    if header != nil {
      linePrefix(&batch)
      linePrefixed = true
    }
    batch.open("[")
  }

  /// `{"resourceSpans":[{"resource":…,"scopeSpans":[{"scope":…,"spans":`, of the header known now.
  private func linePrefix(_ json: inout JSONBuffer) {
    json.raw(#"{"resourceSpans":[{"resource":{"attributes":["#)
    Self.attribute(&json, "service.name", header?.app ?? "unknown_service", first: true)
    if let build = header?.build { Self.attribute(&json, "service.version", build) }
    if let session = header?.session { Self.attribute(&json, "session.id", session) }
    if let device = header?.device { Self.attribute(&json, "device.model.name", device) }
    json.raw(#"]},"scopeSpans":[{"scope":{"name":"spatial-replay","version":"#)
    json.string(version)
    json.raw(#"},"spans":"#)
  }

  /// Writes the spans gathered so far as one `TracesData` line.
  private mutating func flushLine() {
    guard batchCount > 0 else { return }
    batch.close("]")
    if linePrefixed {
      batch.raw("}]}]}\n")
      json.take(&batch)
    } else {
      // The header came after the line began: the line has the one known now.
      linePrefix(&json)
      json.raw(batch.bytes)
      json.raw("}]}]}\n")
      // Emptied, its capacity kept for the next line.
      batch.drain { _ in }
    }
    batchCount = 0
    (lineStarted, linePrefixed) = (false, false)
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

/// Times as OTLP writes them, `time.microseconds * 1000` in decimal (`timeUnixNano`), the digits of
/// the seconds kept from the last time written: most times of a trace share them.
///
/// OTLP's times are unsigned 64-bit nanoseconds since 1970, so they reach from 1970 to 2554; a
/// journal's time outside (the format allows years 0000 to 9999) is written as the nearest end
/// (`docs/trace.md`): multiplied as it is, a time after 2262 would trap and one before 1970 would
/// give a negative number that OTLP's own parser refuses.
struct NanosText {
  private var second: Int64 = -1
  private var secondDigits: [UInt8] = []

  /// The latest time OTLP can carry, in microseconds: its nanoseconds fit in 64 unsigned bits.
  static let latestMicroseconds = Int64(UInt64.max / 1000)

  /// The room ``write(_:to:)`` needs: a second of at most 11 digits and a fraction of 9.
  static var room: Int { 29 }

  /// The time in microseconds since 1970 that OTLP carries for `time`: the time itself, or the
  /// nearest end of OTLP's range.
  @inline(__always)
  static func microseconds(_ time: Timestamp) -> Int64 {
    min(max(time.microseconds, 0), latestMicroseconds)
  }

  /// A time in nanoseconds since 1970, in decimal (in quotes, a JSON string, with `quoted`), its
  /// seconds' digits written anew (for the few times written apart from a lane's events).
  static func write(_ time: Timestamp, quoted: Bool = false, to out: inout ByteWriter) {
    let micros = microseconds(time)
    let second = micros / 1_000_000
    if quoted { out.raw("\"") }
    if second > 0 {
      out.int(Int(second))
      writeFraction(micros, second, to: &out)
    } else {
      out.int(Int(micros) * 1000)
    }
    if quoted { out.raw("\"") }
  }

  /// A time in nanoseconds since 1970, in decimal.
  @inline(__always)
  mutating func write(_ time: Timestamp, to out: inout ByteWriter) {
    let micros = Self.microseconds(time)
    let second = micros / 1_000_000
    guard second > 0 else { return out.int(Int(micros) * 1000) }
    if second != self.second {
      self.second = second
      secondDigits.removeAll(keepingCapacity: true)
      JSONWriter.appendInt(Int(second), to: &secondDigits)
    }
    out.bytes(secondDigits)
    Self.writeFraction(micros, second, to: &out)
  }

  /// The microseconds' six digits after `second`, zero-padded, and the nanoseconds' three zeros.
  @inline(__always)
  private static func writeFraction(_ micros: Int64, _ second: Int64, to out: inout ByteWriter) {
    out.sixDigits(Int(micros - second * 1_000_000))
    out.raw("000")
  }
}
