import Journal
import Testing

@testable import Projection
@testable import Rendering

/// Whole Parquet files from ``ParquetWriter``, taken apart byte by byte: the magic, the
/// footer (read with a small Thrift compact-protocol reader), the schema, and each column
/// chunk's pages where the footer says they are.
@Suite struct ParquetFileTests {
  static let context = RowContext(session: "S1", build: "7", file: "j.ndjson")

  /// Three findings: nulls in `column`, `seq` and `move_seq`, lists of two, none and one.
  static let findings = [
    TableRow([
      .integer(3), .null, .integer(2), .string("seq-gap"), .string("error"), .string("m1"), .json(#"["a","b\"c"]"#),
      .integer(7),
    ]),
    TableRow([
      .integer(5), .integer(4), .null, .string("malformed"), .string("error"), .string("m2"), .json("[]"), .null,
    ]),
    TableRow([
      .integer(9), .null, .integer(8), .string("seq-gap"), .string("warning"), .string("m3"), .json(#"["é"]"#), .null,
    ]),
  ]

  static func file(
    _ table: Table = .findings, _ rows: [TableRow] = findings, compression: ParquetCompression = .none,
    rowGroupBytes: Int = ParquetWriter.defaultRowGroupBytes
  ) -> [UInt8] {
    var writer = ParquetWriter(table: table, compression: compression, rowGroupBytes: rowGroupBytes, context: context)
    var out: [UInt8] = []
    for row in rows {
      writer.append(row)
      if writer.isRowGroupFull { writer.writeRowGroup(to: &out) }
    }
    writer.finish(to: &out)
    #expect(writer.offset == out.count, "the writer's offset is the file's size")
    return out
  }

  /// The footer: `FileMetaData` before the last 8 bytes (its length, `PAR1`).
  static func footer(_ bytes: [UInt8]) throws -> ThriftStruct {
    try #require(bytes.count >= 12)
    #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
    #expect(Array(bytes.suffix(4)) == Array("PAR1".utf8))
    let n = bytes.count
    let length = Int(bytes[n - 8]) | Int(bytes[n - 7]) << 8 | Int(bytes[n - 6]) << 16 | Int(bytes[n - 5]) << 24
    var reader = CompactReader(bytes: bytes, at: n - 8 - length)
    let meta = try reader.readStruct()
    #expect(reader.offset == n - 8, "the footer's length is that of FileMetaData")
    return meta
  }

  @Test func aSmallFileIsLaidOutAsItsFooterSays() throws {
    let bytes = Self.file()
    let meta = try Self.footer(bytes)
    #expect(meta[1] == .int(1), "version")
    #expect(meta[3] == .int(3), "num_rows")
    #expect(meta[6] == .binary(Array("spatial-replay".utf8)))

    // Schema: the root, 12 columns, the list column as three elements.
    let schema = try #require(meta[2]?.list)
    #expect(schema.count == 1 + 12 + 2)
    #expect(schema[0].structure?[4] == .binary(Array("schema".utf8)) && schema[0].structure?[5] == .int(12))
    let names = schema.compactMap { $0.structure?[4]?.text }
    #expect(
      names == [
        "schema", "session", "app", "build", "file", "line", "column", "seq", "rule", "severity", "message",
        "controllers", "list", "element", "move_seq",
      ])
    let column = try #require(schema[6].structure)
    #expect(column[1] == .int(2) && column[3] == .int(1), "column: INT64, OPTIONAL")
    let file = try #require(schema[4].structure)
    #expect(file[1] == .int(6) && file[3] == .int(0) && file[6] == .int(0), "file: BYTE_ARRAY, REQUIRED, UTF8")
    #expect(file[10]?.structure?[1] == .structure([:]), "logical type STRING")
    let list = try #require(schema[11].structure)
    #expect(list[3] == .int(0) && list[5] == .int(1) && list[6] == .int(3), "controllers: REQUIRED group, LIST")
    #expect(schema[12].structure?[3] == .int(2), "list: REPEATED")
    #expect(schema[13].structure?[3] == .int(0) && schema[13].structure?[1] == .int(6), "element: REQUIRED string")

    // One row group; its chunks end to end from byte 4 to the footer.
    let groups = try #require(meta[4]?.list)
    try #require(groups.count == 1)
    let group = try #require(groups[0].structure)
    #expect(group[3] == .int(3))
    let chunks = try #require(group[1]?.list).compactMap { $0.structure?[3]?.structure }
    try #require(chunks.count == 12)
    var next = 4
    for chunk in chunks {
      let start = chunk[11]?.int ?? chunk[9]?.int
      #expect(start == next, "chunk \(chunk[3]?.list?.first?.text ?? "?") starts where the last ended")
      next = (start ?? 0) + (chunk[7]?.int ?? 0)
      #expect(chunk[4] == .int(0), "UNCOMPRESSED")
      #expect(chunk[6] == chunk[7], "uncompressed: both sizes equal")
    }
    let footerLength = bytes.count - 8 - next
    #expect(footerLength > 0 && footerLength < 2000)
    #expect(chunks.map { $0[5]?.int } == Array(repeating: 3, count: 10) + [4, 3], "controllers: 4 levels for 3 rows")
    #expect(chunks[10][3]?.list?.compactMap(\.text) == ["controllers", "list", "element"])

    // session: dictionary ("S1") then indices; def levels all 1.
    let session = try Self.pages(bytes, chunks[0])
    try #require(session.count == 2)
    #expect(session[0].header[1] == .int(2) && session[0].header[7]?.structure?[1] == .int(1), "a dictionary of 1")
    #expect(session[0].body == [2, 0, 0, 0, 0x53, 0x31])
    #expect(session[1].header[5]?.structure?[2] == .int(2), "PLAIN_DICTIONARY data page")
    #expect(session[1].body == [2, 0, 0, 0, 0x03, 0x07] + [1, 0x03, 0x00], "levels 1,1,1; width 1; indices 0,0,0")
    #expect(chunks[0][2]?.list == [.int(2), .int(3)], "encodings PLAIN_DICTIONARY, RLE")

    // app: all null, no values, no dictionary.
    let app = try Self.pages(bytes, chunks[1])
    #expect(app.count == 1 && app[0].body == [2, 0, 0, 0, 0x03, 0x00])

    // column: null, 4, null.
    let columnPages = try Self.pages(bytes, chunks[5])
    #expect(columnPages.map(\.body) == [[2, 0, 0, 0, 0x03, 0x02] + [4, 0, 0, 0, 0, 0, 0, 0]])
    #expect(columnPages[0].header[5]?.structure?[1] == .int(3), "num_values counts the nulls")

    // controllers: repetition 0,1,0,0; definition 1,1,0,1; three distinct strings PLAIN.
    let controllers = try Self.pages(bytes, chunks[10])
    let strings: [UInt8] = [1, 0, 0, 0, 0x61, 3, 0, 0, 0, 0x62, 0x22, 0x63, 2, 0, 0, 0, 0xC3, 0xA9]
    #expect(controllers.map(\.body) == [[2, 0, 0, 0, 0x03, 0x02] + [2, 0, 0, 0, 0x03, 0x0B] + strings])
    #expect(controllers[0].header[5]?.structure?[2] == .int(0), "PLAIN")
  }

  @Test func timestampsAndJSONCarryTheirLogicalTypes() throws {
    let meta = try Self.footer(Self.file(.sessions, []))
    let schema = try #require(meta[2]?.list).compactMap(\.structure)
    let start = try #require(schema.first { $0[4]?.text == "start_time" })
    #expect(start[1] == .int(2) && start[6] == .int(10), "INT64, TIMESTAMP_MICROS")
    let timestamp = try #require(start[10]?.structure?[8]?.structure)
    #expect(timestamp[1] == .bool(true), "isAdjustedToUTC")
    #expect(timestamp[2]?.structure?[2] == .structure([:]), "unit MICROS")
    let json = try #require(schema.first { $0[4]?.text == "events_by_type" })
    #expect(json[1] == .int(6) && json[6] == .int(19) && json[10]?.structure?[12] == .structure([:]), "JSON")
    #expect(meta[3] == .int(0) && meta[4]?.list == [], "no rows: no row group")
  }

  @Test func gzipPagesAreGzipMembers() throws {
    let rows = Array(repeating: Self.findings, count: 50).flatMap { $0 }
    let plain = Self.file(.findings, rows)
    let bytes = Self.file(.findings, rows, compression: .gzip)
    let meta = try Self.footer(bytes)
    let chunks = try #require(meta[4]?.list?.first?.structure?[1]?.list).compactMap { $0.structure?[3]?.structure }
    for chunk in chunks {
      #expect(chunk[4] == .int(2), "GZIP")
      for page in try Self.pages(bytes, chunk) {
        #expect(Array(page.body.prefix(3)) == [0x1F, 0x8B, 0x08], "RFC 1952 header: magic, deflate")
        #expect(page.header[2] != page.header[3] || page.body.count < 30, "sizes before and after")
      }
    }
    #expect(bytes.count < plain.count)
  }

  @Test func rowGroupsAreCutWhenTheBufferIsFull() throws {
    let rows = Array(repeating: Self.findings, count: 200).flatMap { $0 }
    let meta = try Self.footer(Self.file(.findings, rows, rowGroupBytes: 1))
    let groups = try #require(meta[4]?.list).compactMap(\.structure)
    #expect(groups.map { $0[3]?.int } == [256, 256, 88], "checked every 256 rows")
    #expect(meta[3] == .int(600))
    #expect(groups.map { $0[7] } == [.int(0), .int(1), .int(2)], "ordinals")
  }

  /// The pages of a column chunk, from its first page to its end: header and stored body.
  static func pages(_ bytes: [UInt8], _ chunk: ThriftStruct) throws -> [(header: ThriftStruct, body: [UInt8])] {
    let start = try #require(chunk[11]?.int ?? chunk[9]?.int)
    let end = start + (try #require(chunk[7]?.int))
    var pages: [(ThriftStruct, [UInt8])] = []
    var offset = start
    while offset < end {
      var reader = CompactReader(bytes: bytes, at: offset)
      let header = try reader.readStruct()
      let size = try #require(header[3]?.int)
      pages.append((header, Array(bytes[reader.offset..<reader.offset + size])))
      offset = reader.offset + size
    }
    #expect(offset == end)
    return pages
  }
}

typealias ThriftStruct = [Int16: ThriftValue]

/// A value read by ``CompactReader``.
indirect enum ThriftValue: Equatable {
  case bool(Bool)
  case int(Int)
  case binary([UInt8])
  case list([ThriftValue])
  case structure(ThriftStruct)

  var int: Int? { if case .int(let v) = self { v } else { nil } }
  var list: [ThriftValue]? { if case .list(let v) = self { v } else { nil } }
  var structure: ThriftStruct? { if case .structure(let v) = self { v } else { nil } }
  var text: String? { if case .binary(let v) = self { String(decoding: v, as: UTF8.self) } else { nil } }
}

/// Reads the Thrift compact protocol (the types Parquet's footer uses).
struct CompactReader {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  let bytes: [UInt8]
  private(set) var offset: Int

  init(bytes: [UInt8], at offset: Int) {
    self.bytes = bytes
    self.offset = offset
  }

  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw Malformed(description: "past the end") }
    offset += 1
    return bytes[offset - 1]
  }

