import Journal
import Projection

/// `--from/--to` (seq), `--since/--until` (time), `--type` and
/// `--controller`: which events `log`, `cat`, `tail` and `export` keep, with
/// one meaning everywhere. An event is kept when it passes every filter given.
///
/// A type must be one of the format's types, or an unknown type's name that
/// is no typo of one (`Move` is refused: did you mean move?). A controller
/// id cannot be checked before the journal is read: ``checkControllersSeen()``
/// names those that no event mentioned, and the command then reports a
/// usage error with a suggestion from the ids that were seen.
struct EventFilter {
  var from = 0
  var to = Int.max
  var since: Timestamp?
  var until: Timestamp?
  var types: Set<String> = []
  var controllers: Set<ControllerID> = []
  /// Every controller id seen (only gathered while `--controller` is given).
  private(set) var seenControllers: Set<ControllerID> = []

  init() {}

  init(_ arguments: ParsedArguments) throws(UsageError) {
    from = try arguments.int(Option.from, min: 0) ?? 0
    to = try arguments.int(Option.to, min: 0) ?? Int.max
    guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
    since = try Self.time(arguments, Option.since)
    until = try Self.time(arguments, Option.until)
    if let since, let until, until < since {
      throw UsageError("--since \(since.rfc3339) is after --until \(until.rfc3339)")
    }
    types = Set(
      try arguments.values(Option.type).map { (type) throws(UsageError) in try Self.typeName(type, "--type") })
    controllers = Set(arguments.values(Option.controller).map { ControllerID($0) })
  }

  private static func time(_ arguments: ParsedArguments, _ option: Option) throws(UsageError) -> Timestamp? {
    guard let text = arguments.value(option) else { return nil }
    do {
      return try Timestamp(rfc3339: text, allowOffset: true)
    } catch {
      throw UsageError(
        "\(option.name) takes an RFC 3339 time such as 2026-01-01T10:00:00Z, got '\(displayText(text))'")
    }
  }

  /// A type name for `--type`, `--include` or `--exclude`: a known type, or an
  /// unknown type's name unless it looks like a typo of a known one.
  static func typeName(_ name: String, _ option: String) throws(UsageError) -> String {
    if Event.knownTypeNames.contains(name) { return name }
    if let near = closestWord(to: name, in: Event.knownTypeNames, ignoringCase: true) {
      throw UsageError("\(option): unknown type '\(displayText(name))' (did you mean \(near)?)")
    }
    return name
  }

  /// Whether any filter is given.
  var isActive: Bool {
    from > 0 || to < Int.max || since != nil || until != nil || !types.isEmpty || !controllers.isEmpty
  }

  /// Whether `record` is inside the seq and time ranges (`--from/--to`, `--since/--until`).
  func inRange(_ record: Record) -> Bool {
    guard record.seq >= from && record.seq <= to else { return false }
    if let since, record.time < since { return false }
    if let until, record.time > until { return false }
    return true
  }

  /// Whether `record` comes after the seq or time range (`--to`, `--until`).
  func isAfterRange(_ record: Record) -> Bool {
    if record.seq > to { return true }
    if let until, record.time > until { return true }
    return false
  }

  /// Whether `--type` or `--controller` is given.
  var selectsEvents: Bool { !types.isEmpty || !controllers.isEmpty }

  /// Whether the filters keep `record`.
  mutating func selects(_ record: Record) -> Bool {
    guard record.seq >= from && record.seq <= to else { return false }
    if let since, record.time < since { return false }
    if let until, record.time > until { return false }
    guard types.isEmpty || types.contains(record.event.typeName) else { return false }
    guard !controllers.isEmpty else { return true }
    let named = record.event.controllers
    seenControllers.formUnion(named)
    return named.contains(where: controllers.contains)
  }

  /// Notes the controllers a row or event names (for ``checkControllersSeen()``).
  mutating func noteSeen(_ ids: some Sequence<ControllerID>) { seenControllers.formUnion(ids) }

  /// After the journals: a `--controller` that no event named is a usage error, with a suggestion.
  func checkControllersSeen() throws(UsageError) {
    for id in controllers.sorted(by: { $0.rawValue < $1.rawValue }) where !seenControllers.contains(id) {
      throw UsageError(
        "--controller: no event names '\(displayText(id.rawValue))'"
          + NameSuggestion.text(for: id.rawValue, among: seenControllers.lazy.map(\.rawValue)))
    }
  }
}

/// The event filters applied to the rows of an exported table, by the row's own
/// columns: `--from/--to` its seq (a visit's `start_seq`), `--since/--until` its
/// time (`start_time`), `--controller` any controller it names, `--type` the
/// events table's `type` (the other tables have one type of row each).
struct RowFilter {
  private var filter: EventFilter
  private let seq: Int?
  private let time: Int?
  private let type: Int?
  private let controllerColumns: [Int]
  private let listColumns: [Int]

  init(_ filter: EventFilter, table: Table) throws(UsageError) {
    self.filter = filter
    let columns = table.ownColumns
    func index(_ names: String...) -> Int? { columns.firstIndex { names.contains($0.name) } }
    seq = index("seq", "start_seq")
    time = index("time", "start_time")
    type = index("type")
    if !filter.types.isEmpty && type == nil {
      throw UsageError("--type selects rows of the events table; the \(table.rawValue) table has one kind of row")
    }
    let names: Set<String> = ["controller", "from", "to", "presenter", "target"]
    controllerColumns = columns.indices.filter { names.contains(columns[$0].name) && columns[$0].kind == .string }
    listColumns = columns.indices.filter { columns[$0].kind == .list }
    if !filter.controllers.isEmpty && controllerColumns.isEmpty && listColumns.isEmpty {
      throw UsageError("--controller selects rows that name controllers; the \(table.rawValue) table names none")
    }
  }

  var isActive: Bool { filter.isActive }

  mutating func selects(_ row: TableRow) -> Bool {
    let cells = row.cells
    if let seq, case .integer(let value) = cells[seq], value < filter.from || value > filter.to { return false }
    if let time, case .timestamp(let value) = cells[time] {
      if let since = filter.since, value < since { return false }
      if let until = filter.until, value > until { return false }
    }
    if let type, !filter.types.isEmpty {
      guard case .string(let value) = cells[type], filter.types.contains(value) else { return false }
    }
    guard !filter.controllers.isEmpty else { return true }
    var named: [ControllerID] = []
    for i in controllerColumns { if case .string(let id) = cells[i] { named.append(ControllerID(id)) } }
    for i in listColumns {
      if case .json(let text) = cells[i] { named += Self.ids(inArray: text) }
    }
    filter.noteSeen(named)
    return named.contains(where: filter.controllers.contains)
  }

  func checkControllersSeen() throws(UsageError) { try filter.checkControllersSeen() }

  /// Notes the controllers another copy of this filter saw (on another journal).
  mutating func noteSeen(by other: RowFilter) { filter.noteSeen(other.filter.seenControllers) }

  /// The strings of a JSON array of strings written by the table builder (`["a","b\"c"]`); a
  /// `\"` or `\\` escape gives its character (ids with control characters keep their `\uXXXX`).
  static func ids(inArray text: String) -> [ControllerID] {
    var ids: [ControllerID] = []
    var current: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in text.utf8 {
      if !inString {
        if byte == UInt8(ascii: "\"") { inString = true }
        continue
      }
      if escaped {
        current.append(byte)
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        ids.append(ControllerID(String(decoding: current, as: UTF8.self)))
        current.removeAll()
        inString = false
      } else {
        current.append(byte)
      }
    }
    return ids
  }
}
