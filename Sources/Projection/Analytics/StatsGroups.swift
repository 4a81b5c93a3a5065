import Journal

/// A field of the session header that `stats --by` groups journals by.
public enum StatsKey: String, CaseIterable, Sendable {
  case build, app, device, session, profile

  /// The journal's value of this field; nil when its header has none.
  public func value(in stats: SessionStats) -> String? {
    switch self {
    case .build: stats.build
    case .app: stats.app
    case .device: stats.device
    case .session: stats.session
    case .profile: stats.profile
    }
  }

  /// The header's value of this field; nil without a header or when it has none.
  public func value(in header: SessionHeader?) -> String? {
    switch self {
    case .build: header?.build
    case .app: header?.app
    case .device: header?.device
    case .session: header?.session
    case .profile: header?.profile
    }
  }
}

/// The stats of journals grouped by header fields (`stats --by build,device`):
/// one merged ``SessionStats`` per combination of the fields' values, and
/// every journal merged.
///
/// A journal without a field goes to the group whose value for it is nil.
/// Groups are listed by their values, compared field by field in byte order,
/// nil after every value. Memory: one ``SessionStats`` per group, whatever the
/// number of journals.
///
/// ```swift
/// var groups = StatsGroups(by: [.build])
/// groups.add(stats1)
/// groups.add(stats2)
/// groups.groups.first?.key  // ["3.2 (41)"]
/// ```
public struct StatsGroups: Sendable {
  /// One group: the fields' values (in the order of ``keys``) and the merged stats.
  public struct Group: Sendable {
    public var key: [String?]
    public var stats: SessionStats
  }

  /// The fields grouped by, in the order given.
  public var keys: [StatsKey] { index.keys }
  private var index: HeaderGroups<SessionStats>
  /// Every journal merged.
  public private(set) var overall = SessionStats()

  public init(by keys: [StatsKey]) {
    index = HeaderGroups(by: keys, empty: Self.empty)
    overall.journals = 0
  }

  /// Adds one journal's stats to its group and to the overall stats.
  public mutating func add(_ session: SessionStats) {
    let key = keys.map { $0.value(in: session) }
    index.update(key) { $0.merge(session) }
    overall.merge(session)
  }

  /// The groups, sorted by their values (version order, nil last).
  public var groups: [Group] {
    index.groups.map { Group(key: $0.key, stats: $0.value) }
  }

  private static var empty: SessionStats {
    var stats = SessionStats()
    stats.journals = 0
    return stats
  }

  /// The groups' title in the text report: `build 3.2 (41), device (none)`.
  func title(_ key: [String?]) -> String { index.title(key) }
}

extension StatsGroups {
  /// `{"by":["build"],"groups":[{"key":{"build":"3.2 (41)"},STATS...}],"overall":STATS}`,
  /// each STATS with the fields of ``StatsReport/json``'s (documented in docs/tables.md).
  public var json: String {
    var json = JSONBuffer()
    json.open("{")
    json.key("by")
    json.strings(keys.map(\.rawValue))
    json.key("groups")
    json.open("[")
    for group in groups {
      json.element()
      StatsReport.appendJSON(group.stats, key: Array(zip(keys.map(\.rawValue), group.key)), to: &json)
    }
    json.close("]")
    json.key("overall")
    StatsReport.appendJSON(overall, to: &json)
    json.close("}")
    return json.text
  }

  /// Writes one text block per group (as `stats` writes a journal's), then the overall block.
  public func writeText(to out: inout some TextOutputStream) {
    for group in groups {
      StatsReport.writeBlock(group.stats, title: title(group.key) + ": " + journals(group.stats), to: &out)
      out.write("\n")
    }
    StatsReport.writeBlock(overall, title: "overall: " + journals(overall), to: &out)
  }

  private func journals(_ stats: SessionStats) -> String {
    stats.journals == 1 ? "1 journal" : "\(stats.journals) journals"
  }

  /// The columns of ``writeCSV(to:)``: the keys, then `measure`, `item`, `value`.
  public var csvColumns: [String] { keys.map(\.rawValue) + ["measure", "item", "value"] }

  /// The groups as a long ("tidy") CSV table: one row per group and measure (and item:
  /// an event type, a direction, a controller, a rule), RFC 4180 with CRLF line ends,
  /// a nil value as an empty field. The measures are listed in docs/tables.md.
  public func writeCSV(guardingFormulas: Bool = true, to out: inout [UInt8]) {
    func field(_ cell: Cell, first: Bool = false) {
      if !first { out.append(UInt8(ascii: ",")) }
      TableEncoder.appendCSV(cell, guardingFormulas: guardingFormulas, to: &out)
    }
    for (i, name) in csvColumns.enumerated() { field(.string(name), first: i == 0) }
    out += [0x0D, 0x0A]
    for group in groups {
      for (measure, item, value) in Self.measures(group.stats) {
        for (i, value) in group.key.enumerated() { field(.string(value), first: i == 0) }
        field(.string(measure))
        field(.string(item))
        field(value)
        out += [0x0D, 0x0A]
      }
    }
  }

  /// The rows of one group: measure, item (nil for a total) and value.
  static func measures(_ s: SessionStats) -> [(String, String?, Cell)] {
    var rows: [(String, String?, Cell)] = [
      ("journals", nil, .integer(s.journals)), ("events", nil, .integer(s.events)),
    ]
    rows += s.typeNames.map { ("events_by_type", $0, .integer(s.eventsByType[$0] ?? 0)) }
    rows += [("moves", nil, .integer(s.moves)), ("moves_animated", nil, .integer(s.animatedMoves))]
    rows += Direction.slotOrder.map { ("moves_by_direction", $0.rawValue, .integer(s.movesByDirection[$0] ?? 0)) }
    rows += MoveTrigger.allCases.map { ("moves_by_trigger", $0.rawValue, .integer(s.movesByTrigger[$0] ?? 0)) }
    rows.append(("pans", nil, .integer(s.pans)))
    rows += PanOutcome.allCases.map { ("pans_by_outcome", $0.rawValue, .integer(s.pansByOutcome[$0] ?? 0)) }
    for c in s.controllers {
      let id = c.controller.rawValue
      rows += [
        ("visits", id, .integer(c.visits)), ("dwell_ms", id, .number(c.dwellMilliseconds)),
        ("open_visits", id, .integer(c.openVisits)), ("incomplete_visits", id, .integer(c.incompleteVisits)),
      ]
    }
    rows += [
      ("modals_presented", nil, .integer(s.modalsPresented)),
      ("modals_deallocated", nil, .integer(s.modalsDeallocated)),
      ("modals_leaked", nil, .integer(s.leakedModals.count)),
      ("findings", nil, .integer(s.findings)), ("errors", nil, .integer(s.errors)),
      ("warnings", nil, .integer(s.warnings)),
    ]
    rows += s.ruleIDs.map { ("findings_by_rule", $0, .integer(s.findingsByRule[$0] ?? 0)) }
    return rows
  }
}
