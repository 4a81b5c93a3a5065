import Foundation
import Testing

@testable import Journal

/// Encode then decode is the identity, for every event type and for random records.
@Suite struct CodecRoundTripTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var record: Record
    var testDescription: String { name }
  }

  static let t = exampleTime(micros: 1_500)

  static let cases: [Case] = [
    Case(
      name: "session, minimal",
      record: Record(seq: 0, time: t, event: .session(SessionHeader(session: "3F2A9C1E")))),
    Case(
      name: "session, every optional key",
      record: Record(
        seq: 0, time: t,
        event: .session(
          SessionHeader(
            version: 1, session: "s", app: "Dicto", build: "2.1 (88)", device: "iPhone15,2", profile: "legacy",
            scenario: "swipe-left")))),
    Case(
      name: "session, some optional keys",
      record: Record(seq: 0, time: t, event: .session(SessionHeader(session: "s", device: "sim", scenario: "x")))),
    Case(
      name: "alloc",
      record: Record(seq: 1, time: t, event: .alloc(controller: "home", className: "HomeViewController"))),
    Case(name: "root", record: Record(seq: 2, time: t, event: .root(controller: "home"))),
    Case(name: "link", record: Record(seq: 3, time: t, event: .link(from: "home", direction: .left, to: "notes"))),
    Case(name: "unlink", record: Record(seq: 4, time: t, event: .unlink(from: "home", direction: .down))),
    Case(name: "modal", record: Record(seq: 5, time: t, event: .modal(controller: "sheet", presenter: "home"))),
    Case(name: "touches", record: Record(seq: 6, time: t, event: .touches(controller: "map", direction: .up, min: 2))),
    Case(
      name: "pan, whole numbers",
      record: Record(
        seq: 7, time: t,
        event: .pan(
          Pan(controller: "home", direction: .left, touches: 1, distance: 120, velocity: 300, outcome: .committed)))),
    Case(
      name: "pan, fractions and every outcome spelling",
      record: Record(
        seq: 8, time: t,
        event: .pan(
          Pan(
            controller: "home", direction: .right, touches: 2, distance: 50.5, velocity: 0.001, outcome: .snapBack)
        ))),
    Case(
      name: "pan, tiny and huge numbers",
      record: Record(
        seq: 9, time: t,
        event: .pan(
          Pan(
            controller: "c", direction: .down, touches: -3, distance: .leastNonzeroMagnitude,
            velocity: 1.7976931348623157e308,
            outcome: .cancelled)))),
    Case(
      name: "move",
      record: Record(
        seq: 10, time: t,
        event: .move(Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true)))),
    Case(
      name: "move, goToRoot not animated",
      record: Record(
        seq: 11, time: t,
        event: .move(Move(from: "notes", to: "home", direction: .right, trigger: .goToRoot, animated: false)))),
    Case(
      name: "lifecycle",
      record: Record(seq: 12, time: t, event: .lifecycle(controller: "home", callback: .willDisappear))),
    Case(name: "dealloc", record: Record(seq: 13, time: t, event: .dealloc(controller: "sheet"))),
    Case(name: "mark, label only", record: Record(seq: 14, time: t, event: .mark(label: "step 1", fields: []))),
    Case(
      name: "mark, fields of every JSON kind (and defined key names) in order",
      record: Record(
        seq: 15, time: t,
        event: .mark(
          label: "tap",
          fields: [
            Field(key: "x", value: RawJSON(unchecked: "12.5")),
            Field(key: "controller", value: RawJSON(unchecked: #""home""#)),
            Field(key: "nested", value: RawJSON(unchecked: #"{"a":[1,{"b":null}],"c":"\u00e9\n"}"#)),
            Field(key: "flag", value: RawJSON(unchecked: "false")),
            Field(key: "list", value: RawJSON(unchecked: "[]")),
            Field(key: "exp", value: RawJSON(unchecked: "-1.5E+10")),
          ]))),
    Case(
      name: "unknown keys on a known type, kept in order (defined names of other types too)",
      record: Record(
        seq: 16, time: t, event: .root(controller: "home"),
        extra: [
          Field(key: "zeta", value: RawJSON(unchecked: "1")),
          Field(key: "class", value: RawJSON(unchecked: "[true]")),
          Field(key: "é\"key\"", value: RawJSON(unchecked: #"{"x":{}}"#)),
          Field(key: "min", value: RawJSON(unchecked: #""not a number""#)),
        ])),
    Case(
      name: "ids and strings with escapes, controls and non-ASCII",
      record: Record(
        seq: 17, time: t,
        event: .alloc(controller: "a\"b\\c/d\u{0}\u{1F}\u{7F}é中😀\u{2028}", className: "\t\n\r\u{8}\u{C}"))),
    Case(
      name: "id of exactly 256 bytes",
      record: Record(seq: 18, time: t, event: .dealloc(controller: ControllerID(String(repeating: "é", count: 128))))),
    Case(
      name: "largest seq and an early time",
      record: Record(seq: Int.max, time: Timestamp(microseconds: 0), event: .root(controller: "r"))),
    Case(
      name: "latest time RFC 3339 can write",
      record: Record(seq: 0, time: Timestamp(microseconds: 253_402_300_799_999_999), event: .root(controller: "r"))),
  ]

  @Test(arguments: cases)
  func roundTrip(_ c: Case) throws {
    let line = c.record.ndjson
    let decoded = try #require(decodeLine(line).success, "\(line) did not decode: \(decodeLine(line))")
    #expect(decoded == c.record)
    #expect(decoded.ndjson == line)
  }

  @Test func unknownTypeRoundTrip() throws {
    var record = Record(
      seq: 3, time: Self.t, event: .unknown(type: "zoom", raw: ""),
      extra: [
        Field(key: "controller", value: RawJSON(unchecked: #""home""#)),
        Field(key: "scale", value: RawJSON(unchecked: "2.5")),
      ])
    let line = record.ndjson
    #expect(line == #"{"seq":3,"time":"2026-11-29T10:00:00.001500Z","type":"zoom","controller":"home","scale":2.5}"#)
    record.event = .unknown(type: "zoom", raw: line)
    #expect(try RecordDecoder.decode(line) == record)
  }

  @Test func draftWithoutEnvelope() throws {
    let draft = try RecordDecoder.decodeDraft(#"{"type":"root","controller":"home"}"#)
    #expect(draft == Draft(event: .root(controller: "home")))
    let full = try RecordDecoder.decodeDraft(#"{"type":"root","seq":4,"controller":"home"}"#)
    #expect(full == Draft(seq: 4, event: .root(controller: "home")))
  }

  // MARK: Random records

  /// How many random records: 10,000 by default, more with `CODEC_ROUNDTRIP_COUNT`;
  /// `CODEC_ROUNDTRIP_SEED` picks another seed.
  static var randomCount: Int {
    ProcessInfo.processInfo.environment["CODEC_ROUNDTRIP_COUNT"].flatMap { Int($0) } ?? 10_000
  }
  static var randomSeed: UInt64 {
    ProcessInfo.processInfo.environment["CODEC_ROUNDTRIP_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
  }

  @Test func randomRecordsRoundTrip() throws {
    var generator = RecordGenerator(seed: Self.randomSeed)
    var failures = 0
    for index in 0..<Self.randomCount {
      let record = generator.record()
      let line = record.ndjson
      let result = decodeLine(line)
      if result.success != record || result.success?.ndjson != line {
        failures += 1
        if failures <= 5 {
          Issue.record("record \(index) (seed \(Self.randomSeed)): \(line) decoded as \(result)")
        }
      }
    }
    #expect(failures == 0)
  }

  /// Damaged lines never crash the decoder: each one decodes or throws an error pointing inside the line.
  @Test func randomDamageIsReportedOrDecoded() {
    var generator = RecordGenerator(seed: Self.randomSeed &+ 1)
    var rng = SeededGenerator(seed: Self.randomSeed &+ 2)
    var errors = 0
    for _ in 0..<(Self.randomCount / 2) {
      var bytes = Array(generator.record().ndjson.utf8)
      for _ in 0...Int.random(in: 0...2, using: &rng) {
        let position = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[position] = UInt8.random(in: 0...255, using: &rng)
        case 1: bytes.remove(at: position)
        default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: position)
        }
        if bytes.isEmpty { bytes = [0x7B] }
      }
      if let error = decodeBytes(bytes).failure {
        errors += 1
        #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error) for \(bytes)")
        #expect(error.rule == .malformed || error.rule == .framing)
        #expect(!error.message.isEmpty)
      }
    }
    #expect(errors > 0)
  }
}

/// Random records of every type, with hostile strings, extreme numbers and random extra keys.
struct RecordGenerator {
  var rng: SeededGenerator

  init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

  mutating func record() -> Record {
    let seq = chance(10) ? int(0...Int.max) : int(0...1_000_000)
    let time = Timestamp(microseconds: Int64.random(in: 0...253_402_300_799_999_999, using: &rng))
    let typeIndex = int(0...12)
    var taken: Set<String> = ["seq", "time", "type"]
    let event: Event
    switch typeIndex {
    case 0:
      let header = SessionHeader(
        version: int(-5...5), session: string(), app: chance(50) ? string() : nil,
        build: chance(50) ? string() : nil, device: chance(50) ? string() : nil,
        profile: chance(50) ? string() : nil, scenario: chance(50) ? string() : nil)
      event = .session(header)
      taken.formUnion(["v", "session", "app", "build", "device", "profile", "scenario"])
    case 1:
      event = .alloc(controller: id(), className: string())
      taken.formUnion(["controller", "class"])
    case 2:
      event = .root(controller: id())
      taken.insert("controller")
    case 3:
      event = .link(from: id(), direction: direction(), to: id())
      taken.formUnion(["from", "direction", "to"])
    case 4:
      event = .unlink(from: id(), direction: direction())
      taken.formUnion(["from", "direction"])
    case 5:
      event = .modal(controller: id(), presenter: id())
      taken.formUnion(["controller", "presenter"])
    case 6:
      event = .touches(controller: id(), direction: direction(), min: chance(80) ? int(1...3) : int(1...Int.max))
      taken.formUnion(["controller", "direction", "min"])
    case 7:
      event = .pan(
        Pan(
          controller: id(), direction: direction(), touches: int(-10...10), distance: number(), velocity: number(),
          outcome: PanOutcome.allCases.randomElement(using: &rng) ?? .committed))
      taken.formUnion(["controller", "direction", "touches", "distance", "velocity", "outcome"])
    case 8:
      event = .move(
        Move(
          from: id(), to: id(), direction: direction(),
          trigger: MoveTrigger.allCases.randomElement(using: &rng) ?? .pan, animated: chance(50)))
      taken.formUnion(["from", "to", "direction", "trigger", "animated"])
    case 9:
      event = .lifecycle(controller: id(), callback: Callback.allCases.randomElement(using: &rng) ?? .didLoad)
      taken.insert("controller")
      taken.insert("callback")
    case 10:
      event = .dealloc(controller: id())
      taken.insert("controller")
    case 11:
      taken.insert("label")
      event = .mark(label: string(), fields: fields(avoiding: &taken))
    default:
      var name = string()
      while name.isEmpty || Event.knownTypeNames.contains(name) { name = string() }
      event = .unknown(type: name, raw: "")
    }
    var record = Record(seq: seq, time: time, event: event)
    if typeIndex != 11 && chance(typeIndex == 12 ? 90 : 30) {
      record.extra = fields(avoiding: &taken)
    }
    if case .unknown(let type, _) = event {
      record.event = .unknown(type: type, raw: record.ndjson)
    }
    return record
  }

  mutating func direction() -> Direction { Direction.allCases.randomElement(using: &rng) ?? .left }

  /// A valid controller id: 1 to 256 bytes of hostile text.
  mutating func id() -> ControllerID {
    var text = string()
    while text.isEmpty || text.utf8.count > ControllerID.maximumLength {
      text = text.isEmpty ? string() : String(text.dropLast())
    }
    return ControllerID(text)
  }

  /// A string mixing ASCII, quotes, backslashes, controls, non-ASCII and astral characters.
  mutating func string() -> String {
    if chance(30) { return ["home", "notes", "HomeViewController", "", "settings"][int(0...4)] }
    let pieces: [String] = [
      "a", "Z", "0", " ", "/", "\"", "\\", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}", "\u{7F}",
      "é", "ß", "中", "😀", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "\u{E000}", "ab", "Controller",
    ]
    var text = ""
    for _ in 0..<int(0...(chance(5) ? 120 : 12)) { text += pieces[int(0...(pieces.count - 1))] }
    return text
  }

  /// A finite double: whole, fractional, tiny, huge, subnormal, negative zero or any bit pattern.
  mutating func number() -> Double {
    switch int(0...9) {
    case 0: return Double(int(-1000...1000))
    case 1: return Double(int(-100_000...100_000)) / 100
    case 2: return -0.0
    case 3:
      return [
        .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e21, 1e-7, 0.000001, 1.2345678901234568e20,
        2.2250738585072014e-308,
      ][
        int(0...6)]
    case 4: return Double(sign: chance(50) ? .minus : .plus, exponent: int(-1074...1023), significand: 1)
    case 5: return Double.random(in: -1e6...1e6, using: &rng)
    default:
      while true {
        let value = Double(bitPattern: rng.next())
        if value.isFinite { return value }
      }
    }
  }

  /// Up to 4 fields whose keys are not in `taken` (and then are).
  mutating func fields(avoiding taken: inout Set<String>) -> [Field] {
    var result: [Field] = []
    let definedNames = ["controller", "class", "direction", "min", "label", "v", "app", "to"]
    for _ in 0..<int(0...4) {
      let key = chance(30) ? definedNames[int(0...(definedNames.count - 1))] : string()
      guard !taken.contains(key) else { continue }
      taken.insert(key)
      result.append(Field(key: key, value: RawJSON(unchecked: jsonText(depth: 0))))
    }
    return result
  }

  /// The text of a random valid JSON value, in any spelling JSON allows.
  mutating func jsonText(depth: Int) -> String {
    switch int(0...(depth < 4 ? 7 : 5)) {
    case 0: return ["true", "false", "null"][int(0...2)]
    case 1:
      return ["0", "-0", "12", "-3.25", "1e5", "1E+2", "2.5e-3", "-0.0", "123456789012345678901234567890"][
        int(0...8)]
    case 2: return RawJSON.string(string()).text
    case 3: return [#""\/\b\f\n\r\t\"\\""#, #""\u00e9\u4E2D\ud83d\ude00""#, #""\u0000""#, #""""#][int(0...3)]
    case 4: return JSONWriter.ecmaScriptNumberText(number())
    case 5: return #""plain""#
    case 6:
      var items: [String] = []
      for _ in 0..<int(0...3) { items.append(jsonText(depth: depth + 1)) }
      return "[" + items.joined(separator: chance(20) ? ", " : ",") + "]"
    default:
      var keys: Set<String> = []
      var members: [String] = []
      for _ in 0..<int(0...3) {
        let key = string()
        guard keys.insert(key).inserted else { continue }
        members.append(RawJSON.string(key).text + (chance(20) ? " : " : ":") + jsonText(depth: depth + 1))
      }
      return "{" + members.joined(separator: ",") + "}"
    }
  }
}

extension JSONWriter {
  /// A number as the writer writes it.
  static func ecmaScriptNumberText(_ value: Double) -> String {
    var out: [UInt8] = []
    appendNumber(value, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
