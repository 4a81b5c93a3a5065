import Journal
import Testing

@testable import TestSupport

/// Every CSV writer (export, stats, paths, latency) goes through one field writer: a text cell a
/// spreadsheet would run as a formula is written as text (`'` before it, quoted), unless
/// `--raw-csv`; a field holding CR LF is quoted, so a record never splits.
@Suite struct CSVInjectionTests {
  /// Two sessions whose screens are a formula and a class with CR LF in its name.
  static func journal() -> String {
    func line(_ seq: Int, _ body: String) -> String {
      #"{"seq":\#(seq),"time":"2026-01-01T00:00:00.\#(String(format: "%06d", seq * 1000))Z",\#(body)}"#
    }
    let formula = #"=HYPERLINK(\"http://x\",\"y\")"#
    let lines = [
      line(0, #""type":"session","v":1,"session":"@S","build":"+1""#),
      line(1, #""type":"alloc","controller":"a","class":"\#(formula)""#),
      line(2, #""type":"alloc","controller":"b","class":"Two\r\nLines""#),
      line(3, #""type":"root","controller":"a""#),
      line(4, #""type":"lifecycle","controller":"a","callback":"didLoad""#),
      line(5, #""type":"lifecycle","controller":"a","callback":"willAppear""#),
      line(6, #""type":"lifecycle","controller":"a","callback":"didAppear""#),
      line(7, #""type":"link","from":"a","direction":"left","to":"b""#),
      line(8, #""type":"lifecycle","controller":"b","callback":"didLoad""#),
      line(9, #""type":"move","from":"a","to":"b","direction":"left","trigger":"programmatic","animated":false"#),
      line(10, #""type":"lifecycle","controller":"a","callback":"willDisappear""#),
      line(11, #""type":"lifecycle","controller":"b","callback":"willAppear""#),
      line(12, #""type":"lifecycle","controller":"a","callback":"didDisappear""#),
      line(13, #""type":"lifecycle","controller":"b","callback":"didAppear""#),
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [
    ["export", "--table", "visits", "--format", "csv"], ["stats", "--by", "build", "--format", "csv"],
    ["paths", "--steps", "2", "--format", "csv"], ["latency", "--format", "csv"],
  ])
  func formulasAreTextAndLineEndsAreQuoted(_ command: [String]) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", Self.journal())
    let guarded = try Binary.run(command + [path])
    #expect(guarded.status == 0, "\(guarded)")
    let text = guarded.stdout
    // No field starts with a formula character: each is quoted with ' before it.
    for record in Self.records(text) {
      for field in record {
        #expect(!"=+-@".contains(field.first ?? " "), "\(command[0]): \(field) in \(text)")
      }
    }
    #expect(text.contains("\"'=HYPERLINK(") || text.contains("\"'+1\"") || text.contains("\"'@S\""), "\(text)")
    // Every record ends with CR LF and has as many fields as the header.
    let records = Self.records(text)
    #expect(records.count >= 2)
    #expect(records.allSatisfy { $0.count == records[0].count }, "\(command[0]): \(records)")
    let raw = try Binary.run(command + ["--raw-csv", path])
    #expect(raw.status == 0)
    #expect(!raw.stdout.contains("'="), "--raw-csv writes cells as they are")
  }

  /// RFC 4180 records, read byte by byte (a CR LF inside quotes is part of its field).
  static func records(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field: [UInt8] = []
    var quoted = false
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if quoted {
        if b == UInt8(ascii: "\""), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
          field.append(b)
          i += 1
        } else if b == UInt8(ascii: "\"") {
          quoted = false
        } else {
          field.append(b)
        }
      } else if b == UInt8(ascii: "\"") {
        quoted = true
      } else if b == UInt8(ascii: ",") {
        record.append(String(decoding: field, as: UTF8.self))
        field = []
      } else if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
        record.append(String(decoding: field, as: UTF8.self))
        records.append(record)
        (record, field) = ([], [])
        i += 1
      } else {
        field.append(b)
      }
      i += 1
    }
    return records
  }
}
