import Journal
import Testing

@testable import Projection
@testable import Rendering

/// How rows are written: NDJSON with every key in column order, CSV per RFC 4180,
/// numbers always with a fraction, and Hive-style partition names.
@Suite struct ExportEncodingTests {
  static let context = RowContext(session: "S1", app: "Dicto", build: nil, file: "a.ndjson")
  static let visit = TableRow([
    .string("home"), .string("Home"), .integer(1), .integer(6),
    .timestamp(Timestamp(microseconds: 1_764_410_400_003_000)), .null,
    .timestamp(Timestamp(microseconds: 1_764_410_401_000_000)), .number(997), .boolean(true),
    .boolean(true),
  ])

  func encode(_ table: Table, _ format: TableFormat, _ rows: [TableRow], header: Bool = true) -> String {
    var encoder = TableEncoder(table: table, format: format)
    encoder.context = Self.context
    var out: [UInt8] = []
    if header { encoder.appendHeader(to: &out) }
    for row in rows { encoder.append(row, to: &out) }
    return String(decoding: out, as: UTF8.self)
  }

  @Test func ndjsonRowsHaveEveryKeyInColumnOrderAndNoHeader() {
    #expect(
      encode(.visits, .ndjson, [Self.visit])
        == #"{"session":"S1","app":"Dicto","build":null,"file":"a.ndjson","controller":"home","class":"Home","visit":1,"#
        + #""start_seq":6,"start_time":"2025-11-29T10:00:00.003000Z","end_seq":null,"end_time":"2025-11-29T10:00:01.000000Z","#
        + #""dwell_ms":997.0,"open":true,"complete":true}"# + "\n")
  }