  mutating func varint() throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let b = try byte()
      value |= UInt64(b & 0x7F) << shift
      if b < 0x80 { return value }
      shift += 7
    }
  }

  mutating func zigzag() throws -> Int {
    let v = try varint()
    return Int(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1))
  }

  mutating func readStruct() throws -> ThriftStruct {
    var fields: ThriftStruct = [:]
    var last: Int16 = 0
    while true {
      let header = try byte()
      if header == 0 { return fields }
      let type = header & 0x0F
      let delta = Int16(header >> 4)
      let id = delta == 0 ? Int16(try zigzag()) : last + delta
      last = id
      fields[id] = try value(type)
    }
  }

  mutating func value(_ type: UInt8) throws -> ThriftValue {
    switch type {
    case 1: return .bool(true)
    case 2: return .bool(false)
    case 3: return .int(Int(Int8(bitPattern: try byte())))
    case 4, 5, 6: return .int(try zigzag())
    case 8:
      let n = Int(try varint())
      defer { offset += n }
      return .binary(Array(bytes[offset..<offset + n]))
    case 9:
      let header = try byte()
      var count = Int(header >> 4)
      if count == 15 { count = Int(try varint()) }
      var items: [ThriftValue] = []
      for _ in 0..<count { items.append(try value(header & 0x0F)) }
      return .list(items)
    case 12: return .structure(try readStruct())
    default: throw Malformed(description: "type \(type) at \(offset)")
    }
  }
}
