/// The positions of the data block's arrays, declared once: ``ReportRunBuilder``
/// writes in this order, and the page's script reads these names, as the
/// constants ``javaScript`` generates (`ROW.phase`, `FINDING.message`, ...).
/// `docs/report.md` describes each.
enum ReportData {
  /// A controller's row in the state panel (`[lane]` alone: it is gone).
  enum Row: Int, CaseIterable { case lane, phase, loads, modal, presenter }
  /// The transition after an event: its index in `transitions`, the arrivals
  /// so far, the missing expected callbacks as bits, 1 when in flight.
  enum Status: Int, CaseIterable { case transition, arrived, missing, inFlight }
  /// A transition: its summary (a string), the lanes it leaves and enters,
  /// its arrivals and expected callbacks as flattened `[lane, callback]` pairs.
  enum Transition: Int, CaseIterable { case summary, from, to, arrivals, expected }
  /// A finding: line, seq (-1 for none), event index (-1 outside the window),
  /// rule (an index in `rules`), severity (0 error, 1 warning), message (a
  /// string), move (-1 for none), lane (-1 for none).
  enum Finding: Int, CaseIterable { case line, seq, event, rule, severity, message, move, lane, source }
  /// A placed controller of a layout (`[lane]` alone: no longer placed).
  enum Placement: Int, CaseIterable { case lane, x, y, modal }
  /// A detached controller of a layout (`[lane]` alone: no longer detached).
  enum Detached: Int, CaseIterable { case lane, modal }
  /// A link of a layout: its two lanes and 1 or 2 lines (0: gone).
  enum Edge: Int, CaseIterable { case a, b, lines }

  /// `const ROW = Object.freeze({lane: 0, ...});` for every array above.
  static let javaScript: String = {
    func constants<T: CaseIterable & RawRepresentable>(_ name: String, _: T.Type) -> String
    where T.RawValue == Int {
      let members = T.allCases.map { "\($0): \($0.rawValue)" }.joined(separator: ", ")
      return "const \(name) = Object.freeze({ \(members) });\n"
    }
    return "\"use strict\";\n// Generated from ReportData (Swift): the positions in the data block's arrays.\n"
      + constants("ROW", Row.self) + constants("STATUS", Status.self) + constants("TRANSITION", Transition.self)
      + constants("FINDING", Finding.self) + constants("PLACEMENT", Placement.self)
      + constants("DETACHED", Detached.self) + constants("EDGE", Edge.self)
  }()
}
