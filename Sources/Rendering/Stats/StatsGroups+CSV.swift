import Journal
import Projection

extension StatsGroups {
  /// The columns of ``writeCSV(guardingFormulas:to:)``: the keys, then `measure`, `item`, `value`.
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
