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
  ///
  /// The keys are those of the event's type in ``Event/Kind/keyOrder``'s
  /// order, each with the event's ``Event/value(of:)``; extra keys follow.
  public func encode(into out: inout [UInt8]) {
    var day = EncodedDay()
    encode(into: &out, day: &day)
  }

  /// ``encode(into:)`` with the day of the time written last (``RecordEncoder``'s).
  @inline(__always)
  func encode(into out: inout [UInt8], day: inout EncodedDay) {
    if extra.isEmpty, let strings = event.fastStringBytes, strings <= 4096 {
      let tables = WireTables.shared
      let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * strings + RawLine.fixedBound) {
        buffer in
        var line = RawLine(buffer.baseAddress!)
        guard encodeFast(into: &line, tables, day: &day) else { return false }
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
  private func encodeFast(into line: inout RawLine, _ tables: WireTables, day: inout EncodedDay) -> Bool {
    guard let kind = event.kind else { return false }
    line.raw(#"{"seq":"#)
    line.int(seq)
    line.raw(#","time":""#)
    guard line.time(time, day: &day) else { return false }
    line.raw(#"","type":"#)
    line.text(tables.quoted(kind))
    guard Self.writeFields(of: event, into: &line, tables) else { return false }
    line.byte(UInt8(ascii: "}"))
    return true
  }

  /// `,"key":value` for each key of a fast event (``Event/fastStringBytes``), in its type's order
  /// (``Event/Kind/keyOrder``); false for a number this path leaves to ``encodeEach(into:)``.
  ///
  /// Implementation note: written out for each type rather than looped over its keys with
  /// ``Event/withValues(_:)``, which builds a ``WireValue`` for each key, retaining its string and
  /// releasing it, and dispatches on it: a large share of `record`'s encoding thread.
  /// `CodecWriterTests` and `WireSchemaTests` hold the two paths to the same bytes.
  @inline(__always)
  private static func writeFields(of event: borrowing Event, into line: inout RawLine, _ tables: WireTables) -> Bool {
    switch event {
    case .lifecycle(let c, let callback):
      line.text(tables.member(.controller))
      line.id(c)
      line.text(tables.member(.callback))
      line.word(callback.rawValue)
    case .move(let m):
      line.text(tables.member(.from))
      line.id(m.from)
      line.text(tables.member(.to))
      line.id(m.to)
      line.text(tables.member(.direction))
      line.word(m.direction.rawValue)
      line.text(tables.member(.trigger))
      line.word(m.trigger.rawValue)
      line.text(tables.member(.animated))
      if m.animated { line.raw("true") } else { line.raw("false") }
    case .pan(let p):
      line.text(tables.member(.controller))
      line.id(p.controller)
      line.text(tables.member(.direction))
      line.word(p.direction.rawValue)
      line.text(tables.member(.touches))
      line.int(p.touches)
      line.text(tables.member(.distance))
      guard line.numberOutOfLine(p.distance) else { return false }
      line.text(tables.member(.velocity))
      guard line.numberOutOfLine(p.velocity) else { return false }
      line.text(tables.member(.outcome))
      line.word(p.outcome.rawValue)
    case .alloc(let c, let className):
      line.text(tables.member(.controller))
      line.id(c)
      line.text(tables.member(.className))
      line.string(className)
    case .root(let c), .dealloc(let c):
      line.text(tables.member(.controller))
      line.id(c)
    case .modal(let c, let presenter):
      line.text(tables.member(.controller))
      line.id(c)
      line.text(tables.member(.presenter))
      line.id(presenter)
    case .link(let from, let direction, let to):
      line.text(tables.member(.from))
      line.id(from)
      line.text(tables.member(.direction))
      line.word(direction.rawValue)
      line.text(tables.member(.to))
      line.id(to)
    case .unlink(let from, let direction):
      line.text(tables.member(.from))
      line.id(from)
      line.text(tables.member(.direction))
      line.word(direction.rawValue)
    case .touches(let c, let direction, let min):
      line.text(tables.member(.controller))
      line.id(c)
      line.text(tables.member(.direction))
      line.word(direction.rawValue)
      line.text(tables.member(.min))
      line.int(min)
    case .session, .mark, .unknown:
      return false
    }
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

/// Encodes records one after the other, as the writers do: each line is the
/// one ``Record/encode(into:)`` writes, and the date of the time written last
/// is reused while the records stay in its day (the calendar arithmetic is
/// done once a day, not once a line).
///
/// ```swift
/// var encoder = RecordEncoder()
/// var out: [UInt8] = []
/// for record in records {
///   encoder.encode(record, into: &out)
///   out.append(UInt8(ascii: "\n"))
/// }
/// ```
public struct RecordEncoder: Sendable {
  private var day = EncodedDay()

  public init() {}

  /// Appends the record's line, without the trailing `\n`, to `out`.
  @inline(__always)
  public mutating func encode(_ record: borrowing Record, into out: inout [UInt8]) {
    record.encode(into: &out, day: &day)
  }
}

extension Event {
  /// The bytes of the event's strings (ids and class names), whose escaped
  /// form takes at most six times as many; nil for the events with open-ended
  /// keys (`session`, `mark`, an unknown type), which the fast path leaves to the general one.
  var fastStringBytes: Int? {
    switch self {
    case .alloc(let c, let cls): c.utf8Count + cls.utf8.count
    case .root(let c), .dealloc(let c), .touches(let c, _, _), .lifecycle(let c, _), .unlink(let c, _):
      c.utf8Count
    case .link(let a, _, let b), .modal(let a, let b): a.utf8Count + b.utf8Count
    case .pan(let p): p.controller.utf8Count
    case .move(let m): m.from.utf8Count + m.to.utf8Count
    case .session, .mark, .unknown: nil
    }
  }

  /// The value of `key` in this event: for each key of its type
  /// (``Event/Kind/keyOrder``), but for the optional keys of a `session` that
  /// are not given; nil for a key its type does not define.
  func value(of key: JournalKey) -> WireValue? { withValues { $0(key) } }

  /// Calls `body` with the event's values by key (see ``value(of:)``): the one
  /// place an event's fields meet their keys, for the encoder's two paths.
  ///
  /// Implementation note: a function of the key handed to `body`, rather than
  /// a switch over the event for every key: inlined into the encoder, each type
  /// gets a loop over its keys of its own with its values at hand, as a
  /// hand-written encoder would, and no ``WireValue`` is built.
  @inline(__always)
  func withValues<Result>(_ body: ((JournalKey) -> WireValue?) -> Result) -> Result {
    switch self {
    case .session(let h):
      body { key in
        switch key {
        case .v: .int(h.version)
        case .session: .string(h.session)
        case .app: h.app.map(WireValue.string)
        case .build: h.build.map(WireValue.string)
        case .device: h.device.map(WireValue.string)
        case .profile: h.profile.map(WireValue.string)
        case .scenario: h.scenario.map(WireValue.string)
        default: nil
        }
      }
    case .alloc(let c, let cls):
      body { key in key == .controller ? .string(c.rawValue) : key == .className ? .string(cls) : nil }
    case .root(let c), .dealloc(let c):
      body { key in key == .controller ? .string(c.rawValue) : nil }
    case .link(let a, let d, let b):
      body { key in
        switch key {
        case .from: .string(a.rawValue)
        case .direction: .word(d.rawValue)
        case .to: .string(b.rawValue)
        default: nil
        }
      }
    case .unlink(let a, let d):
      body { key in key == .from ? .string(a.rawValue) : key == .direction ? .word(d.rawValue) : nil }
    case .modal(let m, let p):
      body { key in key == .controller ? .string(m.rawValue) : key == .presenter ? .string(p.rawValue) : nil }
    case .touches(let c, let d, let min):
      body { key in
        switch key {
        case .controller: .string(c.rawValue)
        case .direction: .word(d.rawValue)
        case .min: .int(min)
        default: nil
        }
      }
    case .pan(let p):
      body { key in
        switch key {
        case .controller: .string(p.controller.rawValue)
        case .direction: .word(p.direction.rawValue)
        case .touches: .int(p.touches)
        case .distance: .number(p.distance)
        case .velocity: .number(p.velocity)
        case .outcome: .word(p.outcome.rawValue)
        default: nil
        }
      }
    case .move(let m):
      body { key in
        switch key {
        case .from: .string(m.from.rawValue)
        case .to: .string(m.to.rawValue)
        case .direction: .word(m.direction.rawValue)
        case .trigger: .word(m.trigger.rawValue)
        case .animated: .bool(m.animated)
        default: nil
        }
      }
    case .lifecycle(let c, let cb):
      body { key in key == .controller ? .string(c.rawValue) : key == .callback ? .word(cb.rawValue) : nil }
    case .mark(let label, _):
      body { key in key == .label ? .string(label) : nil }
    case .unknown:
      body { _ in nil }  // its keys are in the record's `extra`
    }
  }

  /// Appends `,"key":value` for each key of the event after the envelope, in
  /// its type's order, then a `mark`'s fields.
  func encodeKeys(into out: inout [UInt8]) {
    guard let kind else { return }  // an unknown type: its keys are in the record's `extra`
    withValues { value in
      for key in kind.keyOrder {
        guard let value = value(key) else { continue }
        out.append(UInt8(ascii: ","))
        JSONWriter.appendString(key.name, to: &out)
        out.append(UInt8(ascii: ":"))
        value.append(to: &out)
      }
    }
    if case .mark(_, let fields) = self {
      for field in fields {
        out.append(UInt8(ascii: ","))
        JSONWriter.appendString(field.key, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(contentsOf: field.value.text.utf8)
      }
    }
  }
}
