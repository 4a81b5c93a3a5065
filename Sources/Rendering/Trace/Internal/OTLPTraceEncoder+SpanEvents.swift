import Journal
import Projection

// The span events: a controller's callbacks, moves, pans, modals, deallocs and findings, each
// written once into the events of the span (or the lane's waiting events) it goes to.
extension OTLPTraceEncoder {
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
        out.raw("}}")
        Self.attribute(&out, "move.direction", move.direction)
        Self.attribute(&out, "move.trigger", move.trigger)
        out.raw(
          move.animated
            ? #",{"key":"move.animated","value":{"boolValue":true}}]}"#
            : #",{"key":"move.animated","value":{"boolValue":false}}]}"#)
      }
    }
  }

  mutating func arrival(flow: Int, lane: Int, time: Timestamp) {}

  /// `,{"key":"KEY","value":{"stringValue":"left"}}`: a move's or a pan's direction, a move's
  /// trigger or a pan's outcome, whose raw values (the journal's words) need no escape.
  private static func attribute(_ out: inout ByteWriter, _ key: StaticString, _ value: some RawRepresentable<String>) {
    out.raw(#",{"key":""#)
    out.raw(key)
    out.raw(#"","value":{"stringValue":""#)
    out.text(value.rawValue)
    out.raw(#""}}"#)
  }

  mutating func pan(lane: Int, _ pan: Pan, seq: Int, time: Timestamp) {
    withEvents(lane) { events, nanos in
      let name: StaticString = #"","name":"pan","attributes":[{"key":"journal.seq","value":{"intValue":""#
      // The direction's, outcome's and fingers' attributes and the distance's and velocity's: at
      // most 330 bytes, the numbers' included.
      _ = Self.open(&events, &nanos, name, kind: "pan", time: time, seq: seq, room: 340) { out in
        Self.attribute(&out, "pan.direction", pan.direction)
        Self.attribute(&out, "pan.outcome", pan.outcome)
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
      let seq = diagnostic.seq
      guard Self.open(&events, "finding", time: time, seq: seq) else { return }
      // The message is a sentence made anew at each read: made once for its two attributes.
      let (rule, message) = (diagnostic.rule.id, diagnostic.message)
      Self.attribute(&events.json, "finding.rule", rule, first: seq == nil)
      Self.attribute(&events.json, "finding.message", message)
      Self.attribute(&events.json, "finding.severity", diagnostic.severity.rawValue)
      Self.attribute(&events.json, "finding.line", int: diagnostic.line)
      Self.attribute(&events.json, "exception.type", rule)
      Self.attribute(&events.json, "exception.message", message)
      Self.close(&events)
    }
    if let lane {
      withEvents(lane) { events, _ in add(&events) }
    } else {
      add(&root)
    }
  }
}
