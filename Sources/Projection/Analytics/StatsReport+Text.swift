import Journal

extension StatsReport {
  /// Writes the report as text tables: one block per journal, then an `overall`
  /// block when there are several. Journal text (ids, classes, names) is escaped
  /// for a terminal.
  ///
  /// ```
  /// == a.ndjson: session 3F2A9C1E, app Dicto, build 2.1 (88)
  /// events    15 from 2026-11-29T10:00:00.000000Z to 2026-11-29T10:00:01.250000Z (1250.000 ms)
  /// types     session 1, alloc 2, root 1, link 1, pan 1, move 1, lifecycle 8
  /// moves     1 (1 animated): left 1, right 0, up 0, down 0; programmatic 0, pan 1, fling 0, goToRoot 0
  /// pans      1: committed 1, snapBack 0, blocked 0, refused 0, cancelled 0
  /// modals    0 presented, 0 deallocated, 0 leaked (0 modal-leak findings)
  /// findings  none
  ///
  /// controller  class                visits  dwell_ms  open  incomplete
  /// home        HomeViewController        1  1000.000     0           0
  /// notes       NotesViewController       1   250.000     1           0
  /// ```
  public func writeText(to out: inout some TextOutputStream) {
    for (i, session) in sessions.enumerated() {
      if i > 0 { out.write("\n") }
      var title = displayText(session.file ?? "-", limit: .max) + ": "
      if let id = session.session {
        title += "session " + displayText(id)
        if let app = session.app { title += ", app " + displayText(app) }
        if let build = session.build { title += ", build " + displayText(build) }
      } else {
        title += "no session header"
      }
      Self.writeBlock(session, title: title, to: &out)
    }
    if sessions.count > 1 {
      out.write("\n")
      Self.writeBlock(overall, title: "overall: \(sessions.count) journals", to: &out)
    }
  }

  /// The report as text.
  public var text: String {
    var out = ""
    writeText(to: &out)
    return out
  }

  static func writeBlock(_ s: SessionStats, title: String, to out: inout some TextOutputStream) {
    out.write("== \(title)\n")
    var events = "\(s.events)"
    if let first = s.firstTime, let last = s.lastTime {
      events +=
        " from \(first.rfc3339) to \(last.rfc3339) (\(milliseconds(last.microseconds - first.microseconds)) ms)"
    }
    out.write(line("events", events))
    let types = s.typeNames.compactMap { type -> String? in
      let n = s.eventsByType[type] ?? 0
      return n == 0 ? nil : "\(displayText(type)) \(n)"
    }
    out.write(line("types", types.isEmpty ? "none" : types.joined(separator: ", ")))
    let directions = Direction.slotOrder.map { "\($0) \(s.movesByDirection[$0] ?? 0)" }.joined(separator: ", ")
    let triggers = MoveTrigger.allCases.map { "\($0) \(s.movesByTrigger[$0] ?? 0)" }.joined(separator: ", ")
    out.write(line("moves", "\(s.moves) (\(s.animatedMoves) animated): \(directions); \(triggers)"))
    let outcomes = PanOutcome.allCases.map { "\($0) \(s.pansByOutcome[$0] ?? 0)" }.joined(separator: ", ")
    out.write(line("pans", "\(s.pans): \(outcomes)"))
    var modals =
      "\(s.modalsPresented) presented, \(s.modalsDeallocated) deallocated, \(s.leakedModals.count) leaked "
      + "(\(s.modalLeakFindings) modal-leak \(s.modalLeakFindings == 1 ? "finding" : "findings"))"
    if !s.leakedModals.isEmpty {
      let shown = s.leakedModals.prefix(8).map { displayText($0.rawValue) }
      modals += ": " + shown.joined(separator: ", ") + (s.leakedModals.count > 8 ? ", …" : "")
    }
    out.write(line("modals", modals))
    if s.findings == 0 {
      out.write(line("findings", "none"))
    } else {
      let rules = s.ruleIDs.map { "\(displayText($0)) \(s.findingsByRule[$0] ?? 0)" }.joined(separator: ", ")
      out.write(line("findings", "\(count(s.errors, "error")), \(count(s.warnings, "warning")): \(rules)"))
    }
    guard !s.controllers.isEmpty else { return }
    out.write("\n")
    var table = TextTable(
      ["controller", "class", "visits", "dwell_ms", "open", "incomplete"], rightAligned: [2, 3, 4, 5])
    for c in s.controllers {
      table.add([
        displayText(c.controller.rawValue), c.className.map { displayText($0) } ?? "-", "\(c.visits)",
        milliseconds(c.dwellMicroseconds), "\(c.openVisits)", "\(c.incompleteVisits)",
      ])
    }
    table.write(to: &out)
  }

  /// `label` padded to 10 columns, the value, a line end.
  private static func line(_ label: String, _ value: String) -> String {
    label + String(repeating: " ", count: max(1, 10 - label.count)) + value + "\n"
  }

  /// `1 error`, `2 errors`.
  private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

  /// Microseconds as milliseconds with exactly three decimals: `1250.000`.
  static func milliseconds(_ microseconds: Int64) -> String {
    let sign = microseconds < 0 ? "-" : ""
    let m = microseconds.magnitude
    let fraction = String(m % 1000)
    return "\(sign)\(m / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}

/// Columns of text aligned with spaces: a header row, then rows.
struct TextTable {
  private var rows: [[String]]
  private let rightAligned: Set<Int>

  init(_ header: [String], rightAligned: Set<Int> = []) {
    rows = [header]
    self.rightAligned = rightAligned
  }

  mutating func add(_ row: [String]) { rows.append(row) }

  /// Writes the rows, each cell padded with spaces to its column's widest (in characters).
  ///
  /// Implementation note: a churn-shaped journal's table has a row for each of tens of thousands
  /// of controllers; counting each cell's characters twice (grapheme breaking), a padding string
  /// per cell and a string per row would weigh on all of `stats`. An ASCII cell's width is its length
  /// in bytes; the text is built as bytes and written in large pieces.
  func write(to out: inout some TextOutputStream) {
    let columns = rows[0].count
    let right = (0..<columns).map { rightAligned.contains($0) }
    let counts = rows.map { $0.map(Self.width) }
    var widths = [Int](repeating: 0, count: columns)
    for row in counts {
      for (i, n) in row.enumerated() { widths[i] = max(widths[i], n) }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 << 16)
    func spaces(_ n: Int) {
      if n > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: n)) }
    }
    for (r, row) in rows.enumerated() {
      for (i, cell) in row.enumerated() {
        let pad = widths[i] - counts[r][i]
        if i > 0 { spaces(2) }
        if right[i] {
          spaces(pad)
          bytes.append(contentsOf: cell.utf8)
        } else {
          bytes.append(contentsOf: cell.utf8)
          if i != row.count - 1 { spaces(pad) }
        }
      }
      bytes.append(UInt8(ascii: "\n"))
      if bytes.count >= 1 << 16 {
        out.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
      }
    }
    if !bytes.isEmpty { out.write(String(decoding: bytes, as: UTF8.self)) }
  }

  /// The cell's width in characters: its length in bytes when it is ASCII without `\r` (which
  /// makes one character with a following `\n`).
  private static func width(_ cell: String) -> Int {
    for byte in cell.utf8 where byte >= 0x80 || byte == 0x0D { return cell.count }
    return cell.utf8.count
  }
}
