import Journal

/// `--from/--to` (seq), `--since/--until` (time), `--type` and
/// `--controller`: which events `log`, `cat`, `tail` and `export` keep, with
/// one meaning everywhere. An event is kept when it passes every filter given.
///
/// A type must be one of the format's types, or an unknown type's name that
/// is no typo of one (`Move` is refused: did you mean move?). A controller
/// id cannot be checked before the journal is read: ``unseenControllers``
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

  /// After the journals: a `--controller` that no event named is a usage error, with a suggestion.
  func checkControllersSeen() throws(UsageError) {
    for id in controllers.sorted(by: { $0.rawValue < $1.rawValue }) where !seenControllers.contains(id) {
      var message = "--controller: no event names '\(displayText(id.rawValue))'"
      if let near = closestWord(to: id.rawValue, in: seenControllers.map(\.rawValue).sorted()) {
        message += " (did you mean \(near)?)"
      }
      throw UsageError(message)
    }
  }
}
