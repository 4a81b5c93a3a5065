/// The tables `export` writes: one row per event, visit, move, pan, finding or session.
///
/// Every table starts with the four ``commonColumns`` (`session`, `app`,
/// `build`, `file`), then its own columns, in a fixed order that is the key
/// order of NDJSON rows and the column order of CSV. `docs/tables.md` lists
/// every column with its type and meaning; ``columns`` is the same list in code.
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
    Column("session", .string, nullable: true, "the session id of the journal's header (null without a header)"),
    Column("app", .string, nullable: true, "the header's app (null when absent)"),
    Column("build", .string, nullable: true, "the header's build (null when absent)"),
    Column("file", .string, nullable: false, "the journal's path as given on the command line (`-`: standard input)"),
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
    Column("line", .integer, nullable: false, "1-based line of the event in the journal"),
    Column("seq", .integer, nullable: false, "the event's `seq`"),
    Column("time", .timestamp, nullable: false, "the event's `time`"),
    Column("type", .string, nullable: false, "the event's `type`, unknown types included"),
    Column(
      "controller", .string, nullable: true, "`controller` of alloc, root, modal, touches, pan, lifecycle, dealloc"),
    Column("class", .string, nullable: true, "`class` of alloc"),
    Column("from", .string, nullable: true, "`from` of link, unlink, move"),
    Column("to", .string, nullable: true, "`to` of link, move"),
    Column("direction", .string, nullable: true, "`direction` of link, unlink, touches, pan, move"),
    Column("presenter", .string, nullable: true, "`presenter` of modal"),
    Column("callback", .string, nullable: true, "`callback` of lifecycle"),
    Column("trigger", .string, nullable: true, "`trigger` of move"),
    Column("animated", .boolean, nullable: true, "`animated` of move"),
    Column("touches", .integer, nullable: true, "`touches` of pan"),
    Column("min", .integer, nullable: true, "`min` of touches"),
    Column("distance", .number, nullable: true, "`distance` of pan, in points"),
    Column("velocity", .number, nullable: true, "`velocity` of pan, in points per second"),
    Column("outcome", .string, nullable: true, "`outcome` of pan"),
    Column("label", .string, nullable: true, "`label` of mark"),
    Column("v", .integer, nullable: true, "`v` of session (the format version)"),
    Column("device", .string, nullable: true, "`device` of session"),
    Column("profile", .string, nullable: true, "`profile` of session"),
    Column("scenario", .string, nullable: true, "`scenario` of session"),
    Column(
      "extra", .json, nullable: true,
      "every other key of the line as a JSON object, keys in line order and values verbatim: a mark's keys after "
        + "`label`, the keys of an unknown type, unknown keys of known types; null when there are none"),
  ]

  static let visitColumns: [Column] = [
    Column("controller", .string, nullable: false, "the controller visited"),
    Column("class", .string, nullable: true, "its class (from its alloc; null if it was never allocated)"),
    Column("visit", .integer, nullable: false, "1 for the controller's first visit in the session, then 2, 3..."),
    Column(
      "start_seq", .integer, nullable: false,
      "`seq` of the didAppear that started the visit (of the willAppear, for an incomplete visit)"),
    Column("start_time", .timestamp, nullable: false, "time of that didAppear (or willAppear)"),
    Column(
      "end_seq", .integer, nullable: true,
      "`seq` of the willDisappear (or dealloc) that ended it; null for a visit still open at the end"),
    Column(
      "end_time", .timestamp, nullable: false,
      "time of the event that ended it; for an open visit, the time of the journal's last event"),
    Column("dwell_ms", .number, nullable: false, "end_time - start_time in milliseconds"),
    Column("open", .boolean, nullable: false, "true when the visit had not ended by the end of the journal"),
    Column(
      "complete", .boolean, nullable: false,
      "false when didAppear never came: the visit counts from its willAppear"),
  ]

  static let moveColumns: [Column] = [
    Column("line", .integer, nullable: false, "1-based line of the move in the journal"),
    Column("seq", .integer, nullable: false, "`seq` of the move"),
    Column("time", .timestamp, nullable: false, "time of the move"),
    Column("from", .string, nullable: false, "the controller left"),
    Column("to", .string, nullable: false, "the controller entered"),
    Column("direction", .string, nullable: false, "left, right, up or down"),
    Column("trigger", .string, nullable: false, "programmatic, pan, fling or goToRoot"),
    Column("animated", .boolean, nullable: false, "whether the move was animated"),
    Column(
      "completed", .boolean, nullable: false,
      "whether all four callbacks (from.willDisappear, to.willAppear, from.didDisappear, to.didAppear) arrived "
        + "before the next move or the end of the journal"),
    Column(
      "duration_ms", .number, nullable: true,
      "milliseconds from the move to the last of its four callbacks; null when not completed"),
    Column("from_class", .string, nullable: true, "the class of `from` (from its alloc; null if never allocated)"),
    Column("to_class", .string, nullable: true, "the class of `to` (from its alloc; null if never allocated)"),
  ]

  static let pathColumns: [Column] = [
    Column("line", .integer, nullable: false, "1-based line of the event that changed the focus"),
    Column("seq", .integer, nullable: false, "`seq` of that event: the initial `root`, or a `move`"),
    Column("time", .timestamp, nullable: false, "its time"),
    Column("step", .integer, nullable: false, "1 for the initial display, then 2, 3... in the session"),
    Column("controller", .string, nullable: false, "the new focus"),
    Column("class", .string, nullable: true, "its class (from its alloc)"),
    Column("previous", .string, nullable: true, "the focus before it; null for the initial display"),
    Column("previous_class", .string, nullable: true, "the class of `previous`"),
    Column("trigger", .string, nullable: true, "the move's trigger; null for the initial display"),
  ]

  static let panColumns: [Column] = [
    Column("line", .integer, nullable: false, "1-based line of the pan in the journal"),
    Column("seq", .integer, nullable: false, "`seq` of the pan"),
    Column("time", .timestamp, nullable: false, "time of the pan"),
    Column("controller", .string, nullable: false, "the controller panned (the focus)"),
    Column("direction", .string, nullable: false, "left, right, up or down"),
    Column("touches", .integer, nullable: false, "fingers used"),
    Column(
      "min_touches", .integer, nullable: true,
      "fingers the controller needed in that direction at that moment (null if the controller is unknown)"),
    Column("distance", .number, nullable: false, "distance in points"),
    Column("velocity", .number, nullable: false, "velocity in points per second"),
    Column("outcome", .string, nullable: false, "committed, snapBack, blocked, refused or cancelled"),
    Column("target", .string, nullable: true, "the neighbour in that direction at that moment; null when none"),
  ]

  static let findingColumns: [Column] = [
    Column("line", .integer, nullable: false, "1-based line the finding is about"),
    Column("column", .integer, nullable: true, "1-based byte column in the line, for decoding errors"),
    Column("seq", .integer, nullable: true, "`seq` of the event, when the line decoded"),
    Column("rule", .string, nullable: false, "the rule id, e.g. `seq-gap`, `modal-leak`"),
    Column("severity", .string, nullable: false, "`error` or `warning`"),
    Column("message", .string, nullable: false, "what was found, as `check` prints it"),
    Column("controllers", .list, nullable: false, "the controllers involved"),
    Column("move_seq", .integer, nullable: true, "`seq` of the move or initial display it happened in"),
  ]

  static let sessionColumns: [Column] = [
    Column("device", .string, nullable: true, "the header's device (null when absent)"),
    Column("profile", .string, nullable: true, "the header's profile (null when absent)"),
    Column("scenario", .string, nullable: true, "the header's scenario (null when absent)"),
    Column("start_time", .timestamp, nullable: true, "time of the journal's first event (null without events)"),
    Column("end_time", .timestamp, nullable: true, "time of its last event (null without events)"),
    Column("duration_ms", .number, nullable: false, "end_time - start_time in milliseconds (0 without events)"),
    Column("events", .integer, nullable: false, "events decoded"),
    Column(
      "events_by_type", .json, nullable: false,
      "type → count: the 12 known types in the format's order (zeros included), then unknown types by name"),
    Column("findings", .integer, nullable: false, "findings of `check` (the rows of the `findings` table)"),
    Column("errors", .integer, nullable: false, "findings of severity `error`"),
    Column("warnings", .integer, nullable: false, "findings of severity `warning`"),
    Column(
      "findings_by_rule", .json, nullable: false,
      "rule id → count, rules in the order `check` lists them (only rules with findings)"),
  ]
}

/// One column of a ``Table``: its name, type, whether it may be null and what it means.
public struct Column: Sendable, Hashable, CustomStringConvertible {
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
  public var meaning: String

  public init(_ name: String, _ kind: Kind, nullable: Bool, _ meaning: String) {
    self.name = name
    self.kind = kind
    self.nullable = nullable
    self.meaning = meaning
  }

  /// `name (kind)`.
  public var description: String { "\(name) (\(kind)\(nullable ? ", nullable" : ""))" }
}
