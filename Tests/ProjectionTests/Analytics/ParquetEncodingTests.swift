import Journal
import Testing

@testable import Projection
@testable import Rendering

/// The pieces of the Parquet writer: varints and zigzag, the Thrift compact protocol, the
/// RLE / bit-packed hybrid, the spooled row form and the list column's JSON. Whole files
/// are in `ParquetFileTests`; real readers read them in CI (.ci/parquet_interop.sh).
@Suite struct ParquetEncodingTests {
  struct VarintCase: CustomTestStringConvertible, Sendable {
    var value: UInt64
    var bytes: [UInt8]
    var testDescription: String { "\(value)" }
  }

  @Test(arguments: [
    VarintCase(value: 0, bytes: [0x00]), VarintCase(value: 1, bytes: [0x01]),
    VarintCase(value: 127, bytes: [0x7F]), VarintCase(value: 128, bytes: [0x80, 0x01]),
    VarintCase(value: 300, bytes: [0xAC, 0x02]), VarintCase(value: 16_384, bytes: [0x80, 0x80, 0x01]),
    VarintCase(value: UInt64.max, bytes: Array(repeating: 0xFF, count: 9) + [0x01]),
  ])
  func varintsAreULEB128(_ c: VarintCase) {
    var out: [UInt8] = []
    CompactWriter.appendVarint(c.value, to: &out)
    #expect(out == c.bytes)
  }

  @Test func zigzagFoldsTheSignIntoTheLowestBit() {
    let pairs: [(Int64, UInt64)] = [
      (0, 0), (-1, 1), (1, 2), (-2, 3), (2, 4), (-64, 127), (64, 128), (Int64.max, UInt64.max - 1), (Int64.min, .max),
    ]
    for (value, folded) in pairs { #expect(CompactWriter.zigzag(value) == folded, "\(value)") }
  }

  @Test func fieldHeadersUseDeltasUpTo15AndTheLongFormOtherwise() {
    var thrift = CompactWriter()
    thrift.beginStruct()
    thrift.field(1, i32: 7)  // delta 1, i32: 0x15, zigzag 14
    thrift.field(17, i64: -1)  // delta 16: type 0x06, then zigzag(17) = 34, value zigzag(-1) = 1
    thrift.field(3, bool: true)  // backwards: long form, type 1 (true), zigzag(3) = 6
    thrift.field(4, bool: false)  // delta 1, type 2 (false)
    thrift.field(5, string: "hé")  // 0x18, length 3, bytes
    thrift.field(6) { inner in
      inner.field(1, i16: -3)  // a nested struct counts its deltas from 0 again: 0x14, zigzag 5
    }
    thrift.field(7, i32: 300)  // back in the outer struct: delta 1 from 6
    thrift.endStruct()
    #expect(
      thrift.bytes == [
        0x15, 0x0E, 0x06, 0x22, 0x01, 0x01, 0x06, 0x12, 0x18, 0x03, 0x68, 0xC3, 0xA9, 0x1C, 0x14, 0x05, 0x00,
        0x15, 0xD8, 0x04, 0x00,
      ])
  }

