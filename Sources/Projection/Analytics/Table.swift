/// The tables `export` writes: one row per event, visit, move, pan, finding or session.
///
/// Every table starts with the four ``commonColumns`` (`session`, `app`,
/// `build`, `file`), then its own columns, in a fixed order that is the key
/// order of NDJSON rows and the column order of CSV. `docs/tables.md` lists
/// every column with its type and meaning; ``columns`` is the same list in code, without the words.
///
/// ```swift
/// Table.visits.columns.map(\.name)
/// // ["session", "app", "build", "file", "controller", "class", "visit", ...]
/// ```
public enum Table: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case events, visits, moves, pans, findings, sessions, paths

  public var description: String { rawValue }

  /// The columns every table starts with.
  public static let commonColumns: [Column] = [
    Column("session", .string, nullable: true),
    Column("app", .string, nullable: true),
    Column("build", .string, nullable: true),
    Column("file", .string, nullable: false),
  ]

  /// The table's own columns, after the common ones.
  public var ownColumns: [Column] {
    switch self {
    case .events: Self.eventColumns
    case .visits: Self.visitColumns
    case .moves: Self.moveColumns
    case .pans: Self.panColumns
    case .findings: Self.findingColumns
    case .sessions: Self.sessionColumns
    case .paths: Self.pathColumns
    }
  }

  /// Every column, the common ones first.
  public var columns: [Column] { Self.commonColumns + ownColumns }

  static let eventColumns: [Column] = [
    Column("line", .integer, nullable: false),
    Column("seq", .integer, nullable: false),
    Column("time", .timestamp, nullable: false),
    Column("type", .string, nullable: false),
    Column("controller", .string, nullable: true),
    Column("class", .string, nullable: true),
    Column("from", .string, nullable: true),
    Column("to", .string, nullable: true),
    Column("direction", .string, nullable: true),
    Column("presenter", .string, nullable: true),
    Column("callback", .string, nullable: true),
    Column("trigger", .string, nullable: true),
    Column("animated", .boolean, nullable: true),
    Column("touches", .integer, nullable: true),
    Column("min", .integer, nullable: true),
    Column("distance", .number, nullable: true),
    Column("velocity", .number, nullable: true),
    Column("outcome", .string, nullable: true),
    Column("label", .string, nullable: true),
    Column("v", .integer, nullable: true),
    Column("device", .string, nullable: true),
    Column("profile", .string, nullable: true),
    Column("scenario", .string, nullable: true),
    Column("extra", .json, nullable: true),
  ]

  static let visitColumns: [Column] = [
    Column("controller", .string, nullable: false),
    Column("class", .string, nullable: true),
    Column("visit", .integer, nullable: false),
    Column("start_seq", .integer, nullable: false),
    Column("start_time", .timestamp, nullable: false),
    Column("end_seq", .integer, nullable: true),
    Column("end_time", .timestamp, nullable: false),
    Column("dwell_ms", .number, nullable: false),
    Column("open", .boolean, nullable: false),
    Column("complete", .boolean, nullable: false),
  ]

  static let moveColumns: [Column] = [
    Column("line", .integer, nullable: false),
    Column("seq", .integer, nullable: false),
    Column("time", .timestamp, nullable: false),
    Column("from", .string, nullable: false),
    Column("to", .string, nullable: false),
    Column("direction", .string, nullable: false),
    Column("trigger", .string, nullable: false),
    Column("animated", .boolean, nullable: false),
    Column("completed", .boolean, nullable: false),
    Column("duration_ms", .number, nullable: true),
    Column("from_class", .string, nullable: true),
    Column("to_class", .string, nullable: true),
  ]

  static let pathColumns: [Column] = [
    Column("line", .integer, nullable: false),
    Column("seq", .integer, nullable: false),
    Column("time", .timestamp, nullable: false),
    Column("step", .integer, nullable: false),
    Column("controller", .string, nullable: false),
    Column("class", .string, nullable: true),
    Column("previous", .string, nullable: true),
    Column("previous_class", .string, nullable: true),
    Column("trigger", .string, nullable: true),
  ]

  static let panColumns: [Column] = [
    Column("line", .integer, nullable: false),
    Column("seq", .integer, nullable: false),
    Column("time", .timestamp, nullable: false),
    Column("controller", .string, nullable: false),
    Column("direction", .string, nullable: false),
    Column("touches", .integer, nullable: false),
    Column("min_touches", .integer, nullable: true),
    Column("distance", .number, nullable: false),
    Column("velocity", .number, nullable: false),
    Column("outcome", .string, nullable: false),
    Column("target", .string, nullable: true),
  ]

  static let findingColumns: [Column] = [
    Column("line", .integer, nullable: false),
    Column("column", .integer, nullable: true),
    Column("seq", .integer, nullable: true),
    Column("rule", .string, nullable: false),
    Column("severity", .string, nullable: false),
    Column("message", .string, nullable: false),
    Column("controllers", .list, nullable: false),
    Column("move_seq", .integer, nullable: true),
  ]

  static let sessionColumns: [Column] = [
    Column("device", .string, nullable: true),
    Column("profile", .string, nullable: true),
    Column("scenario", .string, nullable: true),
    Column("start_time", .timestamp, nullable: true),
    Column("end_time", .timestamp, nullable: true),
    Column("duration_ms", .number, nullable: false),
    Column("events", .integer, nullable: false),
    Column("events_by_type", .json, nullable: false),
    Column("findings", .integer, nullable: false),
    Column("errors", .integer, nullable: false),
    Column("warnings", .integer, nullable: false),
    Column("findings_by_rule", .json, nullable: false),
  ]
}

/// One column of a ``Table``: its name, type and whether it may be null (what it means is said once, in
/// docs/tables.md).
public struct Column: Sendable, Hashable {
  /// The types a column may have (docs/tables.md shows how each is written in NDJSON and CSV).
  public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A JSON string; ids are always strings.
    case string
    /// A whole number, written without a fraction.
    case integer
    /// A floating-point number, always written with a `.` or an exponent (`250.0`, `0.5`, `1e+21`),
    /// so that readers infer a floating type even when every value is whole.
    case number
    /// `true` or `false`.
    case boolean
    /// An RFC 3339 UTC time with exactly 6 fractional digits and `Z`: `2026-11-29T10:23:12.521000Z`.
    case timestamp
    /// A JSON object in NDJSON; its JSON text in CSV.
    case json
    /// A JSON array of strings in NDJSON; its JSON text in CSV.
    case list

    public var description: String { rawValue }
  }

  public var name: String
  public var kind: Kind
  public var nullable: Bool

  public init(_ name: String, _ kind: Kind, nullable: Bool) {
    self.name = name
    self.kind = kind
    self.nullable = nullable
  }
}
