import Journal
import Projection

/// What `latency` writes: per group and screen, the appearance, first-arrival and dwell times
/// (count, the percentiles, max, in milliseconds), as text, JSON or CSV.
///
/// ```swift
/// let table = LatencyTable(keys: [.build], percentiles: Percentile.standard)
/// var text = ""
/// table.writeText(rows, to: &text)
/// ```
public struct LatencyTable: Sendable {
  /// One screen of one group: the group's values of ``keys`` (nil: the header has no such
  /// field), the screen, and its times.
  public struct Row: Sendable {
    public var group: [String?]
    public var screen: String
    public var times: LatencyBuilder.Screen

    public init(group: [String?], screen: String, times: LatencyBuilder.Screen) {
      self.group = group
      self.screen = screen
      self.times = times
    }
  }

  /// The header fields the rows are grouped by.
  public var keys: [StatsKey]
  /// The percentiles shown, in order (max is always shown).
  public var percentiles: [Percentile]
  /// Whether CSV text cells that a spreadsheet would run as formulas are written as text.
  public var guardsFormulas: Bool

  public init(keys: [StatsKey], percentiles: [Percentile], guardsFormulas: Bool = true) {
    self.keys = keys
    self.percentiles = percentiles
    self.guardsFormulas = guardsFormulas
  }

  /// The measures of a screen: their CSV and text names, their JSON keys and their values.
  private static let measures: [(name: String, json: String, get: @Sendable (LatencyBuilder.Screen) -> Distribution)] =
    [
      ("appearance", "appearance", { $0.appearance }), ("first_arrival", "firstArrival", { $0.firstArrival }),
      ("dwell", "dwell", { $0.dwell }),
    ]

  /// One JSON document and a line end:
  /// `{"group":[KEY...],"screens":[{"key":{...},"screen":"A","appearance":{...},...}, ...]}`.
  public func json(_ rows: [Row]) -> [UInt8] {
    var out = JSONBuffer()
    out.object { out in
      out.member("group", strings: keys.map(\.rawValue))
      out.array("screens") { out in
        for row in rows {
          out.objectElement { out in
            out.object("key") { out in
              for (k, value) in zip(keys, row.group) { out.member(k.rawValue, value) }
            }
            out.member("screen", row.screen)
            for measure in Self.measures {
              out.key(measure.json)
              write(measure.get(row.times), to: &out)
            }
          }
        }
      }
    }
    out.raw("\n")
    return out.take()
  }

  /// The CSV table: one row per group, screen and measure,
  /// `KEY...,screen,measure,count,pP_ms...,max_ms`.
  public func csv(_ rows: [Row]) -> String {
    var csv =
      (keys.map(\.rawValue) + ["screen", "measure", "count"] + percentiles.map { $0.name + "_ms" } + ["max_ms"])
      .joined(separator: ",") + "\r\n"
    for row in rows {
      for measure in Self.measures {
        let cells = cells(measure.get(row.times))
        csv +=
          (row.group.map { $0.map { TableEncoder.csvField($0, guardingFormulas: guardsFormulas) } ?? "" } + [
            TableEncoder.csvField(row.screen, guardingFormulas: guardsFormulas), measure.name,
          ] + cells)
          .joined(separator: ",") + "\r\n"
      }
    }
    return csv
  }

  /// The text: per screen a line of each measure, under a `== KEY VALUE, ...` line per group.
  public func writeText(_ rows: [Row], to out: inout some TextOutputStream) {
    var lastGroup: [String?]? = nil
    for row in rows {
      if !keys.isEmpty, row.group.map({ $0.map(ExactText.init) }) != lastGroup?.map({ $0.map(ExactText.init) }) {
        let label = zip(keys, row.group).map { "\($0.rawValue) \($1.map { displayText($0, limit: .max) } ?? "-")" }
        out.write((lastGroup == nil ? "" : "\n") + "== " + label.joined(separator: ", ") + "\n")
        lastGroup = row.group
      }
      out.write(displayText(row.screen, limit: .max) + "\n")
      for measure in Self.measures {
        let c = cells(measure.get(row.times))
        var line = "  " + measure.name.padding(13) + " n " + c[0].leftPadded(to: 6)
        for (p, cell) in zip(percentiles, c.dropFirst()) { line += "  " + p.name + " " + cell.leftPadded(to: 11) }
        out.write(line + "  max " + c[c.count - 1].leftPadded(to: 11) + "\n")
      }
    }
    if rows.isEmpty { out.write("no screen was displayed\n") }
  }

  /// count, the percentiles, max (milliseconds with three decimals; empty when there are no values).
  func cells(_ values: Distribution) -> [String] {
    let s = values.values(at: percentiles)
    guard s.count > 0 else { return ["0"] + Array(repeating: "", count: percentiles.count + 1) }
    return [String(s.count)] + (s.percentiles + [s.max]).map(Distribution.milliseconds)
  }

  private func write(_ values: Distribution, to out: inout JSONBuffer) {
    let c = cells(values)
    out.object { out in
      out.key("count")
      out.raw(c[0])
      for (name, cell) in zip(percentiles.map(\.name) + ["max"], c.dropFirst()) {
        out.key(name)
        out.raw(cell.isEmpty ? "null" : cell)
      }
    }
  }
}
