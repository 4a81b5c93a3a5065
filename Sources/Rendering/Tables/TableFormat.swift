import Projection

/// How `export` writes a table.
public enum TableFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// One JSON object per line, every column present (null included), keys in column order.
  case ndjson
  /// RFC 4180: a header line, CRLF line ends, fields quoted when they hold `,`, `"`, CR or LF
  /// (a `"` doubled inside), an empty field for null and `""` for an empty string.
  case csv
  /// Apache Parquet, written by ``ParquetWriter`` (rows reach it through ``TableEncoder``
  /// only in their spooled form, ``TableRow/appendSpooled(to:)``).
  case parquet

  public var description: String { rawValue }

  /// The file extension, without the dot.
  public var fileExtension: String { rawValue }
}
