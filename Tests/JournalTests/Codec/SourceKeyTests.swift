import Testing

@testable import Journal

/// The optional `source` of any event: the app's call site, `FILE:LINE`, a string of at most 512 bytes.
@Suite struct SourceKeyTests {
  static let time = "2026-11-29T10:00:00.001000Z"
  static let t = exampleTime(micros: 1000)

  @Test func sourceIsReadIntoExtraAndWrittenBack() throws {
    let line =
      #"{"seq":3,"time":"\#(Self.time)","type":"lifecycle","controller":"list","callback":"didAppear","source":"NotesApp/ListViewController.swift:42"}"#
    let record = try RecordDecoder.decode(line)
    #expect(record.event == .lifecycle(controller: "list", callback: .didAppear))
    #expect(record.source == "NotesApp/ListViewController.swift:42")
    #expect(record.extra == [.string("source", "NotesApp/ListViewController.swift:42")])
    #expect(record.ndjson == line)
  }

  @Test func aMarksSourceIsItsCallSiteNotPartOfItsPayload() throws {
    let line =
      #"{"seq":4,"time":"\#(Self.time)","type":"mark","label":"checkout","user":"alice","source":"Shop/Cart.swift:7","step":"2"}"#
    let record = try RecordDecoder.decode(line)
    #expect(
      record.event
        == .mark(label: "checkout", fields: [.string("user", "alice"), .string("step", "2")]))
    #expect(record.source == "Shop/Cart.swift:7")
    // Written back with the call site after the payload; read again, the same record.
    let again = try RecordDecoder.decode(record.ndjson)
    #expect(again == record)
  }

  @Test func escapedSourcesAreDecoded() throws {
    let line =
      #"{"seq":1,"time":"\#(Self.time)","type":"root","controller":"home","source":"Caf\u00e9\/Home.swift:9"}"#
    #expect(try RecordDecoder.decode(line).source == "Café/Home.swift:9")
  }

  @Test func aSourceThatIsNotAStringIsMalformed() {
    let line = #"{"seq":1,"time":"\#(Self.time)","type":"root","controller":"home","source":12}"#
    let error = decodeLine(line).failure
    #expect(error?.rule == .malformed)
    #expect(error?.message == #"expected a string for "source", found 12"#)
  }

  @Test func aSourceLongerThan512BytesIsMalformedEvenOnAMark() {
    let longest = String(repeating: "a", count: 508) + ".s:1"
    let ok = #"{"seq":1,"time":"\#(Self.time)","type":"mark","label":"x","source":"\#(longest)"}"#
    #expect(decodeLine(ok).failure == nil)
    // An escape counts as the byte it stands for: 512 bytes once decoded.
    let escaped =
      #"{"seq":1,"time":"\#(Self.time)","type":"mark","label":"x","source":"\#(String(longest.dropFirst()))\u0061"}"#
    #expect(decodeLine(escaped).failure == nil)
    let line = #"{"seq":1,"time":"\#(Self.time)","type":"mark","label":"x","source":"a\#(longest)"}"#
    let error = decodeLine(line).failure
    #expect(error?.rule == .malformed)
    #expect(error?.message == #""source" is 513 bytes long; the format allows at most 512"#)
  }

  @Test func settingTheSourceReplacesOrAppendsIt() {
    var record = Record(seq: 1, time: Self.t, event: .root(controller: "home"), extra: [.string("x", "1")])
    #expect(record.source == nil)
    record.source = "A/B.swift:3"
    #expect(record.extra == [.string("x", "1"), .string("source", "A/B.swift:3")])
    record.source = "A/B.swift:4"
    #expect(record.extra == [.string("x", "1"), .string("source", "A/B.swift:4")])
    record.source = nil
    #expect(record.extra == [.string("x", "1")])
  }

  @Test(arguments: [
    ("NotesApp/ListViewController.swift:42", "NotesApp/ListViewController.swift", 42),
    ("a:b:7", "a:b", 7),
    ("C:\\x.swift:1", "C:\\x.swift", 1),
  ])
  func callSitesAreRead(text: String, file: String, line: Int) {
    #expect(CallSite(text) == CallSite(file: file, line: line))
  }

  @Test(arguments: ["", "x.swift", "x.swift:", ":3", "x.swift:0", "x.swift:-1", "x.swift:1a", "x.swift:99999999999"])
  func otherTextIsNoCallSite(text: String) {
    #expect(CallSite(text) == nil)
  }

  @Test func rawJSONStringValues() {
    #expect(RawJSON(unchecked: #""a\"b\\c\u00e9\ud83d\ude00""#).stringValue == "a\"b\\cé😀")
    #expect(RawJSON(unchecked: "12").stringValue == nil)
    #expect(RawJSON(unchecked: #""a"b""#).stringValue == nil)
    #expect(RawJSON(unchecked: #""\q""#).stringValue == nil)
    #expect(RawJSON(unchecked: #""\ud83d""#).stringValue == nil)
    #expect(RawJSON(unchecked: #""\u12""#).stringValue == nil)
  }
}
