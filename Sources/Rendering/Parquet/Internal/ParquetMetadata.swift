import Projection

/// The physical types this writer uses (`Type` in `parquet.thrift`).
enum ParquetType: Int32 {
  case boolean = 0
  case int64 = 2
  case double = 5
  case byteArray = 6

  init(_ kind: Column.Kind) {
    switch kind {
    case .string, .json, .list: self = .byteArray
    case .integer, .timestamp: self = .int64
    case .number: self = .double
    case .boolean: self = .boolean
    }
  }
}

/// `Encoding` in `parquet.thrift`.
enum ParquetEncoding: Int32 {
  case plain = 0
  /// Dictionary pages and dictionary-encoded data pages, as Parquet 1.0 writes them.
  case plainDictionary = 2
  case rle = 3
}

/// `CompressionCodec` in `parquet.thrift`, of the codecs this writer has.
extension ParquetCompression {
  var codec: Int32 {
    switch self {
    case .none: 0
    case .gzip: 2
    }
  }
}

enum PageKind {
  case data(count: Int, encoding: ParquetEncoding)
  case dictionary(count: Int)
}

/// `PageHeader` with a `DataPageHeader` (type 0) or a `DictionaryPageHeader` (type 2).
struct PageHeader {
  var kind: PageKind
  var uncompressedSize: Int
  var compressedSize: Int

  var encoded: [UInt8] {
    var thrift = CompactWriter()
    thrift.beginStruct()
    switch kind {
    case .data(let count, let encoding):
      thrift.field(1, i32: 0)
      thrift.field(2, i32: Int32(uncompressedSize))
      thrift.field(3, i32: Int32(compressedSize))
      thrift.field(5) { page in
        page.field(1, i32: Int32(count))
        page.field(2, i32: encoding.rawValue)
        page.field(3, i32: ParquetEncoding.rle.rawValue)
        page.field(4, i32: ParquetEncoding.rle.rawValue)
      }
    case .dictionary(let count):
      thrift.field(1, i32: 2)
      thrift.field(2, i32: Int32(uncompressedSize))
      thrift.field(3, i32: Int32(compressedSize))
      thrift.field(7) { page in
        page.field(1, i32: Int32(count))
        page.field(2, i32: ParquetEncoding.plainDictionary.rawValue)
      }
    }
    thrift.endStruct()
    return thrift.bytes
  }
}

/// What the footer says of one column chunk (`ColumnChunk` and its `ColumnMetaData`).
struct ColumnChunkMetadata {
  var type: ParquetType
  var path: [String]
  var codec: ParquetCompression
  var valueCount: Int
  var encodings: [ParquetEncoding] = []
  var uncompressedSize = 0
  var compressedSize = 0
  var dataPageOffset = 0
  var dictionaryPageOffset: Int?

  /// The offset of the chunk's first page.
  var fileOffset: Int { dictionaryPageOffset ?? dataPageOffset }

  func write(to thrift: inout CompactWriter) {
    thrift.field(2, i64: Int64(fileOffset))
    thrift.field(3) { meta in
      meta.field(1, i32: type.rawValue)
      meta.field(2, list: .i32, count: encodings.count) { list in
        for encoding in encodings { list.i32(encoding.rawValue) }
      }
      meta.field(3, list: .binary, count: path.count) { list in
        for name in path { list.string(name) }
      }
      meta.field(4, i32: codec.codec)
      meta.field(5, i64: Int64(valueCount))
      meta.field(6, i64: Int64(uncompressedSize))
      meta.field(7, i64: Int64(compressedSize))
      meta.field(9, i64: Int64(dataPageOffset))
      if let dictionaryPageOffset { meta.field(11, i64: Int64(dictionaryPageOffset)) }
    }
  }
}

/// What the footer says of one row group.
struct RowGroupMetadata {
  var columns: [ColumnChunkMetadata]
  var rows: Int

  func write(to thrift: inout CompactWriter, ordinal: Int) {
    thrift.field(1, list: .structure, count: columns.count) { list in
      for column in columns { list.element { column.write(to: &$0) } }
    }
    thrift.field(2, i64: Int64(columns.reduce(0) { $0 + $1.uncompressedSize }))
    thrift.field(3, i64: Int64(rows))
    thrift.field(5, i64: Int64(columns.first?.fileOffset ?? 0))
    thrift.field(6, i64: Int64(columns.reduce(0) { $0 + $1.compressedSize }))
    thrift.field(7, i16: Int16(truncatingIfNeeded: ordinal))
  }
}

/// The schema: a root named `schema`, then one element per column; the list column is a
/// 3-level LIST (`controllers` → repeated group `list` → required string `element`).
enum ParquetSchema {
  /// `ConvertedType` and `LogicalType` ids of `parquet.thrift`.
  private static let utf8: Int32 = 0, listType: Int32 = 3, timestampMicros: Int32 = 10, json: Int32 = 19

  static func write(_ columns: [Column], to thrift: inout CompactWriter) {
    let count = columns.reduce(1) { $0 + ($1.kind == .list ? 3 : 1) }
    thrift.field(2, list: .structure, count: count) { list in
      list.element { root in
        root.field(4, string: "schema")
        root.field(5, i32: Int32(columns.count))
      }
      for column in columns { element(column, to: &list) }
    }
  }

  private static func element(_ column: Column, to list: inout CompactWriter) {
    let repetition: Int32 = column.nullable && column.kind != .list ? 1 : 0
    switch column.kind {
    case .list:
      list.element { group in
        group.field(3, i32: 0)
        group.field(4, string: column.name)
        group.field(5, i32: 1)
        group.field(6, i32: listType)
        group.field(10) { $0.field(3) { _ in } }
      }
      list.element { repeated in
        repeated.field(3, i32: 2)
        repeated.field(4, string: "list")
        repeated.field(5, i32: 1)
      }
      list.element { leaf in
        leaf.field(1, i32: ParquetType.byteArray.rawValue)
        leaf.field(3, i32: 0)
        leaf.field(4, string: "element")
        leaf.field(6, i32: utf8)
        leaf.field(10) { $0.field(1) { _ in } }
      }
    default:
      list.element { leaf in
        leaf.field(1, i32: ParquetType(column.kind).rawValue)
        leaf.field(3, i32: repetition)
        leaf.field(4, string: column.name)
        switch column.kind {
        case .string:
          leaf.field(6, i32: utf8)
          leaf.field(10) { $0.field(1) { _ in } }
        case .json:
          leaf.field(6, i32: json)
          leaf.field(10) { $0.field(12) { _ in } }
        case .timestamp:
          leaf.field(6, i32: timestampMicros)
          leaf.field(10) { logical in
            logical.field(8) { timestamp in
              timestamp.field(1, bool: true)
              timestamp.field(2) { $0.field(2) { _ in } }
            }
          }
        case .integer, .number, .boolean, .list:
          break
        }
      }
    }
  }
}
