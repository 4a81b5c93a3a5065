extension Record {
  /// The record as one journal line (without the trailing `\n`): keys in the
  /// spec's order, no spaces.
  ///
  /// ```swift
  /// let line = Record(seq: 3, time: t, event: .root(controller: "home")).ndjson
  /// // {"seq":3,"time":"…","type":"root","controller":"home"}
  /// ```
  public var ndjson: String {
    var out: [UInt8] = []
    encode(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Records as a journal: each record's line, ended by `\n`, in order.
  ///
  /// ```swift
  /// let bytes = Record.journal(navigator.records)
  /// ```
  public static func journal(_ records: some Collection<Record>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(records.count * 128)
    for record in records {
      record.encode(into: &out)
      out.append(UInt8(ascii: "\n"))
    }
    return out
  }

  /// Appends the record's line, without the trailing `\n`, to `out`.
  public func encode(into out: inout [UInt8]) {
    if extra.isEmpty, let strings = event.fastStringBytes, strings <= 4096 {
      let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * strings + RawLine.fixedBound) {
        buffer in
        var line = RawLine(buffer.baseAddress!)
        guard encodeFast(into: &line) else { return false }
        out.append(contentsOf: line.bytes)
        return true
      }
      if written { return }
    }
    encodeEach(into: &out)
  }

  /// The line of a record without extra keys whose event has only fixed keys
  /// (``Event/fastStringBytes``); false for a time or a number this path leaves
  /// to ``encodeEach(into:)``.
  @inline(__always)
  private func encodeFast(into line: inout RawLine) -> Bool {
    line.raw(#"{"seq":"#)
    line.int(seq)
    line.raw(#","time":""#)
    guard line.time(time) else { return false }
    switch event {
    case .alloc(let c, let cls):
      line.raw(#"","type":"alloc","controller":"#)
      line.string(c.rawValue)
      line.raw(#","class":"#)
      line.string(cls)
    case .root(let c):
      line.raw(#"","type":"root","controller":"#)
      line.string(c.rawValue)
    case .link(let a, let d, let b):
      line.raw(#"","type":"link","from":"#)
      line.string(a.rawValue)
      line.raw(#","direction":""#)
      line.raw(d.rawValue)
      line.raw(#"","to":"#)
      line.string(b.rawValue)
    case .unlink(let a, let d):
      line.raw(#"","type":"unlink","from":"#)
      line.string(a.rawValue)
      line.raw(#","direction":""#)
      line.raw(d.rawValue)
      line.byte(UInt8(ascii: "\""))
    case .modal(let m, let p):
      line.raw(#"","type":"modal","controller":"#)
      line.string(m.rawValue)
      line.raw(#","presenter":"#)
      line.string(p.rawValue)
    case .touches(let c, let d, let min):
      line.raw(#"","type":"touches","controller":"#)
      line.string(c.rawValue)
      line.raw(#","direction":""#)
      line.raw(d.rawValue)
      line.raw(#"","min":"#)
      line.int(min)
    case .pan(let p):
      line.raw(#"","type":"pan","controller":"#)
      line.string(p.controller.rawValue)
      line.raw(#","direction":""#)
      line.raw(p.direction.rawValue)
      line.raw(#"","touches":"#)
      line.int(p.touches)
      line.raw(#","distance":"#)
      guard line.number(p.distance) else { return false }
      line.raw(#","velocity":"#)
      guard line.number(p.velocity) else { return false }
      line.raw(#","outcome":""#)
      line.raw(p.outcome.rawValue)
      line.byte(UInt8(ascii: "\""))
    case .move(let m):
      line.raw(#"","type":"move","from":"#)
      line.string(m.from.rawValue)
      line.raw(#","to":"#)
      line.string(m.to.rawValue)
      line.raw(#","direction":""#)
      line.raw(m.direction.rawValue)
      line.raw(#"","trigger":""#)
      line.raw(m.trigger.rawValue)
      line.raw(m.animated ? #"","animated":true"# : #"","animated":false"#)
    case .lifecycle(let c, let cb):
      line.raw(#"","type":"lifecycle","controller":"#)
      line.string(c.rawValue)
      line.raw(#","callback":""#)
      line.raw(cb.rawValue)
      line.byte(UInt8(ascii: "\""))
    case .dealloc(let c):
      line.raw(#"","type":"dealloc","controller":"#)
      line.string(c.rawValue)
    case .session, .mark, .unknown:
      return false
    }
    line.byte(UInt8(ascii: "}"))
    return true
  }

  /// The line appended piece by piece: every record (``encode(into:)``'s general path).
  func encodeEach(into out: inout [UInt8]) {
    out.append(contentsOf: #"{"seq":"#.utf8)
    JSONWriter.appendInt(seq, to: &out)
    out.append(contentsOf: #","time":""#.utf8)
    time.appendRFC3339(to: &out)
    out.append(contentsOf: #"","type":"#.utf8)
    JSONWriter.appendString(event.typeName, to: &out)
    event.encodeKeys(into: &out)
    for field in extra {
      out.append(UInt8(ascii: ","))
      JSONWriter.appendString(field.key, to: &out)
      out.append(UInt8(ascii: ":"))
      out.append(contentsOf: field.value.text.utf8)
    }
    out.append(UInt8(ascii: "}"))
  }
}

extension Event {
  /// The bytes of the event's strings (ids and class names), whose escaped
  /// form takes at most six times as many; nil for the events with open-ended
  /// keys (`session`, `mark`, an unknown type), which the fast path leaves to the general one.
  var fastStringBytes: Int? {
    switch self {
    case .alloc(let c, let cls): c.rawValue.utf8.count + cls.utf8.count
    case .root(let c), .dealloc(let c), .touches(let c, _, _), .lifecycle(let c, _), .unlink(let c, _):
      c.rawValue.utf8.count
    case .link(let a, _, let b), .modal(let a, let b): a.rawValue.utf8.count + b.rawValue.utf8.count
    case .pan(let p): p.controller.rawValue.utf8.count
    case .move(let m): m.from.rawValue.utf8.count + m.to.rawValue.utf8.count
    case .session, .mark, .unknown: nil
    }
  }

  /// Appends `,"key":value` for each key of the event after the envelope, in the spec's order.
  func encodeKeys(into out: inout [UInt8]) {
    func key(_ name: StaticString) {
      out.append(UInt8(ascii: ","))
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
      out.append(UInt8(ascii: "\""))
      out.append(UInt8(ascii: ":"))
    }
    func string(_ name: StaticString, _ value: String) {
      key(name)
      JSONWriter.appendString(value, to: &out)
    }
    switch self {
    case .session(let h):
      key("v")
      JSONWriter.appendInt(h.version, to: &out)
      string("session", h.session)
      if let v = h.app { string("app", v) }
      if let v = h.build { string("build", v) }
      if let v = h.device { string("device", v) }
      if let v = h.profile { string("profile", v) }
      if let v = h.scenario { string("scenario", v) }
    case .alloc(let c, let cls):
      string("controller", c.rawValue)
      string("class", cls)
    case .root(let c):
      string("controller", c.rawValue)
    case .link(let a, let d, let b):
      string("from", a.rawValue)
      string("direction", d.rawValue)
      string("to", b.rawValue)
    case .unlink(let a, let d):
      string("from", a.rawValue)
      string("direction", d.rawValue)
    case .modal(let m, let p):
      string("controller", m.rawValue)
      string("presenter", p.rawValue)
    case .touches(let c, let d, let min):
      string("controller", c.rawValue)
      string("direction", d.rawValue)
      key("min")
      JSONWriter.appendInt(min, to: &out)
    case .pan(let p):
      string("controller", p.controller.rawValue)
      string("direction", p.direction.rawValue)
      key("touches")
      JSONWriter.appendInt(p.touches, to: &out)
      key("distance")
      JSONWriter.appendNumber(p.distance, to: &out)
      key("velocity")
      JSONWriter.appendNumber(p.velocity, to: &out)
      string("outcome", p.outcome.rawValue)
    case .move(let m):
      string("from", m.from.rawValue)
      string("to", m.to.rawValue)
      string("direction", m.direction.rawValue)
      string("trigger", m.trigger.rawValue)
      key("animated")
      out.append(contentsOf: (m.animated ? "true" : "false").utf8)
    case .lifecycle(let c, let cb):
      string("controller", c.rawValue)
      string("callback", cb.rawValue)
    case .dealloc(let c):
      string("controller", c.rawValue)
    case .mark(let label, let fields):
      string("label", label)
      for field in fields {
        out.append(UInt8(ascii: ","))
        JSONWriter.appendString(field.key, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(contentsOf: field.value.text.utf8)
      }
    case .unknown:
      break  // its keys are in the record's `extra`
    }
  }
}
