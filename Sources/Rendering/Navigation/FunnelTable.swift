import Journal
import Projection

/// What `funnel` writes: per step, the sessions that reached it, conversion, drop-off and the
/// median time from the step before, as a text table or JSON, of one funnel or of groups of
/// journals (``HeaderGroups``) and overall.
///
/// ```swift
/// var text = ""
/// FunnelTable.writeText(totals, to: &text)
/// ```
public enum FunnelTable {
  /// One JSON document and a line end: `{"sessions":N,"steps":[...]}`, or with groups
  /// `{"by":[...],"groups":[{"key":{...},"sessions":N,"steps":[...]}, ...],"overall":{...}}`.
  public static func json(_ groups: HeaderGroups<FunnelTotals>, overall: FunnelTotals) -> [UInt8] {
    var out = JSONBuffer()
    out.object { out in
      guard !groups.keys.isEmpty else { return write(overall, to: &out) }
      groups.writeJSONMembers(overall: overall, to: &out) { write($0, to: &$1) }
    }
    out.raw("\n")
    return out.take()
  }

  /// `"sessions":N,"steps":[...]`.
  static func write(_ totals: FunnelTotals, to out: inout JSONBuffer) {
    out.member("sessions", totals.sessions.count)
    out.array("steps") { out in
      for step in totals.result {
        out.objectElement { out in
          out.member("screen", step.screen)
          out.member("sessions", step.sessions)
          out.key("conversion")
          out.raw(step.conversion.map { "\($0)" } ?? "null")
          out.key("fromPrevious")
          out.raw(step.fromPrevious.map { "\($0)" } ?? "null")
          out.member("dropOff", step.dropOff)
          out.key("medianMsFromPrevious")
          out.raw(step.medianMicroseconds.map { Distribution.milliseconds($0) } ?? "null")
        }
      }
    }
  }

  /// The text: `N sessions` and the table of `overall`, or with groups a table per group, then overall.
  public static func writeText(
    _ groups: HeaderGroups<FunnelTotals>, overall: FunnelTotals, to out: inout some TextOutputStream
  ) {
    guard !groups.keys.isEmpty else {
      out.write("\(overall.sessions.count.grouped) sessions\n")
      return writeText(overall, to: &out)
    }
    groups.writeText(overall: overall, sessions: \.sessions.count, to: &out) { writeText($0, to: &$1) }
  }

  /// The table of the funnel's steps.
  public static func writeText(_ totals: FunnelTotals, to out: inout some TextOutputStream) {
    out.write("step  sessions  conversion  from previous  drop-off  median from previous  screen\n")
    for (i, step) in totals.result.enumerated() {
      let median = step.medianMicroseconds.map { Distribution.milliseconds($0) + " ms" } ?? "-"
      out.write(
        String(i + 1).leftPadded(to: 4) + "  " + step.sessions.grouped.leftPadded(to: 8) + "  "
          + percent(step.conversion).leftPadded(to: 10) + "  "
          + percent(step.fromPrevious).leftPadded(to: 13) + "  " + step.dropOff.grouped.leftPadded(to: 8) + "  "
          + median.leftPadded(to: 20) + "  " + displayText(step.screen, limit: .max) + "\n")
    }
  }

  /// `87.5 %` with one decimal, `-` for none.
  static func percent(_ ratio: Double?) -> String {
    guard let ratio else { return "-" }
    let tenths = Int((ratio * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10) %"
  }
}
