/// One line of a journal: the envelope, the typed event and any keys the
/// format does not define (kept verbatim, in order).
public struct Record: Sendable, Hashable {
  /// Position in the journal: 0 on the first line, then +1 per line.
  public var seq: Int
  /// When it happened (UTC, microsecond precision).
  public var time: Timestamp
  public var event: Event
  /// Keys the format does not define for this type, in the order read.
  /// For `mark` every key after `label` is part of the event instead.
  public var extra: [Field]

  public init(seq: Int, time: Timestamp, event: Event, extra: [Field] = []) {
    self.seq = seq
    self.time = time
    self.event = event
    self.extra = extra
  }
}

/// A record as a caller hands it to the writer or as `append` reads it:
/// `seq` and `time` may be missing and are then assigned on append.
public struct Draft: Sendable, Hashable {
  public var seq: Int?
  public var time: Timestamp?
  public var event: Event
  public var extra: [Field]

  public init(seq: Int? = nil, time: Timestamp? = nil, event: Event, extra: [Field] = []) {
    self.seq = seq
    self.time = time
    self.event = event
    self.extra = extra
  }
}

/// A key and its JSON value, kept as the exact JSON text it was read as.
public struct Field: Sendable, Hashable {
  public var key: String
  public var value: RawJSON

  public init(key: String, value: RawJSON) {
    self.key = key
    self.value = value
  }

  /// A field whose value is a JSON string.
  public static func string(_ key: String, _ value: String) -> Field {
    Field(key: key, value: .string(value))
  }
}

/// The text of one valid JSON value, verbatim.
public struct RawJSON: Sendable, Hashable, CustomStringConvertible {
  /// The JSON text, e.g. `"abc"`, `12`, `[1,2]`.
  public var text: String

  /// Wraps text the caller knows is one valid JSON value.
  public init(unchecked text: String) { self.text = text }

  /// The JSON text of a string value, escaped as the writer escapes.
  public static func string(_ value: String) -> RawJSON {
    var out: [UInt8] = []
    JSONWriter.appendString(value, to: &out)
    return RawJSON(unchecked: String(decoding: out, as: UTF8.self))
  }

  public var description: String { text }
}

extension Record {
  /// About the bytes the record holds (its strings, with a fixed cost for the rest): what a
  /// reader that keeps records counts against a budget in bytes, not in records.
  ///
  /// ```swift
  /// var kept = 0
  /// for record in records where kept < 64 << 20 { kept += record.heldBytes }
  /// ```
  public var heldBytes: Int {
    func fields(_ fields: [Field]) -> Int { fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.text.utf8.count } }
    var n = 64 + fields(extra)
    switch event {
    case .session(let h):
      n += h.session.utf8.count
      for text in [h.app, h.build, h.device, h.profile, h.scenario] { n += text?.utf8.count ?? 0 }
    case .mark(let label, let more): n += label.utf8.count + fields(more)
    case .unknown(let type, let raw): n += type.utf8.count + raw.utf8.count
    default: n += event.fastStringBytes ?? 0
    }
    return n
  }
}
