import Journal
import Projection

/// The values of one column in the row group being built, and how they become its column chunk.
///
/// Levels are kept one byte each (definition: 1 for a value, 0 for null; repetition for the
/// list column: 0 at a row's first element, 1 after), values PLAIN (booleans one byte each,
/// packed when the page is written) or, for strings, as dictionary indices.
struct ParquetColumn {
  let column: Column
  let type: ParquetType
  /// 1 for a nullable column and for the list column (whose elements are its one level), else 0.
  let maxDefinition: Int
  /// 1 for the list column, else 0.
  let maxRepetition: Int
  private(set) var definitions: [UInt8] = []
  private(set) var repetitions: [UInt8] = []
  /// PLAIN bytes of INT64 and DOUBLE values; one byte (0, 1) per BOOLEAN value.
  private(set) var fixed: [UInt8] = []
  private(set) var strings = StringValues()
  /// Levels written (one per row, or per element or empty list of the list column).
  private(set) var entries = 0

  init(_ column: Column) {
    self.column = column
    type = ParquetType(column.kind)
    maxRepetition = column.kind == .list ? 1 : 0
    maxDefinition = column.kind == .list || column.nullable ? 1 : 0
  }

  var bufferedBytes: Int { definitions.count + repetitions.count + fixed.count + strings.bufferedBytes }

  // MARK: Appending

  mutating func append(_ cell: Cell) {
    if column.kind == .list { return appendList(cell) }
    entries += 1
    if case .null = cell {
      precondition(maxDefinition == 1, "null in the required column \(column.name)")
      definitions.append(0)
      return
    }
    if maxDefinition == 1 { definitions.append(1) }
    switch (type, cell) {
    case (.byteArray, .string(let s)), (.byteArray, .json(let s)): strings.append(s)
    case (.int64, .integer(let v)): appendFixed(UInt64(bitPattern: Int64(v)))
    case (.int64, .timestamp(let t)): appendFixed(UInt64(bitPattern: t.microseconds))
    // -0 is 0, as the NDJSON and CSV writers spell it (adding 0 turns -0 into +0, nothing else).
    case (.double, .number(let v)): appendFixed((v + 0).bitPattern)
    case (.boolean, .boolean(let v)): fixed.append(v ? 1 : 0)
    default: preconditionFailure("\(cell) in the \(column.kind) column \(column.name)")
    }
  }

  /// Appends a string by its dictionary index (from ``lookUp(_:)`` in this row group).
  mutating func append(index: UInt32) {
    entries += 1
    if maxDefinition == 1 { definitions.append(1) }
    strings.append(index: index)
  }

  /// The dictionary index of a string value, nil once the column's strings are PLAIN.
  mutating func lookUp(_ value: String) -> UInt32? { strings.lookUp(value) }

  private mutating func appendFixed(_ bits: UInt64) {
    withUnsafeBytes(of: bits.littleEndian) { fixed.append(contentsOf: $0) }
  }

  /// A JSON array of strings: one level per element (an empty list: one level 0).
  private mutating func appendList(_ cell: Cell) {
    let elements: [String]
    switch cell {
    case .json(let text): elements = JSONStringArray.decode(text)
    case .null: elements = []
    default: preconditionFailure("\(cell) in the list column \(column.name)")
    }
    guard !elements.isEmpty else {
      entries += 1
      definitions.append(0)
      repetitions.append(0)
      return
    }
    for (i, element) in elements.enumerated() {
      entries += 1
      definitions.append(1)
      repetitions.append(i == 0 ? 0 : 1)
      strings.append(element)
    }
  }

  /// Empties it for the next row group.
  mutating func reset() {
    definitions.removeAll(keepingCapacity: true)
    repetitions.removeAll(keepingCapacity: true)
    fixed.removeAll(keepingCapacity: true)
    strings.reset()
    entries = 0
  }

  // MARK: Writing the column chunk

  /// The bytes a data page aims at before compression.
  static let pageBytes = 1 << 20

