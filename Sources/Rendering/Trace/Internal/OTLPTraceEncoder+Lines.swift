import Journal
import Projection

// The spans, written as they end into the line being gathered, and the lines (`TracesData`).
extension OTLPTraceEncoder {
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
      out.bytes(UnsafeRawBufferPointer(buffer).bytes)
    }
  }

  /// Writes lane `lane`'s span, whose visit has ended.
  ///
  /// Implementation note: of pieces made once per run and per lane (``encodeCommon()``,
  /// ``LaneText``) and fixed ones spelled out; it is the same text as ``writeRoot(first:last:)``'s
  /// way (keys escaped, ids as strings), which would be a large share of the trace's own work
  /// if every span were written so.
  mutating func writeSpan(_ span: inout OpenSpan, lane: Int) {
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

  mutating func writeRoot(first: Timestamp, last: Timestamp) {
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

  func commonAttributes(_ json: inout JSONBuffer) {
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
  mutating func flushLine() {
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

  static func attribute(_ json: inout JSONBuffer, _ key: StaticString, _ value: String, first: Bool = false) {
    attribute(&json, key, first, #"{"stringValue":"#) { $0.string(value) }
  }

  static func attribute(_ json: inout JSONBuffer, _ key: StaticString, int value: Int, first: Bool = false) {
    attribute(&json, key, first, #"{"intValue":"#) { $0.intString(value) }
  }

  static func attribute(
    _ json: inout JSONBuffer, _ key: StaticString, double value: Double, first: Bool = false
  ) {
    attribute(&json, key, first, #"{"doubleValue":"#) { $0.number(value) }
  }

  static func attribute(_ json: inout JSONBuffer, _ key: StaticString, bool value: Bool, first: Bool = false) {
    attributeKey(&json, key, first)
    json.raw(value ? #"{"boolValue":true}}"# : #"{"boolValue":false}}"#)
  }

  /// `,{"key":"KEY","value":{"TYPE":VALUE}}`, `type` being `{"TYPE":` and `value` writing VALUE.
  private static func attribute(
    _ json: inout JSONBuffer, _ key: StaticString, _ first: Bool, _ type: StaticString,
    _ value: (inout JSONBuffer) -> Void
  ) {
    attributeKey(&json, key, first)
    json.raw(type)
    value(&json)
    json.raw("}}")
  }

  /// `,{"key":"KEY","value":` (the comma unless `first`); keys are spelled in the source.
  private static func attributeKey(_ json: inout JSONBuffer, _ key: StaticString, _ first: Bool) {
    json.raw(first ? #"{"key":""# : #",{"key":""#)
    json.raw(key)
    json.raw(#"","value":"#)
  }
}
