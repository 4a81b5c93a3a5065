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

  private static let findingsThread = 1
  private static let pansThread = 2
  private static let newline: [UInt8] = [UInt8(ascii: "\n")]

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
    json.raw(Self.newline)
    json.close("]")
    json.close("}")
    json.raw(Self.newline)
  }

  mutating func beginRun(_ run: Int, file: String) {
    pid = run + 1
    start = 0
    header = nil
    self.file = file
    usedPans = false
    usedFindings = false
    lastPanEnd = 0
  }

  mutating func start(at time: Timestamp) { start = time.microseconds }

  mutating func header(_ header: SessionHeader) { self.header = header }

  /// Opens an event with its header fields: `{"ph":…,"pid":…,"tid":…,"ts":…`.
  @inline(__always)
  private mutating func event(_ ph: String, tid: Int, ts: Int) {
    json.element()
    json.raw(Self.newline)
    json.open("{")
    json.key("ph")
    json.string(ph)
    json.key("pid")
    json.int(pid)
    json.key("tid")
    json.int(tid)
    json.key("ts")
    json.int(ts)
  }

  @inline(__always)
  private mutating func named(_ cat: String, _ name: String) {
    json.key("cat")
    json.string(cat)
    json.key("name")
    json.string(name)
  }

  /// An instant on a thread (`"s":"t"`), its name, and `args` left open.
  @inline(__always)
  private mutating func instant(tid: Int, ts: Int, cat: String, name: String) {
    event("i", tid: tid, ts: ts)
    json.key("s")
    json.string("t")
    named(cat, name)
    json.key("args")
    json.open("{")
  }

  /// Ends the slice on top of the thread's stack (named as its `B`: DevTools reads every event's name).
  private mutating func end(tid: Int, ts: Int, cat: String, name: String) {
    event("E", tid: tid, ts: ts)
    named(cat, name)
    json.close("}")
  }

  mutating func visitBegan(lane: Int, number: Int, seq: Int, time: Timestamp) {
    event("B", tid: tid(lane), ts: ts(time))
    named("visit", "visit")
    json.key("args")
    json.open("{")
    json.key("visit")
    json.int(number)
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func visitEnded(lane: Int, _ visit: Visit, time: Timestamp) {
    end(tid: tid(lane), ts: ts(time), cat: "visit", name: "visit")
  }

  mutating func phaseBegan(lane: Int, _ phase: ControllerState.Phase, seq: Int, time: Timestamp) {
    event("B", tid: tid(lane), ts: ts(time))
    named("phase", phase.rawValue)
    json.close("}")
  }

  mutating func phaseEnded(lane: Int, _ phase: ControllerState.Phase, time: Timestamp) {
    end(tid: tid(lane), ts: ts(time), cat: "phase", name: phase.rawValue)
  }

  mutating func callback(lane: Int, _ callback: Callback, seq: Int, time: Timestamp) {
    instant(tid: tid(lane), ts: ts(time), cat: "lifecycle", name: callback.rawValue)
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func move(from: Int, flow: Int?, _ move: Move, seq: Int, time: Timestamp) {
    // The flow first: it binds to the slice open on the thread (the visit), not to the instant.
    if let flow {
      event("s", tid: tid(from), ts: ts(time))
      json.key("id")
      json.int(flow)
      named("move", "move")
      json.close("}")
    }
    instant(tid: tid(from), ts: ts(time), cat: "move", name: "move")
    json.key("to")
    json.string(move.to.rawValue)
    json.key("direction")
    json.string(move.direction.rawValue)
    json.key("trigger")
    json.string(move.trigger.rawValue)
    json.key("animated")
    json.bool(move.animated)
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {
    // DevTools binds a flow event to an event of its category at its time on its thread: the
    // move's instant at the start, this one at the arrival.
    instant(tid: tid(lane), ts: ts(time), cat: "move", name: "arrival")
    json.close("}")
    json.close("}")
    event("f", tid: tid(lane), ts: ts(time))
    json.key("bp")
    json.string("e")
    json.key("id")
    json.int(flow)
    named("move", "move")
    json.close("}")
  }

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    usedPans = true
    // The journal has the gesture's end; its start is estimated as distance / velocity before,
    // never before the previous pan's end, so that pans follow one another on their thread.
    let end = ts(time)
    var begin = end
    if pan.velocity > 0 {
      let estimate = pan.distance / pan.velocity * 1_000_000
      if estimate.isFinite && estimate < Double(end) { begin = end - Int(estimate.rounded()) } else { begin = 0 }
    }
    begin = max(begin, lastPanEnd)
    lastPanEnd = end
    event("X", tid: Self.pansThread, ts: begin)
    json.key("dur")
    json.int(end - begin)
    named("pan", "pan " + pan.outcome.rawValue)
    json.key("args")
    json.open("{")
    json.key("controller")
    json.string(pan.controller.rawValue)
    json.key("direction")
    json.string(pan.direction.rawValue)
    json.key("outcome")
    json.string(pan.outcome.rawValue)
    json.key("fingers")
    json.int(pan.touches)
    json.key("distance")
    json.number(pan.distance)
    json.key("velocity")
    json.number(pan.velocity)
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func modal(lane: Int, presenter: ControllerID, seq: Int, time: Timestamp) {
    instant(tid: tid(lane), ts: ts(time), cat: "modal", name: "modal presented")
    json.key("presenter")
    json.string(presenter.rawValue)
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func dealloc(lane: Int, seq: Int, time: Timestamp) {
    instant(tid: tid(lane), ts: ts(time), cat: "dealloc", name: "deallocated")
    json.key("seq")
    json.int(seq)
    json.close("}")
    json.close("}")
  }

  mutating func finding(_ diagnostic: Diagnostic, lane: Int?, time: Timestamp) {
    usedFindings = true
    instant(tid: Self.findingsThread, ts: ts(time), cat: "finding", name: diagnostic.rule)
    json.key("rule")
    json.string(diagnostic.rule)
    json.key("severity")
    json.string(diagnostic.severity.rawValue)
    json.key("message")
    json.string(diagnostic.message)
    json.key("line")
    json.int(diagnostic.line)
    json.member("seq", ifPresent: diagnostic.seq)
    json.member("move", ifPresent: diagnostic.move)
    json.key("controllers")
    json.strings(diagnostic.controllers.map(\.rawValue))
    json.close("}")
    json.close("}")
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
    event("M", tid: tid, ts: 0)
    named("__metadata", kind)
    json.key("args")
    json.open("{")
    if let name {
      json.key("name")
      json.string(name)
    }
    if let index {
      json.key("sort_index")
      json.int(index)
    }
    json.close("}")
    json.close("}")
  }
}
