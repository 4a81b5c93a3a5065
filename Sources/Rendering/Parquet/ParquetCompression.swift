/// The codec of every page of a Parquet export (`export --compression`).
public enum ParquetCompression: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `UNCOMPRESSED`.
  case none
  /// `GZIP`: each page one gzip member (RFC 1952), deflated by the system zlib.
  case gzip

  public var description: String { rawValue }
}
