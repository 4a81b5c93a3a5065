import Journal

/// One value of a table row, typed as its ``Column`` says.
public enum Cell: Sendable, Hashable {
  case null
  case string(String)
  case integer(Int)
  /// A finite number; a non-finite one is written as null.
  case number(Double)
  case boolean(Bool)
  case timestamp(Timestamp)
  /// JSON text (an object or an array), written as a string.
  case json(String)

  /// A string, or null.
  public static func string(_ value: String?) -> Cell { value.map { .string($0) } ?? .null }
  /// An id, or null.
  public static func id(_ value: ControllerID?) -> Cell { value.map { .string($0.rawValue) } ?? .null }
  /// An integer, or null.
  public static func integer(_ value: Int?) -> Cell { value.map { .integer($0) } ?? .null }
}

/// The table-specific cells of one row, in the order of ``Table/ownColumns``.
/// The common columns come from the ``RowContext`` of the journal it was read from.
public struct TableRow: Sendable, Hashable {
  public var cells: [Cell]

  public init(_ cells: [Cell]) { self.cells = cells }
}

/// The values of the common columns for every row of one journal, and what
/// the partitioned layout also files its rows by (`device`, `startTime`).
public struct RowContext: Sendable, Hashable {
  /// The header's session id; nil before the header (or in a journal without one).
  public var session: String?
  public var app: String?
  public var build: String?
  /// The journal's path as given.
  public var file: String
  /// The header's device; nil before the header or when absent (not a column).
  public var device: String?
  /// The time of the journal's first event, the session's start; nil before it (not a column).
  public var startTime: Timestamp?

  public init(
    session: String? = nil, app: String? = nil, build: String? = nil, file: String, device: String? = nil,
    startTime: Timestamp? = nil
  ) {
    self.session = session
    self.app = app
    self.build = build
    self.file = file
    self.device = device
    self.startTime = startTime
  }

  /// The common cells, in the order of ``Table/commonColumns``.
  public var cells: [Cell] { [.string(session), .string(app), .string(build), .string(file)] }
}
