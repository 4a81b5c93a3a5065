import Journal

/// Writes the Trace Event Format (the JSON object format of Chrome's tracing):
/// `{"displayTimeUnit":"ms","otherData":{...},"traceEvents":[...]}`, one event a line.
///
/// One process per run (`pid` 1, 2), one thread per controller drawn (`tid`
/// 3 and up, in the order controllers were first drawn; the root's sorted
/// first), a `findings` thread (`tid` 1) and a `pans` thread (`tid` 2). Times
/// are microseconds from the run's first event. Visits and phases are `B`/`E`
/// slices written as they happen, so the events come in time order except
/// pans (`X`, from the gesture's estimated start) and findings (at the event
/// that completed them); consumers sort by `ts`.
struct ChromeTraceEncoder: TraceSink {
  var json = JSONBuffer()
  private var pid = 0
  private var start: Int64 = 0
  private var header: SessionHeader?
  private var file = ""
  private var usedPans = false
  private var usedFindings = false
  /// The end of the last pan slice, in trace microseconds.
  private var lastPanEnd = 0
  /// Per lane: `PID,"tid":TID,"ts":`.
  private var prefixes: [[UInt8]] = []
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
    prefixes.removeAll()
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

  /// Opens an event with its header fields, `{"ph":…,"pid":…,"tid":…,"ts":…`; `head` is
  /// `{"ph":"X","pid":` (on a new line).
  /// Opens an event on a controller's thread, as ``event(_:tid:ts:)``.
  ///
  /// Implementation note: `pid` and `tid` are the same for every event of a thread; their
  /// text is made once per thread and copied, which halves the integers written per event.
  @inline(__always)
  private mutating func event(_ head: StaticString, lane: Int, ts: Int) {
    while prefixes.count <= lane {
      var text: [UInt8] = []
      JSONWriter.appendInt(pid, to: &text)
      text.append(contentsOf: #","tid":"#.utf8)
      JSONWriter.appendInt(tid(prefixes.count), to: &text)
      text.append(contentsOf: #","ts":"#.utf8)
      prefixes.append(text)
    }
    json.element()
    json.raw(head)
    json.raw(prefixes[lane])
    json.int(ts)
  }

  @inline(__always)
  private mutating func event(_ head: StaticString, tid: Int, ts: Int) {
    json.element()
    json.raw(head)
    json.int(pid)
    json.raw(#","tid":"#)
    json.int(tid)
    json.raw(#","ts":"#)
    json.int(ts)
  }

  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"B\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","cat":"visit","name":"visit","args":{"visit":"#)
    json.int(number)
    json.raw(#","seq":"#)
    json.int(seq)
    json.raw("}}")
  }

  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp) {
    event("\n{\"ph\":\"E\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","cat":"visit","name":"visit"}"#)
  }

  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"B\",\"pid\":", lane: lane, ts: ts(time))
    phaseName(phase)
  }

  /// Ends the slice on top of the thread's stack, named as its `B` (DevTools reads every event's name).
  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp) {
    event("\n{\"ph\":\"E\",\"pid\":", lane: lane, ts: ts(time))
    phaseName(phase)
  }

  @inline(__always)
  private mutating func phaseName(_ phase: ControllerState.Phase) {
    switch phase {
    case .appearing: json.raw(#","cat":"phase","name":"appearing"}"#)
    case .appeared: json.raw(#","cat":"phase","name":"appeared"}"#)
    case .disappearing: json.raw(#","cat":"phase","name":"disappearing"}"#)
    case .disappeared: json.raw(#","cat":"phase","name":"disappeared"}"#)
    }
  }

  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time))
    switch callback {
    case .didLoad: json.raw(#","s":"t","cat":"lifecycle","name":"didLoad","args":{"seq":"#)
    case .willAppear: json.raw(#","s":"t","cat":"lifecycle","name":"willAppear","args":{"seq":"#)
    case .didAppear: json.raw(#","s":"t","cat":"lifecycle","name":"didAppear","args":{"seq":"#)
    case .willDisappear: json.raw(#","s":"t","cat":"lifecycle","name":"willDisappear","args":{"seq":"#)
    case .didDisappear: json.raw(#","s":"t","cat":"lifecycle","name":"didDisappear","args":{"seq":"#)
    }
    json.int(seq)
    json.raw("}}")
  }

  mutating func move(from: Int, to: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp) {
    // The flow first: Perfetto binds it to the slice open on the thread (the visit), not to the instant.
    if let flow {
      event("\n{\"ph\":\"s\",\"pid\":", lane: from, ts: ts(time))
      json.raw(#","id":"#)
      json.int(flow)
      json.raw(#","cat":"move","name":"move"}"#)
    }
    event("\n{\"ph\":\"i\",\"pid\":", lane: from, ts: ts(time))
    json.raw(#","s":"t","cat":"move","name":"move","args":{"to":"#)
    json.raw(quotedID(to, move.to))
    direction(move.direction)
    switch move.trigger {
    case .programmatic: json.raw(#","trigger":"programmatic""#)
    case .pan: json.raw(#","trigger":"pan""#)
    case .fling: json.raw(#","trigger":"fling""#)
    case .goToRoot: json.raw(#","trigger":"goToRoot""#)
    }
    json.raw(move.animated ? #","animated":true,"seq":"# : #","animated":false,"seq":"#)
    json.int(seq)
    json.raw("}}")
  }

  /// `,"direction":"…"`, a fixed piece per direction.
  @inline(__always)
  private mutating func direction(_ direction: Direction) {
    switch direction {
    case .left: json.raw(#","direction":"left""#)
    case .right: json.raw(#","direction":"right""#)
    case .up: json.raw(#","direction":"up""#)
    case .down: json.raw(#","direction":"down""#)
    }
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {
    // DevTools binds a flow event to an event of its category at its time on its thread: the
    // move's instant at the start, this one at the arrival.
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","s":"t","cat":"move","name":"arrival","args":{}}"#)
    event("\n{\"ph\":\"f\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","bp":"e","id":"#)
    json.int(flow)
    json.raw(#","cat":"move","name":"move"}"#)
  }

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    usedPans = true
    // The journal has the gesture's end; its start is estimated as distance / velocity before,
    // never before the previous pan's end, so that pans follow one another on their thread.
    let end = ts(time)
    var begin = end
    if pan.velocity > 0 {
      let estimate = pan.distance / pan.velocity * 1_000_000
      if estimate.isFinite && estimate < Double(end) {
        begin = end - Int(estimate.rounded())
      } else {
        begin = 0
      }
    }
    begin = max(begin, lastPanEnd)
    lastPanEnd = end
    event("\n{\"ph\":\"X\",\"pid\":", tid: Self.pansThread, ts: begin)
    json.raw(#","dur":"#)
    json.int(end - begin)
    switch pan.outcome {
    case .committed: json.raw(#","cat":"pan","name":"pan committed","args":{"controller":"#)
    case .snapBack: json.raw(#","cat":"pan","name":"pan snapBack","args":{"controller":"#)
    case .blocked: json.raw(#","cat":"pan","name":"pan blocked","args":{"controller":"#)
    case .refused: json.raw(#","cat":"pan","name":"pan refused","args":{"controller":"#)
    case .cancelled: json.raw(#","cat":"pan","name":"pan cancelled","args":{"controller":"#)
    }
    json.raw(quotedID(lane, pan.controller))
    direction(pan.direction)
    switch pan.outcome {
    case .committed: json.raw(#","outcome":"committed","fingers":"#)
    case .snapBack: json.raw(#","outcome":"snapBack","fingers":"#)
    case .blocked: json.raw(#","outcome":"blocked","fingers":"#)
    case .refused: json.raw(#","outcome":"refused","fingers":"#)
    case .cancelled: json.raw(#","outcome":"cancelled","fingers":"#)
    }
    json.int(pan.touches)
    json.raw(#","distance":"#)
    json.number(pan.distance)
    json.raw(#","velocity":"#)
    json.number(pan.velocity)
    json.raw(#","seq":"#)
    json.int(seq)
    json.raw("}}")
  }

  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","s":"t","cat":"modal","name":"modal presented","args":{"presenter":"#)
    json.string(presenter.rawValue)
    json.raw(#","seq":"#)
    json.int(seq)
    json.raw("}}")
  }

  mutating func dealloc(lane: Int, seq: Int, time: Timestamp) {
    event("\n{\"ph\":\"i\",\"pid\":", lane: lane, ts: ts(time))
    json.raw(#","s":"t","cat":"dealloc","name":"deallocated","args":{"seq":"#)
    json.int(seq)
    json.raw("}}")
  }

  mutating func finding(_ diagnostic: Diagnostic, lane: Int?, time: Timestamp) {
    usedFindings = true
    event("\n{\"ph\":\"i\",\"pid\":", tid: Self.findingsThread, ts: ts(time))
    json.raw(#","s":"t","cat":"finding","name":"#)
    json.string(diagnostic.rule)
    json.raw(#","args":{"rule":"#)
    json.string(diagnostic.rule)
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
    var name = header.map { "session " + $0.session } ?? file
    if let app = header?.app { name += ", " + app }
    if let build = header?.build { name += ", build " + build }
    metadata("process_name", tid: 0, name: name)
    metadata("process_sort_index", tid: 0, index: pid)
    var order = 1
    for k in lanes.indices where lanes[k].drawn {
      let lane = lanes[k]
      metadata("thread_name", tid: tid(k), name: lane.id.rawValue + (lane.className.map { " (" + $0 + ")" } ?? ""))
      metadata("thread_sort_index", tid: tid(k), index: k == root ? 0 : order)
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

  private mutating func metadata(_ kind: String, tid: Int, name: String? = nil, index: Int? = nil) {
    event("\n{\"ph\":\"M\",\"pid\":", tid: tid, ts: 0)
    json.raw(#","cat":"__metadata","name":"#)
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