  /// Appends the column chunk (a dictionary page if the dictionary pays, then its data
  /// pages) to `out`, which starts at `offset` in the file, and returns its metadata.
  mutating func writeChunk(
    to out: inout [UInt8], offset: Int, compression: ParquetCompression
  ) -> ColumnChunkMetadata {
    var meta = ColumnChunkMetadata(
      type: type, path: column.kind == .list ? [column.name, "list", "element"] : [column.name],
      codec: compression, valueCount: entries)
    let useDictionary = type == .byteArray && strings.dictionaryPays
    if type == .byteArray && !useDictionary { strings.giveUpDictionary() }
    let start = out.count
    if useDictionary {
      meta.dictionaryPageOffset = offset + out.count - start
      writePage(.dictionary(count: strings.entryCount), body: strings.dictionary, compression, &meta, &out)
    }
    meta.dataPageOffset = offset + out.count - start
    meta.encodings = [useDictionary ? .plainDictionary : .plain, .rle]
    // Pages of whole rows: the list column (a few per finding) in one page.
    let pages = maxRepetition == 1 ? 1 : max(1, (bufferedBytes + Self.pageBytes - 1) / Self.pageBytes)
    let rowsPerPage = max(1, (entries + pages - 1) / pages)
    var entry = 0
    var value = 0
    var plainByte = 0
    var body: [UInt8] = []
    repeat {
      let end = maxRepetition == 1 ? entries : min(entries, entry + rowsPerPage)
      let levels = entry..<end
      body.removeAll(keepingCapacity: true)
      if maxRepetition == 1 { Self.appendLevels(repetitions[levels], to: &body) }
      var values = levels.count
      if maxDefinition == 1 {
        Self.appendLevels(definitions[levels], to: &body)
        values = definitions[levels].reduce(0) { $0 + Int($1) }
      }
      switch type {
      case .int64, .double:
        body.append(contentsOf: fixed[value * 8..<(value + values) * 8])
      case .boolean:
        Self.appendPackedBooleans(fixed[value..<value + values], to: &body)
      case .byteArray where useDictionary:
        let width = HybridEncoder.bitWidth(forMaximum: max(0, strings.entryCount - 1))
        body.append(UInt8(width))
        HybridEncoder.encode(strings.indices[value..<value + values], bitWidth: width, to: &body)
      case .byteArray:
        let plain = strings.plain
        var stop = plainByte
        for _ in 0..<values {
          let length =
            Int(plain[stop]) | Int(plain[stop + 1]) << 8 | Int(plain[stop + 2]) << 16 | Int(plain[stop + 3]) << 24
          stop += 4 + length
        }
        body.append(contentsOf: plain[plainByte..<stop])
        plainByte = stop
      }
      writePage(
        .data(count: levels.count, encoding: useDictionary ? .plainDictionary : .plain), body: body, compression,
        &meta, &out)
      entry = end
      value += values
    } while entry < entries
    return meta
  }

  /// Levels of a data page v1: a 4-byte little-endian length, then the RLE / bit-packed hybrid.
  static func appendLevels(_ levels: ArraySlice<UInt8>, to out: inout [UInt8]) {
    let lengthAt = out.count
    out.append(contentsOf: [0, 0, 0, 0])
    HybridEncoder.encode(levels, bitWidth: 1, to: &out)
    let length = UInt32(out.count - lengthAt - 4)
    for k in 0..<4 { out[lengthAt + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k))) }
  }

  /// PLAIN booleans: one bit each, least significant first.
  static func appendPackedBooleans(_ values: ArraySlice<UInt8>, to out: inout [UInt8]) {
    var byte: UInt8 = 0
    var bit: UInt8 = 0
    for value in values {
      byte |= value << bit
      bit += 1
      if bit == 8 {
        out.append(byte)
        (byte, bit) = (0, 0)
      }
    }
    if bit > 0 { out.append(byte) }
  }

  private func writePage(
    _ kind: PageKind, body: [UInt8], _ compression: ParquetCompression, _ meta: inout ColumnChunkMetadata,
    _ out: inout [UInt8]
  ) {
    let stored = compression == .gzip ? Gzip.compress(body) : body
    let header = PageHeader(kind: kind, uncompressedSize: body.count, compressedSize: stored.count).encoded
    out.append(contentsOf: header)
    out.append(contentsOf: stored)
    meta.uncompressedSize += header.count + body.count
    meta.compressedSize += header.count + stored.count
  }
}
