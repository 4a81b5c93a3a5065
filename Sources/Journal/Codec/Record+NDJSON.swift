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