  @Test func csvHasAHeaderCRLFLineEndsAndEmptyFieldsForNull() {
    #expect(
      encode(.visits, .csv, [Self.visit])
        == "session,app,build,file,controller,class,visit,start_seq,start_time,end_seq,end_time,dwell_ms,open,complete\r\n"
        + "S1,Dicto,,a.ndjson,home,Home,1,6,2025-11-29T10:00:00.003000Z,,2025-11-29T10:00:01.000000Z,997.0,true,true\r\n"
    )
  }

  struct QuotingCase: CustomTestStringConvertible, Sendable {
    var value: Cell
    var csv: String
    var testDescription: String { "\(value) → \(csv)" }
  }

  @Test(arguments: [
    QuotingCase(value: .string("plain"), csv: "plain"),
    QuotingCase(value: .string("a,b"), csv: #""a,b""#),
    QuotingCase(value: .string(#"say "hi""#), csv: #""say ""hi""""#),
    QuotingCase(value: .string("two\nlines"), csv: "\"two\nlines\""),
    QuotingCase(value: .string("cr\rhere"), csv: "\"cr\rhere\""),
    QuotingCase(value: .string("crlf\r\n"), csv: "\"crlf\r\n\""),
    QuotingCase(value: .string(""), csv: #""""#),
    QuotingCase(value: .string(" spaced "), csv: " spaced "),
    QuotingCase(value: .string("é 漢字"), csv: "é 漢字"),
    QuotingCase(value: .null, csv: ""),
    QuotingCase(value: .json(#"{"x":1,"y":"a,b"}"#), csv: #""{""x"":1,""y"":""a,b""}""#),
    QuotingCase(value: .json("[]"), csv: "[]"),
    QuotingCase(value: .integer(-42), csv: "-42"),
    QuotingCase(value: .boolean(false), csv: "false"),
    QuotingCase(value: .number(120), csv: "120.0"),
    QuotingCase(value: .number(0.001), csv: "0.001"),
    QuotingCase(value: .number(1e21), csv: "1e+21"),
    QuotingCase(value: .number(-0.0), csv: "0.0"),
    QuotingCase(value: .number(.nan), csv: ""),
  ])
  func csvFieldsAreQuotedOnlyWhenTheyMustBe(_ c: QuotingCase) {
    var out: [UInt8] = []
    TableEncoder.appendCSV(c.value, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == c.csv)
  }

  @Test func aCSVRowWithQuotedFieldsStillHasOneFieldPerColumn() {
    let context = RowContext(session: "S,1", app: "say \"hi\"", build: "", file: "dir/a b.ndjson")
    var encoder = TableEncoder(table: .findings, format: .csv, context: context)
    var out: [UInt8] = []
    encoder.append(
      TableRow([
        .integer(3), .null, .integer(2), .string("malformed"), .string("error"), .string("bad\nline, \"x\""),
        .json(#"["a","b"]"#), .null,
      ]), to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == #""S,1","say ""hi""","",dir/a b.ndjson,3,,2,malformed,error,"bad"# + "\n"
        + #"line, ""x""","[""a"",""b""]","# + "\r\n")
    encoder.context = Self.context
    out = []
    encoder.append(
      TableRow([.integer(1), .integer(5), .null, .string("r"), .string("warning"), .string("m"), .json("[]"), .null]),
      to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "S1,Dicto,,a.ndjson,1,5,,r,warning,m,[],\r\n")
  }

  struct NumberCase: CustomTestStringConvertible, Sendable {
    var value: Double
    var text: String
    var testDescription: String { text }
  }

  @Test(arguments: [
    NumberCase(value: 0, text: "0.0"), NumberCase(value: 250, text: "250.0"), NumberCase(value: 0.5, text: "0.5"),
    NumberCase(value: 997.25, text: "997.25"), NumberCase(value: 1e-7, text: "1e-7"),
    NumberCase(value: 123_456_789_012_345_680, text: "123456789012345680.0"),
    NumberCase(value: -3, text: "-3.0"), NumberCase(value: .infinity, text: "null"),
  ])
  func numbersAlwaysHaveAFractionOrAnExponent(_ c: NumberCase) {
    var out: [UInt8] = []
    TableEncoder.appendNumber(c.value, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == c.text)
  }

  @Test func ndjsonStringsAreEscapedAsTheJournalWriterEscapes() {
    #expect(Cell.string("tab\there \"q\" \u{1}").description == #""tab\there \"q\" \u0001""#)
    // JSON cells are arrays and objects in NDJSON, not strings holding JSON.
    #expect(Cell.json(#"{"a":1}"#).description == #"{"a":1}"#)
    #expect(Cell.timestamp(.modelEpoch).description == #""2026-01-01T00:00:00.000000Z""#)
  }

  struct PartitionCase: CustomTestStringConvertible, Sendable {
    var session: String?
    var directory: String
    var testDescription: String { directory }
  }

  @Test(arguments: [
    PartitionCase(session: "3F2A9C1E", directory: "session=3F2A9C1E"),
    PartitionCase(session: "a/b", directory: "session=a%2Fb"),
    PartitionCase(session: "..", directory: "session=.."),
    PartitionCase(session: "x=1:2", directory: "session=x%3D1%3A2"),
    PartitionCase(session: "100%", directory: "session=100%25"),
    PartitionCase(session: "tab\tnl\n", directory: "session=tab%09nl%0A"),
    PartitionCase(session: ##"q"#*?\[]^{}'"##, directory: "session=q%22%23%2A%3F%5C%5B%5D%5E%7B}%27"),
    PartitionCase(session: "sp ace-é", directory: "session=sp ace-é"),
    PartitionCase(session: "", directory: "session="),
    PartitionCase(session: nil, directory: "session=__HIVE_DEFAULT_PARTITION__"),
    PartitionCase(session: "a~b", directory: "session=a%7Eb"),
  ])
  func partitionDirectoriesEscapeAsHiveDoes(_ c: PartitionCase) {
    #expect(PartitionPath.directory(session: c.session) == c.directory)
    if let session = c.session { #expect(PartitionPath.unescape(PartitionPath.escape(session)) == session) }
  }

  /// The literal null name is escaped so that readers unescape it to the value, not to null.
  @Test func theReservedValueIsEscapedNotNull() {
    #expect(PartitionPath.folderName("__HIVE_DEFAULT_PARTITION__") == "%5F_HIVE_DEFAULT_PARTITION__")
    #expect(PartitionPath.unescape("%5F_HIVE_DEFAULT_PARTITION__") == "__HIVE_DEFAULT_PARTITION__")
    #expect(PartitionPath.folderName(nil) == "__HIVE_DEFAULT_PARTITION__")
    #expect(PartitionPath.folderName("__HIVE_DEFAULT_PARTITION__x") == "__HIVE_DEFAULT_PARTITION__x")
  }

  /// A value too long for a folder name gets a short one: the same every time, a
  /// different one for a different value, never cut inside an escape or a character.
  @Test func longValuesGetAStableShortName() {
    let long = String(repeating: "b", count: 300)
    let name = PartitionPath.folderName(long)
    #expect(name == String(repeating: "b", count: 64) + "~" + "d6e6622da9911f25")
    #expect(PartitionPath.folderName(long + "c").hasPrefix(String(repeating: "b", count: 64) + "~"))
    #expect(PartitionPath.folderName(long + "c") != name)
    #expect(PartitionPath.folderName(String(repeating: "b", count: 128)) == String(repeating: "b", count: 128))
    for filler in ["é", "/", "ab/", "€x", "%", "\u{1F600}"] {
      let value = String(repeating: filler, count: 200)
      let short = PartitionPath.folderName(value)
      let prefix = String(short[..<short.lastIndex(of: "~")!])
      #expect(short.utf8.count <= PartitionPath.shortenedPrefix + 17, "\(filler)")
      #expect(value.hasPrefix(PartitionPath.unescape(prefix)), "\(filler): \(short)")
      #expect(!prefix.hasSuffix("%") && prefix.utf8.dropLast().last != UInt8(ascii: "%"), "\(filler): \(short)")
    }
  }

  @Test func partitionFilesAreNamedAfterTheFormat() {
    #expect(PartitionPath.fileName(.ndjson) == "part.ndjson")
    #expect(PartitionPath.fileName(.csv) == "part.csv")
  }
}
