import Journal
import Projection

/// Encodes rows of one table into NDJSON or CSV bytes (for Parquet, into the spooled form
/// that the ``ParquetWriter`` of the output reads back).
///
/// The common columns of a journal are encoded once, when its ``RowContext``
/// is set, and copied in front of each of its rows.
///
/// ```swift
/// var encoder = TableEncoder(table: .visits, format: .csv)
/// var out: [UInt8] = []
/// encoder.appendHeader(to: &out)  // session,app,build,file,controller,...\r\n
/// encoder.context = RowContext(session: "S1", file: "a.ndjson")
/// encoder.append(row, to: &out)
/// ```
public struct TableEncoder: Sendable {
  public let table: Table
  public let format: TableFormat
  /// The common columns of the rows that follow.
  public var context: RowContext {
    didSet { prefix = Self.encodePrefix(context, format: format, guard: guardsFormulas) }
  }
  private var prefix: [UInt8]
  /// `,"name":` for each own column (NDJSON).
  private let keys: [[UInt8]]
  /// `,"name":null` for each own column (NDJSON): most cells of a wide row are null.
  private let nullKeys: [[UInt8]]

  /// Whether a CSV text cell that a spreadsheet would run as a formula (it starts with `=`, `+`,
  /// `-`, `@`, a tab or CR) is written as text, `'` before it (OWASP's advice for CSV injection).
  public let guardsFormulas: Bool

  public init(
    table: Table, format: TableFormat, context: RowContext = RowContext(file: ""), guardsFormulas: Bool = true
  ) {
    self.table = table
    self.format = format
    self.context = context
    self.guardsFormulas = guardsFormulas
    self.prefix = Self.encodePrefix(context, format: format, guard: guardsFormulas)
    self.keys = table.ownColumns.map { column in
      var key: [UInt8] = [UInt8(ascii: ",")]
      JSONWriter.appendString(column.name, to: &key)
      key.append(UInt8(ascii: ":"))
      return key
    }
    self.nullKeys = keys.map { $0 + Self.nullBytes }
  }

  /// The CSV header line (nothing for NDJSON).
  public func appendHeader(to out: inout [UInt8]) {
    guard format == .csv else { return }
    for (i, column) in table.columns.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      Self.appendCSVField(bytes: Array(column.name.utf8), to: &out)
    }
    out.append(contentsOf: [0x0D, 0x0A])
  }

  /// Appends one row and its line end.
  public func append(_ row: TableRow, to out: inout [UInt8]) {
    precondition(row.cells.count == keys.count, "a \(table) row has \(keys.count) cells, got \(row.cells.count)")
    out.append(contentsOf: prefix)
    switch format {
    case .ndjson:
      for (i, cell) in row.cells.enumerated() {
        if case .null = cell {
          out.append(contentsOf: nullKeys[i])
        } else {
          out.append(contentsOf: keys[i])
          Self.appendJSON(cell, to: &out)
        }
      }
      out.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
    case .csv:
      for cell in row.cells {
        out.append(UInt8(ascii: ","))
        Self.appendCSV(cell, guardingFormulas: guardsFormulas, to: &out)
      }
      out.append(contentsOf: [0x0D, 0x0A])
    case .parquet:
      row.appendSpooled(to: &out)
    }
  }

  /// The encoded common columns: `{"session":…,"file":…` or `S1,,,a.ndjson`.
  private static func encodePrefix(_ context: RowContext, format: TableFormat, guard guards: Bool) -> [UInt8] {
    var out: [UInt8] = []
    switch format {
    case .ndjson:
      out.append(UInt8(ascii: "{"))
      for (i, (column, cell)) in zip(Table.commonColumns, context.cells).enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendString(column.name, to: &out)
        out.append(UInt8(ascii: ":"))
        appendJSON(cell, to: &out)
      }
    case .csv:
      for (i, cell) in context.cells.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        appendCSV(cell, guardingFormulas: guards, to: &out)
      }
    case .parquet:
      break
    }
    return out
  }

  // MARK: Values

  /// Appends a cell as a JSON value.
  static func appendJSON(_ cell: Cell, to out: inout [UInt8]) {
    switch cell {
    case .null: appendNull(to: &out)
    case .string(let s): JSONWriter.appendString(s, to: &out)
    // A JSON cell is an array or object in NDJSON (CSV carries its text).
    case .json(let s): out.append(contentsOf: s.utf8)
    case .integer(let v): JSONWriter.appendInt(v, to: &out)
    case .number(let v): appendNumber(v, to: &out)
    case .boolean(let v): out.append(contentsOf: v ? trueBytes : falseBytes)
    case .timestamp(let t):
      out.append(UInt8(ascii: "\""))
      t.appendRFC3339(to: &out)
      out.append(UInt8(ascii: "\""))
    }
  }

  /// Appends a cell as one CSV field (a text cell guarded against formulas unless told otherwise).
  static func appendCSV(_ cell: Cell, guardingFormulas: Bool = true, to out: inout [UInt8]) {
    switch cell {
    case .null: break
    case .string(let s), .json(let s):
      var s = s
      s.withUTF8 { appendCSVField(bytes: UnsafeRawBufferPointer($0), guardingFormulas: guardingFormulas, to: &out) }
    case .integer(let v): JSONWriter.appendInt(v, to: &out)
    case .number(let v): if v.isFinite { appendNumber(v, to: &out) }
    case .boolean(let v): out.append(contentsOf: v ? trueBytes : falseBytes)
    case .timestamp(let t): t.appendRFC3339(to: &out)
    }
  }

  /// A number with a `.` or an exponent: `250.0`, `0.001`, `1e+21`; null when not finite.
  public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
    guard value.isFinite else { return appendNull(to: &out) }
    let start = out.count
    JSONWriter.appendNumber(value, to: &out)
    for byte in out[start...] where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") { return }
    out.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
  }

  /// The one CSV field writer (RFC 4180): quoted when it is empty or holds `,`, `"`, CR or LF
  /// (bytes, so a CR LF pair is seen too), with `"` doubled. With `guardingFormulas`, a field a
  /// spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or CR) is
  /// written quoted with `'` before it, as OWASP advises against CSV injection.
  public static func appendCSVField(bytes: some Collection<UInt8>, guardingFormulas: Bool = true, to out: inout [UInt8])
  {
    let formula = guardingFormulas && bytes.first.map { Self.formulaStarts.contains($0) } == true
    var needsQuotes = bytes.isEmpty || formula
    for byte in bytes where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
      needsQuotes = true
      break
    }
    guard needsQuotes else {
      out.append(contentsOf: bytes)
      return
    }
    out.append(UInt8(ascii: "\""))
    if formula { out.append(UInt8(ascii: "'")) }
    for byte in bytes {
      if byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\"")) }
      out.append(byte)
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `text` as one CSV field, through ``appendCSVField(bytes:guardingFormulas:to:)``.
  public static func csvField(_ text: String, guardingFormulas: Bool = true) -> String {
    var out: [UInt8] = []
    appendCSVField(bytes: Array(text.utf8), guardingFormulas: guardingFormulas, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The first bytes that make a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, TAB, CR.
  private static let formulaStarts: Set<UInt8> = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]

  private static func appendNull(to out: inout [UInt8]) { out.append(contentsOf: nullBytes) }
  private static let nullBytes: [UInt8] = Array("null".utf8)
  private static let trueBytes: [UInt8] = Array("true".utf8)
  private static let falseBytes: [UInt8] = Array("false".utf8)
}
