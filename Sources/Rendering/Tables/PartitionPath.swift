import Projection

/// What `export --partition` files rows by: a value of the journal's header,
/// or the day its session started.
public enum PartitionKey: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case build, app, device, session
  /// The session's start day, UTC, `YYYY-MM-DD` (the day of the journal's first event).
  case date

  public var description: String { rawValue }

  /// The key's value for the rows of a journal; nil when the journal does not say.
  public func value(in context: RowContext) -> String? {
    switch self {
    case .build: context.build
    case .app: context.app
    case .device: context.device
    case .session: context.session
    case .date: context.startTime.map { String($0.rfc3339.prefix(10)) }
    }
  }
}

/// The Hive-style directory of one partition of an exported table:
/// `key=VALUE` for each partition key, the value made safe for a path.
///
/// Escaping follows Hive (`FileUtils.escapePathName`), which Spark, DuckDB and
/// BigQuery undo when they read a partitioned layout: each byte below 0x20,
/// 0x7F and each of `"` `#` `%` `'` `*` `/` `:` `=` `?` `\` `{` `[` `]` `^`
/// (and `~`, see below) is written `%XX` (two uppercase hex digits); every other byte, UTF-8
/// included, is kept. The `key=` prefix keeps a value such as `..` from
/// naming another directory. A missing value (a journal without a header, or
/// a header without that field) goes to Hive's null partition,
/// `key=__HIVE_DEFAULT_PARTITION__`.
///
/// Two kinds of value cannot be a folder name as they are, and get a stable
/// name of their own, the same in every export (the rows keep the value itself):
///
/// - the literal value `__HIVE_DEFAULT_PARTITION__` (which readers would take
///   for null) is written with its first byte escaped, `%5F_HIVE_DEFAULT_PARTITION__`,
///   which readers unescape to the value;
/// - a value longer than ``longestValue`` bytes once escaped (a file name has
///   at most 255 bytes) is cut to its first ``shortenedPrefix`` bytes (never
///   inside an escape or a UTF-8 sequence) followed by `~` and the 16 hex
///   digits of a 64-bit FNV-1a hash of the whole value. `~` is escaped (`%7E`)
///   in every other value, so a shortened name never equals another value's.
///
/// ```swift
/// PartitionPath.directory(session: "a/b:c")  // "session=a%2Fb%3Ac"
/// PartitionPath.directory([.build, .session], RowContext(session: "S1", build: "2.0", file: "a"))
/// // "build=2.0/session=S1"
/// ```
public enum PartitionPath {
  /// The partition value readers take for null.
  public static let nullValue = "__HIVE_DEFAULT_PARTITION__"

  /// `session=ESCAPED`.
  public static func directory(session: String?) -> String {
    directory([.session], RowContext(session: session, file: ""))
  }

  /// Escaped values longer than this many bytes are shortened.
  public static let longestValue = 128
  /// How many bytes of the escaped value a shortened name keeps before its hash.
  public static let shortenedPrefix = 64

  /// `key1=NAME/key2=NAME...`, one level per key, in the order given.
  public static func directory(_ keys: [PartitionKey], _ context: RowContext) -> String {
    keys.map { key in key.rawValue + "=" + folderName(key.value(in: context)) }.joined(separator: "/")
  }

  /// The folder name of a value: escaped, shortened when too long, null's name for nil
  /// (see the type's documentation).
  public static func folderName(_ value: String?) -> String {
    guard let value else { return nullValue }
    if value == nullValue { return "%5F" + nullValue.dropFirst() }
    let escaped = Array(escape(value).utf8)
    guard escaped.count > longestValue else { return String(decoding: escaped, as: UTF8.self) }
    var cut = shortenedPrefix
    // Not inside an escape (`%XX`) nor inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
    while cut > 0 && (escaped[cut - 1] == UInt8(ascii: "%") || (cut >= 2 && escaped[cut - 2] == UInt8(ascii: "%"))) {
      cut -= 1
    }
    while cut > 0 && escaped[cut] & 0xC0 == 0x80 { cut -= 1 }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in value.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    let digits = String(hash, radix: 16)
    return String(decoding: escaped[..<cut], as: UTF8.self) + "~" + String(repeating: "0", count: 16 - digits.count)
      + digits
  }

  /// The file of a partition inside its directory: `part.ndjson` or `part.csv`.
  public static func fileName(_ format: TableFormat) -> String { "part." + format.fileExtension }

  /// The value with Hive's path escaping (see the type's documentation).
  public static func escape(_ value: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(value.utf8.count)
    for byte in value.utf8 {
      if needsEscape(byte) {
        out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Undoes ``escape(_:)``: every `%XX` becomes its byte.
  public static func unescape(_ value: String) -> String {
    let bytes = Array(value.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hexValue(bytes[i + 1]),
        let low = hexValue(bytes[i + 2])
      {
        out.append(high << 4 | low)
        i += 3
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func needsEscape(_ byte: UInt8) -> Bool {
    if byte < 0x20 || byte == 0x7F { return true }
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "'"), UInt8(ascii: "*"),
      UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "\\"),
      UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
