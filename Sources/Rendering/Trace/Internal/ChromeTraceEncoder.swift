import Journal
import Projection

/// Writes the Trace Event Format (the JSON object format of Chrome's tracing):
/// `{"displayTimeUnit":"ms","otherData":{...},"traceEvents":[...]}`, one event a line.
///
/// One process per run (`pid` 1, 2), one thread per controller drawn (`tid`
/// 3 and up, in the order controllers were first drawn; the root's sorted
/// first), a `findings` thread (`tid` 1) and a `pans` thread (`tid` 2). Times
/// are microseconds from the run's first event. Visits and phases are `B`/`E`
/// slices written as they happen, so the events come in time order except
/// pans (`X`, from the gesture's estimated start), incomplete visits (`X`,
/// from their willAppear, written when they end) and findings (at the event
/// that completed them); consumers sort by `ts`.
struct ChromeTraceEncoder: TraceSink, Sendable {
  var json = JSONBuffer()
  private var pid = 0
  private var start: Int64 = 0
  private var header: SessionHeader?
  private var file = ""
  private var usedPans = false
  private var usedFindings = false
  /// The end of the last pan slice, in trace microseconds.
  private var lastPanEnd = 0
  /// Per rule, the findings of this run so far: past ``findingsPerRule`` they are counted, not drawn.
  private var findingsByRule: [Rule: Int] = [:]
  /// The findings of one rule drawn in a run at most; the rest are one instant at the run's end.
  ///
  /// Implementation note: a small gzip holding millions of blank lines (a warning each) would
  /// otherwise make a trace of gigabytes, every warning an instant; OTLP's spans keep 128 events
  /// each and count the rest.
  static let findingsPerRule = 1_000
  /// Per lane: its controller's id as a JSON string (empty until it is first written).
  private var quotedIDs: [[UInt8]] = []

  private static let findingsThread = 1
  private static let pansThread = 2

  init() {}

  @inline(__always)
  private func tid(_ lane: Int) -> Int { lane + 3 }

  @inline(__always)
  private func ts(_ time: Timestamp) -> Int { Int(time.microseconds - start) }

  mutating func beginDocument() {
    json.open("{")
    json.key("displayTimeUnit")
    json.string("ms")
    json.key("otherData")
    json.open("{")
    json.key("generator")
    json.string("spatial-replay trace")
    json.close("}")
    json.key("traceEvents")
    json.open("[")
  }

  mutating func endDocument() {
    json.raw("\n")
    json.close("]")
    json.close("}")
    json.raw("\n")
  }

  mutating func beginRun(_ run: Int, file: String) {
    pid = run + 1
    start = 0
    header = nil
    self.file = file
    usedPans = false
    usedFindings = false
    lastPanEnd = 0
    findingsByRule.removeAll()
    quotedIDs.removeAll()
  }

  /// Lane `lane`'s controller's id, `id`, as a JSON string, escaped once per lane.
  @inline(__always)
  private mutating func quotedID(_ lane: Int, _ id: ControllerID) -> [UInt8] {
    while quotedIDs.count <= lane { quotedIDs.append([]) }
    if quotedIDs[lane].isEmpty { JSONWriter.appendString(id.rawValue, to: &quotedIDs[lane]) }
    return quotedIDs[lane]
  }

  mutating func start(at time: Timestamp) { start = time.microseconds }

  mutating func header(_ header: SessionHeader) { self.header = header }

  /// The room reserved for an event's bytes: its head (``event(_:tid:ts:extra:_:)``, at most
  /// 95 bytes with three integers of 20) and its fixed text and integers (at most 200), besides
  /// the strings it copies (`extra`).
  private static var eventRoom: Int { 320 }

  /// Writes an event on a controller's thread, as ``event(_:tid:ts:extra:_:)``.
  @inline(__always)
  private mutating func event(
    _ head: StaticString, lane: Int, ts: Int, extra: Int = 0, _ body: (inout ByteWriter) -> Void
  ) {
    event(head, tid: tid(lane), ts: ts, extra: extra, body)
  }

