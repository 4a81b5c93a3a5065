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
  /// The key of the optional call site of an event (`"source":"NotesApp/ListViewController.swift:42"`).
  public static let sourceKey = "source"
  static let sourceKeyBytes: [UInt8] = Array(sourceKey.utf8)
  /// The longest `source` the format allows, in bytes.
  public static let maximumSourceBytes = 512

  /// The call site in the app that recorded the event (`FILE:LINE`, the file as
  /// Swift's `#fileID` names it), when the line carries one.
  ///
  /// It is kept in ``extra`` like a key the format does not type, so that every
  /// tool that copies events keeps it verbatim; a mark's `source` is there too,
  /// not among the mark's keys. Setting it replaces the key or appends it last.
  public var source: String? {
    get { extra.isEmpty ? nil : Record.source(in: extra) }
    set { Record.setSource(newValue, in: &extra) }
  }

  static func source(in extra: [Field]) -> String? {
    guard let field = extra.first(where: { $0.key == sourceKey }) else { return nil }
    return field.value.stringValue
  }

  static func setSource(_ source: String?, in extra: inout [Field]) {
    let index = extra.firstIndex { $0.key == sourceKey }
    switch (source, index) {
    case (nil, nil): break
    case (nil, let index?): extra.remove(at: index)
    case (let source?, nil): extra.append(.string(sourceKey, source))
    case (let source?, let index?): extra[index] = .string(sourceKey, source)
    }
  }
}

extension Draft {
  /// The call site in the app that records the event; see ``Record/source``.
  public var source: String? {
    get { extra.isEmpty ? nil : Record.source(in: extra) }
    set { Record.setSource(newValue, in: &extra) }
  }
}

/// A call site read from an event's `source`: `FILE:LINE`, the file as Swift's
/// `#fileID` names it (`NotesApp/ListViewController.swift`).
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  /// 1-based line.
  public var line: Int

  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }

  /// Reads `FILE:LINE`: the digits after the last colon are the line (≥ 1), what
  /// comes before them the file (not empty). Nil for any other text, which
  /// outputs then show as it is, without locating it.
  public init?(_ text: String) {
    guard let colon = text.utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
    let file = text[..<colon]
    let digits = text.utf8[text.utf8.index(after: colon)...]
    guard !file.isEmpty, !digits.isEmpty, digits.count <= 9,
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let line = Int(Substring(digits)), line >= 1
    else { return nil }
    self.init(file: String(file), line: line)
  }

  public var description: String { "\(file):\(line)" }
}

extension RawJSON {
  /// The content of a JSON string value with its escapes decoded; nil when the
  /// text is not one well-formed string (a number, an object, a bad escape).
  public var stringValue: String? {
    var utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8.first == UInt8(ascii: "\""), utf8.last == UInt8(ascii: "\"") else { return nil }
    utf8.removeLast()
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    var k = 1
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= utf8.count else { return nil }
      var value: UInt32 = 0
      for byte in utf8[at..<(at + 4)] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    while k < utf8.count {
      let c = utf8[k]
      if c == UInt8(ascii: "\"") { return nil }
      guard c == UInt8(ascii: "\\") else {
        out.append(c)
        k += 1
        continue
      }
      guard k + 1 < utf8.count else { return nil }
      switch utf8[k + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(utf8[k + 1])
      case UInt8(ascii: "u"):
        guard var scalar = hex4(k + 2) else { return nil }
        k += 6
        if (0xD800...0xDBFF).contains(scalar) {
          guard k + 1 < utf8.count, utf8[k] == UInt8(ascii: "\\"), utf8[k + 1] == UInt8(ascii: "u"),
            let low = hex4(k + 2), (0xDC00...0xDFFF).contains(low)
          else { return nil }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          k += 6
        }
        guard let unicode = Unicode.Scalar(scalar) else { return nil }
        out.append(contentsOf: String(Character(unicode)).utf8)
        continue
      case let letter:
        guard let byte = JSONEscape.control(letter) else { return nil }
        out.append(byte)
      }
      k += 2
    }
    return String(validating: out, as: UTF8.self)
  }
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
