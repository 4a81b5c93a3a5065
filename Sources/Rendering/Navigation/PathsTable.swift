import Journal
import Projection

/// What `paths` writes: the first ``top`` paths of ``steps`` screens, by count, as a text table,
/// JSON or CSV, of one result or of groups of journals (``HeaderGroups``) and overall.
///
/// ```swift
/// let table = PathsTable(steps: 3, top: 20)
/// var text = ""
/// table.writeText(totals, to: &text)
/// // count  sessions  path
/// //     4         2  Home → List → Editor
/// ```
public struct PathsTable: Sendable {
  /// Screens per path.
  public var steps: Int
  /// The first paths only (nil: all).
  public var top: Int?
  /// Whether CSV text cells that a spreadsheet would run as formulas are written as text.
  public var guardsFormulas: Bool

  public init(steps: Int, top: Int?, guardsFormulas: Bool = true) {
    self.steps = steps
    self.top = top
    self.guardsFormulas = guardsFormulas
  }

  /// One JSON document and a line end: `{"paths":[...]}`, or with groups
  /// `{"by":[...],"groups":[{"key":{...},"sessions":N,"paths":[...]}, ...],"overall":{...}}`.
  public func json(_ groups: HeaderGroups<PathTotals>, overall: PathTotals) -> [UInt8] {
    var json = JSONBuffer()
    json.object { json in
      guard !groups.keys.isEmpty else { return write(overall, to: &json) }
      groups.writeJSONMembers(overall: overall, to: &json) { totals, json in
        json.member("sessions", totals.sessions.count)
        write(totals, to: &json)
      }
    }
    json.raw("\n")
    return json.take()
  }

  /// `"paths":[...]`, the first ``top`` paths of `totals`.
  private func write(_ totals: PathTotals, to json: inout JSONBuffer) {
    json.array("paths") { json in
      for entry in totals.ranked(top: top) {
        json.objectElement { json in
          json.member("path", strings: entry.path)
          json.member("count", entry.count)
          json.member("sessions", entry.sessions)
        }
      }
    }
  }

  /// The CSV table, a record at a time: `KEY...,count,sessions,step_1..step_K` (with --top 0 and
  /// a long --steps, all of the records at once could be gigabytes).
  public func writeCSV(_ groups: HeaderGroups<PathTotals>, overall: PathTotals, to out: inout some TextOutputStream) {
    out.write(
      (groups.keys.map(\.rawValue) + ["count", "sessions"] + (1...steps).map { "step_\($0)" }).joined(separator: ",")
        + "\r\n")
    let blocks = groups.keys.isEmpty ? [(key: [], value: overall)] : groups.groups
    for (group, totals) in blocks {
      totals.forEachRanked(top: top) { entry in
        out.write(
          (group.map { $0.map { TableEncoder.csvField($0, guardingFormulas: guardsFormulas) } ?? "" } + [
            "\(entry.count)", "\(entry.sessions)",
          ]
            + entry.path.map { TableEncoder.csvField($0, guardingFormulas: guardsFormulas) }).joined(separator: ",")
            + "\r\n")
      }
    }
  }

  /// The text: the table of `overall`, or with groups a table per group, then overall.
  public func writeText(_ groups: HeaderGroups<PathTotals>, overall: PathTotals, to out: inout some TextOutputStream) {
    guard !groups.keys.isEmpty else { return writeText(overall, to: &out) }
    groups.writeText(overall: overall, sessions: \.sessions.count, to: &out) { writeText($0, to: &$1) }
  }

  /// The table of the first ``top`` paths of `totals`.
  public func writeText(_ totals: PathTotals, to out: inout some TextOutputStream) {
    let ranked = totals.ranked(top: top)
    guard !ranked.isEmpty else { return out.write("no path of \(steps) screens\n") }
    let width = max(5, ranked.map { $0.count.grouped.count }.max() ?? 0)
    out.write("count".leftPadded(to: width) + "  sessions  path\n")
    for entry in ranked {
      out.write(
        entry.count.grouped.leftPadded(to: width) + "  " + entry.sessions.grouped.leftPadded(to: 8) + "  "
          + entry.path.map { displayText($0, limit: .max) }.joined(separator: " → ") + "\n")
    }
  }
}

extension String {
  /// The text with spaces before it to `width` characters.
  package func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }

  /// The text with spaces after it to `width` characters.
  package func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