  /// Writes an event: its header fields, `{"ph":…,"pid":…,"tid":…,"ts":…` (`head` is
  /// `{"ph":"X","pid":` on a new line), then what `body` writes (at most 200 bytes of text and
  /// integers, and `extra` bytes of strings), in one piece of the buffer.
  ///
  /// Implementation note: the whole event goes into room reserved once (``JSONBuffer/write(atMost:_:)``);
  /// written piece by piece through the buffer's array, the pieces' copies and checks would be
  /// most of what `trace` costs on its busiest thread.
  @inline(__always)
  private mutating func event(
    _ head: StaticString, tid: Int, ts: Int, extra: Int = 0, _ body: (inout ByteWriter) -> Void
  ) {
    json.element()
    let pid = self.pid
    json.write(atMost: Self.eventRoom + extra) { out in
      out.raw(head)
      out.int(pid)
      out.raw(#","tid":"#)
      out.int(tid)
      out.raw(#","ts":"#)
      out.int(ts)
      body(&out)
    }
  }

  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"B\",\"pid\":", lane: lane, ts: ts(time)) { out in
      out.raw(#","cat":"visit","name":"visit","args":{"visit":"#)
      out.int(number)
      out.raw(#","seq":"#)
      out.int(seq)
      out.raw("}}")
    }
  }

  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp) {
    event("\n{\"ph\":\"E\",\"pid\":", lane: lane, ts: ts(time)) { out in
      out.raw(#","cat":"visit","name":"visit"}"#)
    }
  }

  /// An `X` slice from the willAppear to the visit's end, written when it ends (its start is in the past: the
  /// readers sort by `ts`), named `visit (no didAppear)`, with `args.incomplete` saying what is missing.
  mutating func incompleteVisit(lane: Int, _ visit: Visit, time: Timestamp) {
    let begin = ts(visit.startTime)
    let dur = max(0, ts(time) - begin)
    event("\n{\"ph\":\"X\",\"pid\":", lane: lane, ts: begin) { out in
      out.raw(#","dur":"#)
      out.int(dur)
      out.raw(#","cat":"visit","name":"visit (no didAppear)","args":{"visit":"#)
      out.int(visit.number)
      out.raw(#","seq":"#)
      out.int(visit.startSeq)
      out.raw(#","incomplete":"no didAppear"}}"#)
    }
  }

  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"B\",\"pid\":", lane: lane, ts: ts(time)) { Self.phaseName(phase, &$0) }
  }

  /// Ends the slice on top of the thread's stack, named as its `B` (DevTools reads every event's name).
  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp) {
    event("\n{\"ph\":\"E\",\"pid\":", lane: lane, ts: ts(time)) { Self.phaseName(phase, &$0) }
  }

  @inline(__always)
  private static func phaseName(_ phase: ControllerState.Phase, _ out: inout ByteWriter) {
    switch phase {
    case .appearing: out.raw(#","cat":"phase","name":"appearing"}"#)
    case .appeared: out.raw(#","cat":"phase","name":"appeared"}"#)
    case .disappearing: out.raw(#","cat":"phase","name":"disappearing"}"#)
    case .disappeared: out.raw(#","cat":"phase","name":"disappeared"}"#)
    }
  }

  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time)) { out in
      switch callback {
      case .didLoad: out.raw(#","s":"t","cat":"lifecycle","name":"didLoad","args":{"seq":"#)
      case .willAppear: out.raw(#","s":"t","cat":"lifecycle","name":"willAppear","args":{"seq":"#)
      case .didAppear: out.raw(#","s":"t","cat":"lifecycle","name":"didAppear","args":{"seq":"#)
      case .willDisappear: out.raw(#","s":"t","cat":"lifecycle","name":"willDisappear","args":{"seq":"#)
      case .didDisappear: out.raw(#","s":"t","cat":"lifecycle","name":"didDisappear","args":{"seq":"#)
      }
      out.int(seq)
      out.raw("}}")
    }
  }

  mutating func move(from: Int, to: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp) {
    let ts = ts(time)
    // The flow first: Perfetto binds it to the slice open on the thread (the visit), not to the instant.
    if let flow {
      event("\n{\"ph\":\"s\",\"pid\":", lane: from, ts: ts) { out in
        out.raw(#","id":"#)
        out.int(flow)
        out.raw(#","cat":"move","name":"move"}"#)
      }
    }
    let target = quotedID(to, move.to)
    event("\n{\"ph\":\"i\",\"pid\":", lane: from, ts: ts, extra: target.count) { out in
      out.raw(#","s":"t","cat":"move","name":"move","args":{"to":"#)
      out.bytes(target)
      Self.direction(move.direction, &out)
      switch move.trigger {
      case .programmatic: out.raw(#","trigger":"programmatic""#)
      case .pan: out.raw(#","trigger":"pan""#)
      case .fling: out.raw(#","trigger":"fling""#)
      case .goToRoot: out.raw(#","trigger":"goToRoot""#)
      }
      out.raw(move.animated ? #","animated":true,"seq":"# : #","animated":false,"seq":"#)
      out.int(seq)
      out.raw("}}")
    }
  }

  /// `,"direction":"…"`, a fixed piece per direction.
  @inline(__always)
  private static func direction(_ direction: Direction, _ out: inout ByteWriter) {
    switch direction {
    case .left: out.raw(#","direction":"left""#)
    case .right: out.raw(#","direction":"right""#)
    case .up: out.raw(#","direction":"up""#)
    case .down: out.raw(#","direction":"down""#)
    }
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {
    let ts = ts(time)
    // DevTools binds a flow event to an event of its category at its time on its thread: the
    // move's instant at the start, this one at the arrival.
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts) { out in
      out.raw(#","s":"t","cat":"move","name":"arrival","args":{}}"#)
    }
    event("\n{\"ph\":\"f\",\"pid\":", lane: lane, ts: ts) { out in
      out.raw(#","bp":"e","id":"#)
      out.int(flow)
      out.raw(#","cat":"move","name":"move"}"#)
    }
  }

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    usedPans = true
    // The journal has the gesture's end; its start is estimated as distance / velocity before,
    // never before the previous pan's end, so that pans follow one another on their thread. The
    // numbers are read as magnitudes (the format allows any finite number): a slice never ends
    // before it starts.
    let end = ts(time)
    var begin = end
    if pan.velocity.magnitude > 0 {
      let estimate = pan.distance.magnitude / pan.velocity.magnitude * 1_000_000
      if estimate.isFinite && estimate < Double(end) {
        begin = end - Int(estimate.rounded())
      } else {
        begin = 0
      }
    }
    begin = min(max(begin, lastPanEnd), end)
    lastPanEnd = end
    let controller = quotedID(lane, pan.controller)
    // The numbers and what follows them (at most 110 bytes) in the same piece.
    let extra = controller.count + 2 * ByteWriter.maxNumberLength + 50
    event("\n{\"ph\":\"X\",\"pid\":", tid: Self.pansThread, ts: begin, extra: extra) { out in
      out.raw(#","dur":"#)
      out.int(end - begin)
      switch pan.outcome {
      case .committed: out.raw(#","cat":"pan","name":"pan committed","args":{"controller":"#)
      case .snapBack: out.raw(#","cat":"pan","name":"pan snapBack","args":{"controller":"#)
      case .blocked: out.raw(#","cat":"pan","name":"pan blocked","args":{"controller":"#)
      case .refused: out.raw(#","cat":"pan","name":"pan refused","args":{"controller":"#)
      case .cancelled: out.raw(#","cat":"pan","name":"pan cancelled","args":{"controller":"#)
      }
      out.bytes(controller)
      Self.direction(pan.direction, &out)
      switch pan.outcome {
      case .committed: out.raw(#","outcome":"committed","fingers":"#)
      case .snapBack: out.raw(#","outcome":"snapBack","fingers":"#)
      case .blocked: out.raw(#","outcome":"blocked","fingers":"#)
      case .refused: out.raw(#","outcome":"refused","fingers":"#)
      case .cancelled: out.raw(#","outcome":"cancelled","fingers":"#)
      }
      out.int(pan.touches)
      out.raw(#","distance":"#)
      out.number(pan.distance)
      out.raw(#","velocity":"#)
      out.number(pan.velocity)
      out.raw(#","seq":"#)
      out.int(seq)
      out.raw("}}")
    }
  }

  /// `,"seq":SEQ}}`, the end of an event whose arguments end with a value written apart.
  private mutating func seqEnd(_ seq: Int) {
    json.write(atMost: 8 + ByteWriter.maxIntLength) { out in
      out.raw(#","seq":"#)
      out.int(seq)
      out.raw("}}")
    }
  }

  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time)) { out in
      out.raw(#","s":"t","cat":"modal","name":"modal presented","args":{"presenter":"#)
    }
    json.string(presenter.rawValue)
    seqEnd(seq)
  }

  mutating func dealloc(lane: Int, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time)) { out in
      out.raw(#","s":"t","cat":"dealloc","name":"deallocated","args":{"seq":"#)
      out.int(seq)
      out.raw("}}")
    }
  }

  mutating func finding(_ diagnostic: CheckFinding, lane: Int?, time: Timestamp) {
    usedFindings = true
    let rule = diagnostic.rule
    let count = findingsByRule[rule, default: 0] + 1
    findingsByRule[rule] = count
    guard count <= Self.findingsPerRule else { return }
    event("\n{\"ph\":\"i\",\"pid\":", tid: Self.findingsThread, ts: ts(time)) { out in
      out.raw(#","s":"t","cat":"finding","name":"#)
    }
    json.string(rule.id)
    json.raw(#","args":{"rule":"#)
    json.string(rule.id)
    json.raw(#","severity":"#)
    json.string(diagnostic.severity.rawValue)
    json.raw(#","message":"#)
    json.string(diagnostic.message)
    json.raw(#","line":"#)
    json.int(diagnostic.line)
    if let seq = diagnostic.seq {
      json.raw(#","seq":"#)
      json.int(seq)
    }
    if let move = diagnostic.move {
      json.raw(#","move":"#)
      json.int(move)
    }
    json.raw(#","controllers":"#)
    json.strings(diagnostic.controllers.map(\.rawValue))
    json.raw("}}")
  }

  mutating func endRun(lanes: [TraceLane], root: Int?, first: Timestamp?, last: Timestamp?) {
    for (rule, count) in findingsByRule.sorted(by: { $0.key.id < $1.key.id }) where count > Self.findingsPerRule {
      let omitted = count - Self.findingsPerRule
      event("\n{\"ph\":\"i\",\"pid\":", tid: Self.findingsThread, ts: last.map(ts) ?? 0) { out in
        out.raw(#","s":"t","cat":"finding","name":"#)
      }
      json.string("\(omitted) more \(rule) findings not drawn")
      json.raw(#","args":{"rule":"#)
      json.string(rule.id)
      json.raw(#","omitted":"#)
      json.int(omitted)
      json.raw("}}")
    }
    var name = header.map { "session " + $0.session } ?? file
    if let app = header?.app { name += ", " + app }
    if let build = header?.build { name += ", build " + build }
    metadata("process_name", tid: 0, name: name)
    metadata("process_sort_index", tid: 0, index: pid)
    var order = 1
    var threadName: [UInt8] = []
    var className: [UInt8] = []
    for k in lanes.indices where lanes[k].drawn {
      // `"ID (CLASS)"`: escaping is per character, so the two escaped apart make the whole one.
      threadName.removeAll(keepingCapacity: true)
      JSONWriter.appendString(lanes[k].id.rawValue, to: &threadName)
      if let lanesClass = lanes[k].className {
        className.removeAll(keepingCapacity: true)
        JSONWriter.appendString(Self.threadLabel(lanesClass), to: &className)
        threadName.removeLast()
        threadName.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "(")])
        threadName.append(contentsOf: className[1..<(className.count - 1)])
        threadName.append(contentsOf: [UInt8(ascii: ")"), UInt8(ascii: "\"")])
      }
      threadMetadata(tid: tid(k), quotedName: threadName, sortIndex: k == root ? 0 : order)
      order += 1
    }
    if usedPans {
      metadata("thread_name", tid: Self.pansThread, name: "pans")
      metadata("thread_sort_index", tid: Self.pansThread, index: order)
    }
    if usedFindings {
      metadata("thread_name", tid: Self.findingsThread, name: "findings")
      metadata("thread_sort_index", tid: Self.findingsThread, index: order + 1)
    }
  }

  /// A controller's thread's `thread_name` (`quotedName`, a JSON string) and `thread_sort_index`
  /// events, as ``metadata(_:tid:name:index:)`` writes them.
  ///
  /// Implementation note: a run of the churn shape draws a thread per modal presented, tens of
  /// thousands in a large journal, and all of their metadata is written after the last event,
  /// when nothing else overlaps it; so each name is written from its quoted bytes and each event
  /// in a few writes, rather than the name made as a `String` and written in a dozen appends.
  private mutating func threadMetadata(tid: Int, quotedName: [UInt8], sortIndex: Int) {
    event("\n{\"ph\":\"M\",\"pid\":", tid: tid, ts: 0, extra: quotedName.count) { out in
      out.raw(#","cat":"__metadata","name":"thread_name","args":{"name":"#)
      out.bytes(quotedName)
      out.raw("}}")
    }
    event("\n{\"ph\":\"M\",\"pid\":", tid: tid, ts: 0) { out in
      out.raw(#","cat":"__metadata","name":"thread_sort_index","args":{"sort_index":"#)
      out.int(sortIndex)
      out.raw("}}")
    }
  }

  private mutating func metadata(_ kind: String, tid: Int, name: String? = nil, index: Int? = nil) {
    event("\n{\"ph\":\"M\",\"pid\":", tid: tid, ts: 0) { out in
      out.raw(#","cat":"__metadata","name":"#)
    }
    json.string(kind)
    json.raw(#","args":{"#)
    if let name {
      json.raw(#""name":"#)
      json.string(name)
    }
    if let index {
      json.raw(#""sort_index":"#)
      json.int(index)
    }
    json.raw("}}")
  }
}

extension ChromeTraceEncoder {
  /// The longest class a thread's name holds whole, in Unicode scalars.
  static let threadLabelLimit = 256

  /// `className` as a thread's name shows it: whole up to ``threadLabelLimit`` scalars, else
  /// its start and its end around `…`.
  ///
  /// Implementation note: the names are written after the run's last event, all at once;
  /// lanes of a long class name, each named whole, would make gigabytes of names.
  static func threadLabel(_ className: String) -> String {
    let scalars = className.unicodeScalars
    guard scalars.count > threadLabelLimit else { return className }
    let half = threadLabelLimit / 2
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars.prefix(half))
    out.append("\u{2026}")
    out.append(contentsOf: scalars.suffix(half))
    return String(out)
  }
}
