import Testing

@testable import Journal

/// The encoder writes exactly the bytes the format specifies.
@Suite struct CodecWriterTests {
  struct ExampleLine: CustomTestStringConvertible, Sendable {
    var record: Record
    var line: String
    var testDescription: String { "seq \(record.seq)" }
  }

  /// The example journal of the format spec, line by line, with the record each line is.
  static let example: [ExampleLine] = [
    ExampleLine(
      record: Record(
        seq: 0, time: exampleTime(micros: 0),
        event: .session(SessionHeader(session: "3F2A9C1E", app: "Dicto", build: "2.1 (88)", profile: "intended"))),
      line:
        #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":"3F2A9C1E","app":"Dicto","build":"2.1 (88)","profile":"intended"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 1, time: exampleTime(micros: 1000), event: .alloc(controller: "home", className: "HomeViewController")),
      line:
        #"{"seq":1,"time":"2026-11-29T10:00:00.001000Z","type":"alloc","controller":"home","class":"HomeViewController"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 2, time: exampleTime(micros: 2000), event: .alloc(controller: "notes", className: "NotesViewController")),
      line:
        #"{"seq":2,"time":"2026-11-29T10:00:00.002000Z","type":"alloc","controller":"notes","class":"NotesViewController"}"#
    ),
    ExampleLine(
      record: Record(seq: 3, time: exampleTime(micros: 3000), event: .root(controller: "home")),
      line: #"{"seq":3,"time":"2026-11-29T10:00:00.003000Z","type":"root","controller":"home"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 4, time: exampleTime(micros: 3000), event: .lifecycle(controller: "home", callback: .didLoad)),
      line:
        #"{"seq":4,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"didLoad"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 5, time: exampleTime(micros: 3000), event: .lifecycle(controller: "home", callback: .willAppear)),
      line:
        #"{"seq":5,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"willAppear"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 6, time: exampleTime(micros: 3000), event: .lifecycle(controller: "home", callback: .didAppear)),
      line:
        #"{"seq":6,"time":"2026-11-29T10:00:00.003000Z","type":"lifecycle","controller":"home","callback":"didAppear"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 7, time: exampleTime(micros: 4000), event: .link(from: "home", direction: .left, to: "notes")),
      line:
        #"{"seq":7,"time":"2026-11-29T10:00:00.004000Z","type":"link","from":"home","direction":"left","to":"notes"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 8, time: exampleTime(micros: 4000), event: .lifecycle(controller: "notes", callback: .didLoad)),
      line:
        #"{"seq":8,"time":"2026-11-29T10:00:00.004000Z","type":"lifecycle","controller":"notes","callback":"didLoad"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 9, time: exampleTime(micros: 1_000_000),
        event: .pan(
          Pan(controller: "home", direction: .left, touches: 1, distance: 120, velocity: 300, outcome: .committed))),
      line:
        #"{"seq":9,"time":"2026-11-29T10:00:01.000000Z","type":"pan","controller":"home","direction":"left","touches":1,"distance":120,"velocity":300,"outcome":"committed"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 10, time: exampleTime(micros: 1_000_000),
        event: .move(Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true))),
      line:
        #"{"seq":10,"time":"2026-11-29T10:00:01.000000Z","type":"move","from":"home","to":"notes","direction":"left","trigger":"pan","animated":true}"#
    ),
    ExampleLine(
      record: Record(
        seq: 11, time: exampleTime(micros: 1_000_000), event: .lifecycle(controller: "home", callback: .willDisappear)),
      line:
        #"{"seq":11,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"home","callback":"willDisappear"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 12, time: exampleTime(micros: 1_000_000), event: .lifecycle(controller: "notes", callback: .willAppear)),
      line:
        #"{"seq":12,"time":"2026-11-29T10:00:01.000000Z","type":"lifecycle","controller":"notes","callback":"willAppear"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 13, time: exampleTime(micros: 1_250_000), event: .lifecycle(controller: "home", callback: .didDisappear)),
      line:
        #"{"seq":13,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"home","callback":"didDisappear"}"#
    ),
    ExampleLine(
      record: Record(
        seq: 14, time: exampleTime(micros: 1_250_000), event: .lifecycle(controller: "notes", callback: .didAppear)),
      line:
        #"{"seq":14,"time":"2026-11-29T10:00:01.250000Z","type":"lifecycle","controller":"notes","callback":"didAppear"}"#
    ),
  ]

  @Test(arguments: example)
  func writesTheSpecExample(_ example: ExampleLine) throws {
    #expect(example.record.ndjson == example.line)
    #expect(try RecordDecoder.decode(example.line) == example.record)
  }

  @Test func encodeIntoAppendsWithoutLineEnd() {
    var out = Array("prefix".utf8)
    Record(seq: 3, time: exampleTime(micros: 3000), event: .root(controller: "home")).encode(into: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == #"prefix{"seq":3,"time":"2026-11-29T10:00:00.003000Z","type":"root","controller":"home"}"#)
  }

  struct NumberCase: CustomTestStringConvertible, Sendable {
    var value: Double
    var text: String
    var testDescription: String { text }
  }

  /// ECMAScript's `Number.prototype.toString`, as `JSON.stringify` writes numbers.
  static let numbers: [NumberCase] = [
    NumberCase(value: 120, text: "120"),
    NumberCase(value: 50.5, text: "50.5"),
    NumberCase(value: 0.001, text: "0.001"),
    NumberCase(value: 0.000001, text: "0.000001"),
    NumberCase(value: 1e-7, text: "1e-7"),
    NumberCase(value: 1e21, text: "1e+21"),
    NumberCase(value: 1e20, text: "100000000000000000000"),
    NumberCase(value: -0.0, text: "0"),
    NumberCase(value: 0, text: "0"),
    NumberCase(value: -1.5, text: "-1.5"),
    NumberCase(value: 1.2345678901234568e20, text: "123456789012345680000"),
    NumberCase(value: .leastNonzeroMagnitude, text: "5e-324"),
    NumberCase(value: .greatestFiniteMagnitude, text: "1.7976931348623157e+308"),
    NumberCase(value: 0.1 + 0.2, text: "0.30000000000000004"),
    NumberCase(value: 1.5e-7, text: "1.5e-7"),
    NumberCase(value: -2.5e25, text: "-2.5e+25"),
    NumberCase(value: 9_007_199_254_740_992, text: "9007199254740992"),
    NumberCase(value: 1_152_921_504_606_846_976, text: "1152921504606847000"),
    NumberCase(value: 123.456, text: "123.456"),
  ]

  @Test(arguments: numbers)
  func writesNumbersAsECMAScript(_ c: NumberCase) throws {
    var out: [UInt8] = []
    JSONWriter.appendNumber(c.value, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == c.text)
    // And the decoder reads the text back to the same double.
    let line =
      #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"pan","controller":"c","direction":"up","touches":1,"distance":"#
      + c.text + #","velocity":1,"outcome":"blocked"}"#
    let record = try RecordDecoder.decode(line)
    guard case .pan(let pan) = record.event else {
      Issue.record("not a pan: \(record)")
      return
    }
    #expect(pan.distance == c.value)
    #expect(pan.distance.sign == (c.value == 0 ? .plus : c.value.sign))
  }

  /// The fast path (Swift's decimal spelling copied as it is) writes what the
  /// general ECMAScript layout writes, over random bit patterns and random
  /// short decimals, and every text reads back to its double.
  @Test func theDecimalFastPathAgreesWithTheECMAScriptLayout() throws {
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var checked = 0
    for i in 0..<200_000 {
      let value: Double
      switch i % 4 {
      case 0: value = Double(bitPattern: next())
      case 3: value = [9_007_199_254_740_992, 9_007_199_254_740_994, 4_503_599_627_370_496.5][Int(next() % 3)]
      case 1: value = Double(Int64(bitPattern: next()) % 10_000_000) / Double([1, 10, 100, 1000, 1e6][Int(next() % 5)])
      default:
        let exponent = Int(next() % 40) - 20
        var scale = 1.0
        for _ in 0..<abs(exponent) { scale *= 10 }
        value = exponent < 0 ? Double(next() % 1_000_000) / scale : Double(next() % 1_000_000) * scale
      }
      guard value.isFinite, value != 0, value != value.rounded(.towardZero) || abs(value) >= 9_007_199_254_740_992
      else { continue }
      var out: [UInt8] = []
      JSONWriter.appendNumber(value, to: &out)
      let text = String(decoding: out, as: UTF8.self)
      #expect(text == JSONWriter.ecmaScriptString(value), "\(value.description)")
      #expect(Double(text) == value, "\(text)")
      checked += 1
    }
    #expect(checked > 100_000)
  }

  /// Integers are written as Swift spells them, at every length and both signs.
  @Test func integersAreWrittenInDecimal() {
    // Every value up to four digits: up to three are written digit by digit, the rest through the table.
    var values = Array(-1_100...11_000) + [Int.max, Int.min, Int.min + 1]
    var power = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -power, -(power - 1)]
    }
    var random = SeededGenerator(seed: 7)
    for _ in 0..<10_000 {
      values.append(Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0..<63, using: &random))
    }
    for value in values {
      var out: [UInt8] = [UInt8(ascii: "x")]
      JSONWriter.appendInt(value, to: &out)
      #expect(String(decoding: out, as: UTF8.self) == "x\(value)")
    }
  }

  struct StringCase: CustomTestStringConvertible, Sendable {
    var value: String
    var json: String
    var testDescription: String { json }
  }

  /// Only `"`, `\` and controls are escaped; controls without a short form as `\u00XX` in lowercase hex.
  static let strings: [StringCase] = [
    StringCase(value: "plain", json: #""plain""#),
    StringCase(value: "a\"b\\c", json: #""a\"b\\c""#),
    StringCase(value: "/", json: #""/""#),
    StringCase(value: "\u{8}\u{C}\n\r\t", json: #""\b\f\n\r\t""#),
    StringCase(value: "\u{0}\u{1}\u{1B}\u{1F}", json: #""\u0000\u0001\u001b\u001f""#),
    StringCase(value: "\u{7F}é中😀\u{2028}", json: "\"\u{7F}é中😀\u{2028}\""),
  ]

  @Test(arguments: strings)
  func escapesOnlyWhatJSONRequires(_ c: StringCase) {
    #expect(RawJSON.string(c.value).text == c.json)
  }
}

/// The encoder's fast path (common events written through a pointer) writes
/// the same bytes as the general one, piece by piece, for every kind of value.
@Suite struct CodecFastPathTests {
  /// Strings with every kind of byte the escaping distinguishes, and lengths on
  /// both sides of the fast path's limit.
  static func string(_ random: inout SeededGenerator) -> String {
    let pieces = ["a", "home", "é", "😀", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", " ", "<", "\u{2028}"]
    switch Int.random(in: 0..<20, using: &random) {
    case 0: return ""
    case 1: return String(repeating: "x", count: Int.random(in: 4000...5000, using: &random))
    case 2: return String(repeating: "\"", count: Int.random(in: 600...800, using: &random))
    default:
      return (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
  }

  static func number(_ random: inout SeededGenerator) -> Double {
    let edges: [Double] = [
      0, -0.0, 1, 120, 124.5, 0.1, 1e-6, 1e-7, 123e-20, 1e21, 1e20, 9_007_199_254_740_992, 18_014_398_509_481_984,
      -3.25, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]
    if Bool.random(using: &random) { return edges.randomElement(using: &random)! }
    return Double.random(in: -1e6...1e6, using: &random)
  }

  static func time(_ random: inout SeededGenerator) -> Timestamp {
    switch Int.random(in: 0..<10, using: &random) {
    // Years before 0 and after 9999 take the general path's spelling.
    case 0:
      return Timestamp(
        microseconds: Int64.random(in: -70_000_000_000_000_000...(-62_000_000_000_000_000), using: &random))
    case 1:
      return Timestamp(
        microseconds: Int64.random(in: 253_402_300_800_000_000...300_000_000_000_000_000, using: &random))
    default:
      return Timestamp(
        microseconds: Int64.random(in: -62_167_219_200_000_000...253_402_300_799_999_999, using: &random))
    }
  }

  static func event(_ random: inout SeededGenerator) -> Event {
    func id() -> ControllerID { ControllerID(string(&random)) }
    let direction = Direction.allCases.randomElement(using: &random)!
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return .alloc(controller: id(), className: string(&random))
    case 1: return .root(controller: id())
    case 2: return .link(from: id(), direction: direction, to: id())
    case 3: return .unlink(from: id(), direction: direction)
    case 4: return .modal(controller: id(), presenter: id())
    case 5:
      return .touches(controller: id(), direction: direction, min: Int.random(in: Int.min...Int.max, using: &random))
    case 6:
      return .pan(
        Pan(
          controller: id(), direction: direction, touches: Int.random(in: -5...5, using: &random),
          distance: number(&random), velocity: number(&random),
          outcome: PanOutcome.allCases.randomElement(using: &random)!))
    case 7:
      return .move(
        Move(
          from: id(), to: id(), direction: direction, trigger: MoveTrigger.allCases.randomElement(using: &random)!,
          animated: Bool.random(using: &random)))
    case 8: return .lifecycle(controller: id(), callback: Callback.allCases.randomElement(using: &random)!)
    default: return .dealloc(controller: id())
    }
  }

  /// The encoder copies a string eight bytes at a time while none needs escaping: every byte
  /// value at every position of two words and a tail, among bytes that need none, is written
  /// as the general path writes it.
  @Test func eachByteOfAnIdAtEachPositionIsWrittenAsTheGeneralPathWritesIt() {
    for position in 0..<19 {
      for value in 0...255 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
        bytes[position] = UInt8(value)
        let id = String(decoding: bytes, as: UTF8.self)
        let record = Record(seq: 1, time: Timestamp(microseconds: 0), event: .root(controller: ControllerID(id)))
        var fast: [UInt8] = []
        var general: [UInt8] = []
        record.encode(into: &fast)
        record.encodeEach(into: &general)
        #expect(fast == general, "byte \(value) at \(position)")
      }
    }
  }

  /// One ``RecordEncoder`` for many records (the date of the last day kept) writes each as it is
  /// written alone: times in one day, the next, the day before (a journal's clock may go back), in
  /// years 0 and 9999 and outside them (the general path's spelling), one after the other.
  @Test func anEncoderOfManyRecordsWritesEachAsItIsWrittenAlone() {
    var random = SeededGenerator(seed: 1203)
    var encoder = RecordEncoder()
    let day: Int64 = 86_400_000_000
    var time = Timestamp(microseconds: 20_454 * day)
    var days: Set<Int64> = []
    for k in 0..<20_000 {
      switch Int.random(in: 0..<20, using: &random) {
      case 0: time = Timestamp(microseconds: time.microseconds + day)
      case 1: time = Timestamp(microseconds: time.microseconds - day - 1)
      case 2: time = Self.time(&random)
      case 3: time = Timestamp(microseconds: -62_167_219_200_000_000 + Int64.random(in: 0..<(2 * day), using: &random))
      default: time = Timestamp(microseconds: time.microseconds + Int64.random(in: 0..<60_000_000, using: &random))
      }
      days.insert(time.microseconds.floorDivided(by: day).0)
      let record = Record(seq: k, time: time, event: Self.event(&random))
      var inOrder: [UInt8] = []
      var alone: [UInt8] = []
      encoder.encode(record, into: &inOrder)
      record.encode(into: &alone)
      #expect(inOrder == alone, "\(String(decoding: alone, as: UTF8.self))")
      if inOrder != alone { return }
    }
    #expect(days.count > 1000)
  }

  @Test func everyRecordIsWrittenAsTheGeneralPathWritesIt() {
    var random = SeededGenerator(seed: 2026)
    for _ in 0..<20_000 {
      let seq =
        Bool.random(using: &random)
        ? Int.random(in: 0...10_000_000, using: &random) : Int.random(in: Int.min...Int.max, using: &random)
      let record = Record(seq: seq, time: Self.time(&random), event: Self.event(&random))
      var fast: [UInt8] = [0x41]
      var general: [UInt8] = [0x41]
      record.encode(into: &fast)
      record.encodeEach(into: &general)
      #expect(fast == general, "\(String(decoding: general, as: UTF8.self))")
      if fast != general { return }
    }
  }
}