  @Test func listHeadersCarryShortSizesInTheHighNibble() {
    var thrift = CompactWriter()
    thrift.beginStruct()
    thrift.field(1, list: .i32, count: 3) { list in for v: Int32 in [0, 1, -1] { list.i32(v) } }
    thrift.field(2, list: .binary, count: 15) { list in for _ in 0..<15 { list.string("") } }
    thrift.field(3, list: .structure, count: 1) { list in list.element { $0.field(1, i32: 1) } }
    thrift.endStruct()
    #expect(
      thrift.bytes
        == [0x19, 0x35, 0x00, 0x02, 0x01] + [0x19, 0xF8, 0x0F] + Array(repeating: 0, count: 15)
        + [0x19, 0x1C, 0x15, 0x02, 0x00, 0x00])
  }

  struct HybridCase: CustomTestStringConvertible, Sendable {
    var name: String
    var values: [UInt32]
    var bitWidth: Int
    var bytes: [UInt8]
    var testDescription: String { name }
  }

  @Test(arguments: [
    HybridCase(
      name: "a run of 8, then a short group", values: [1, 1, 1, 1, 1, 1, 1, 1, 0, 1], bitWidth: 1,
      bytes: [0x10, 0x01, 0x03, 0x02]),
    HybridCase(
      name: "100 zeros: one RLE run", values: Array(repeating: 0, count: 100), bitWidth: 1,
      bytes: [0xC8, 0x01, 0x00]),
    // Encodings.md's example: 0...7 in 3 bits.
    HybridCase(
      name: "0 to 7 bit-packed in 3 bits", values: Array(0...7), bitWidth: 3, bytes: [0x03, 0x88, 0xC6, 0xFA]),
    HybridCase(
      name: "a 9-bit value repeated takes 2 bytes", values: Array(repeating: 300, count: 9), bitWidth: 9,
      bytes: [0x12, 0x2C, 0x01]),
    HybridCase(
      name: "short runs stay bit-packed across groups", values: [0, 1, 0, 1, 0, 1, 0, 1, 1, 1], bitWidth: 1,
      bytes: [0x05, 0xAA, 0x03]),
    HybridCase(name: "nothing", values: [], bitWidth: 1, bytes: []),
  ])
  func hybridEncoding(_ c: HybridCase) {
    #expect(HybridEncoder.encode(c.values, bitWidth: c.bitWidth) == c.bytes)
  }

  @Test(arguments: [1, 2, 5, 17])
  func hybridEncodingRoundTrips(bitWidth: Int) {
    var random = SplitMix64(seed: UInt64(bitWidth))
    for _ in 0..<50 {
      var values: [UInt32] = []
      while values.count < 500 {
        let value = UInt32(random.next() % (1 << UInt64(bitWidth)))
        let run = random.next() % 4 == 0 ? Int(random.next() % 30) : 1
        values += repeatElement(value, count: run)
      }
      let encoded = HybridEncoder.encode(values, bitWidth: bitWidth)
      #expect(HybridDecoder.decode(encoded, bitWidth: bitWidth, count: values.count) == values)
    }
  }

  @Test func bitWidthsCoverTheLargestValue() {
    #expect(
      [0, 1, 2, 3, 4, 255, 256].map { HybridEncoder.bitWidth(forMaximum: $0) } == [1, 1, 2, 2, 3, 8, 9])
  }

  @Test func spooledRowsRoundTripAndWaitForTheirLastByte() throws {
    let row = TableRow([
      .null, .string("hé\n"), .integer(-5), .number(0.1), .boolean(true), .boolean(false),
      .timestamp(Timestamp(microseconds: 1_767_225_600_000_001)), .json(#"{"a":[1]}"#), .integer(Int.max),
    ])
    var bytes: [UInt8] = []
    row.appendSpooled(to: &bytes)
    row.appendSpooled(to: &bytes)
    var offset = 0
    let rows = bytes.withUnsafeBytes { all in
      var rows: [TableRow] = []
      while let row = TableRow.spooled(all, at: &offset) { rows.append(row) }
      return rows
    }
    #expect(rows == [row, row])
    #expect(offset == bytes.count)
    for cut in [1, 5, bytes.count / 2 - 1] {
      var at = 0
      let partial = bytes.prefix(cut).withUnsafeBytes { TableRow.spooled($0, at: &at) }
      #expect(partial == nil && at == 0, "cut at \(cut)")
    }
  }

  @Test func listCellsDecodeEveryEscape() {
    #expect(JSONStringArray.decode(#"[]"#) == [])
    #expect(
      JSONStringArray.decode(#"["a","b\"c","\\","\n\t\u0001","\ud83d\ude00","é"]"#) == [
        "a", "b\"c", "\\", "\n\t\u{01}", "😀", "é",
      ])
  }

  @Test func dictionaryIsKeptOnlyWhileItPays() {
    var repeated = StringValues()
    for i in 0..<1000 { repeated.append(["home", "notes", "compose"][i % 3]) }
    #expect(repeated.isDictionary && repeated.entryCount == 3 && repeated.dictionaryPays)
    #expect(repeated.indices.prefix(4) == [0, 1, 2, 0])

    var distinct = StringValues()
    for i in 0..<100 { distinct.append("id-\(i)") }
    #expect(distinct.isDictionary && !distinct.dictionaryPays, "every value once: PLAIN is smaller")

    var large = StringValues()
    var i = 0
    while large.isDictionary {
      large.append(String(repeating: "x", count: 1000) + "\(i)")
      i += 1
    }
    #expect(i > StringValues.dictionaryLimit / 1010, "given up past the limit only")
    #expect(large.count == i && large.plainSize == large.plain.count)
  }
}

/// A decoder of the hybrid, for the round-trip property only.
enum HybridDecoder {
  static func decode(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt32] {
    var values: [UInt32] = []
    var i = 0
    func varint() -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let byte = bytes[i]
        i += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }
    while values.count < count && i < bytes.count {
      let header = varint()
      if header & 1 == 0 {
        var value: UInt32 = 0
        for k in 0..<(bitWidth + 7) / 8 {
          value |= UInt32(bytes[i]) << (8 * UInt32(k))
          i += 1
        }
        values += repeatElement(value, count: Int(header >> 1))
      } else {
        let n = Int(header >> 1) * 8
        var buffer: UInt64 = 0
        var bits = 0
        for _ in 0..<n {
          while bits < bitWidth {
            buffer |= UInt64(bytes[i]) << UInt64(bits)
            i += 1
            bits += 8
          }
          values.append(UInt32(buffer & ((1 << UInt64(bitWidth)) - 1)))
          buffer >>= UInt64(bitWidth)
          bits -= bitWidth
        }
      }
    }
    return Array(values.prefix(count))
  }
}

/// -0 is written as 0, as the NDJSON and CSV writers spell it: one value in every format.
@Suite struct ParquetNegativeZeroTests {
  @Test func negativeZeroIsWrittenAsZero() {
    var column = ParquetColumn(Column("distance", .number, nullable: false))
    column.append(.number(-0.0))
    column.append(.number(-1.5))
    let expected =
      Array(withUnsafeBytes(of: (0.0).bitPattern.littleEndian, Array.init))
      + Array(withUnsafeBytes(of: (-1.5).bitPattern.littleEndian, Array.init))
    #expect(column.fixed == expected)
  }
}
