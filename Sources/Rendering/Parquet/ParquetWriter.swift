import Journal
import Projection

/// Writes the rows of one ``Table`` as a Parquet file, one row group at a time.
///
/// The file is Parquet 1.0: `PAR1`, the row groups (in each, one column chunk per column:
/// a dictionary page when the column's strings are dictionary-encoded, then data pages
/// (v1) of about 1 MiB), and the footer, a Thrift compact-protocol `FileMetaData`, its
/// length and `PAR1`. Values are PLAIN, strings dictionary-encoded while that is smaller;
/// nulls are definition levels and the list column's elements repetition levels (both in
/// the RLE / bit-packed hybrid). docs/tables.md gives the types of each column kind.
///
/// Rows are held column by column until ``bufferedBytes`` reaches the row group's size, so
/// memory is one row group, whatever the table's length. The writer does no I/O: it
/// appends the file's bytes to the buffer it is given, in order.
///
/// ```swift
/// var writer = ParquetWriter(table: .visits, compression: .gzip)
/// var out: [UInt8] = []
/// writer.context = RowContext(session: "S1", file: "a.ndjson")
/// writer.append(row)
/// if writer.isRowGroupFull { writer.writeRowGroup(to: &out) }  // then write out, empty it
/// writer.finish(to: &out)
/// ```
public struct ParquetWriter {
  /// Buffered bytes at which a row group is written: about 32 MiB before compression
  /// (readers take row groups of tens of MB best; this is the writer's memory).
  public static let defaultRowGroupBytes = 32 << 20

  public let table: Table
  public let compression: ParquetCompression
  public let rowGroupBytes: Int
  /// The common columns of the rows that follow.
  public var context: RowContext {
    didSet {
      guard context != oldValue else { return }
      contextCells = context.cells
      contextIndices = Array(repeating: nil, count: contextCells.count)
    }
  }
  private var contextCells: [Cell]
  /// The dictionary index of each common column's value in this row group, once looked up.
  private var contextIndices: [UInt32?]
  private var columns: [ParquetColumn]
  private var rowGroups: [RowGroupMetadata] = []
  private var rows = 0
  /// Bytes given out so far: the offset in the file of the next byte.
  public private(set) var offset = 0
  private var rowsSinceSizeCheck = 0
  private var sizeAtLastCheck = 0
  /// Bytes of the text cells appended since the sizes were last added up.
  private var textSinceSizeCheck = 0

  /// - Parameters:
  ///   - table: the table whose rows are written (its ``Table/columns`` are the file's).
  ///   - compression: the codec of every page.
  ///   - rowGroupBytes: buffered bytes at which ``isRowGroupFull`` becomes true.
  public init(
    table: Table, compression: ParquetCompression = .none, rowGroupBytes: Int = Self.defaultRowGroupBytes,
    context: RowContext = RowContext(file: "")
  ) {
    self.table = table
    self.compression = compression
    self.rowGroupBytes = rowGroupBytes
    self.context = context
    contextCells = context.cells
    contextIndices = Array(repeating: nil, count: contextCells.count)
    columns = table.columns.map(ParquetColumn.init)
  }

  /// Bytes held for the current row group (values, indices, dictionaries, levels).
  public var bufferedBytes: Int { columns.reduce(0) { $0 + $1.bufferedBytes } }

  /// Whether the current row group has reached ``rowGroupBytes``.
  ///
  /// Implementation note: the columns' sizes are added up every 256 rows, or sooner once
  /// the rows' own texts reach a sixteenth of ``rowGroupBytes`` (at least 1 MiB; 256 rows of 1 MB
  /// texts made row groups of 256 MB).
  public var isRowGroupFull: Bool { sizeAtLastCheck >= rowGroupBytes }

  /// Adds a row (its own cells; the common ones are ``context``'s).
  public mutating func append(_ row: TableRow) {
    let common = contextCells.count
    precondition(
      row.cells.count + common == columns.count,
      "a \(table) row has \(columns.count - common) cells, got \(row.cells.count)")
    for i in 0..<common {
      if let index = contextIndices[i] {
        columns[i].append(index: index)
      } else if case .string(let value) = contextCells[i], let index = columns[i].lookUp(value) {
        contextIndices[i] = index
        columns[i].append(index: index)
      } else {
        columns[i].append(contextCells[i])
      }
    }
    for (i, cell) in row.cells.enumerated() {
      switch cell {
      case .string(let text), .json(let text): textSinceSizeCheck += text.utf8.count
      default: break
      }
      columns[common + i].append(cell)
    }
    rows += 1
    rowsSinceSizeCheck += 1
    if rowsSinceSizeCheck >= 256 || textSinceSizeCheck >= max(1 << 20, rowGroupBytes / 16) {
      rowsSinceSizeCheck = 0
      textSinceSizeCheck = 0
      sizeAtLastCheck = bufferedBytes
    }
  }

  /// Appends the file's first bytes, `PAR1`, if nothing was given out yet.
  private mutating func begin(_ out: inout [UInt8]) {
    guard offset == 0 else { return }
    out.append(contentsOf: Self.magic)
    offset = Self.magic.count
  }

  /// Appends the buffered rows as one row group (nothing without rows) and empties the buffer.
  public mutating func writeRowGroup(to out: inout [UInt8]) {
    begin(&out)
    guard rows > 0 else { return }
    var chunks: [ColumnChunkMetadata] = []
    chunks.reserveCapacity(columns.count)
    for i in columns.indices {
      let start = out.count
      chunks.append(columns[i].writeChunk(to: &out, offset: offset, compression: compression))
      offset += out.count - start
      columns[i].reset()
    }
    rowGroups.append(RowGroupMetadata(columns: chunks, rows: rows))
    rows = 0
    rowsSinceSizeCheck = 0
    textSinceSizeCheck = 0
    sizeAtLastCheck = 0
    contextIndices = Array(repeating: nil, count: contextCells.count)
  }

  /// Appends the last row group and the footer: the file is complete.
  public mutating func finish(to out: inout [UInt8]) {
    writeRowGroup(to: &out)
    let footer = footerBytes
    out.append(contentsOf: footer)
    let length = UInt32(footer.count)
    for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(k)))) }
    out.append(contentsOf: Self.magic)
    offset += footer.count + 8
  }

  /// The `FileMetaData` of the row groups written.
  var footerBytes: [UInt8] {
    var thrift = CompactWriter()
    thrift.beginStruct()
    thrift.field(1, i32: 1)
    ParquetSchema.write(table.columns, to: &thrift)
    thrift.field(3, i64: Int64(rowGroups.reduce(0) { $0 + $1.rows }))
    thrift.field(4, list: .structure, count: rowGroups.count) { list in
      for (i, group) in rowGroups.enumerated() { list.element { group.write(to: &$0, ordinal: i) } }
    }
    thrift.field(6, string: Self.createdBy)
    thrift.endStruct()
    return thrift.bytes
  }

  static let magic: [UInt8] = Array("PAR1".utf8)
  /// The footer's `created_by`.
  static let createdBy = "spatial-replay"
}
