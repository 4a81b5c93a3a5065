import Journal
import Projection

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
        " from \(first.rfc3339) to \(last.rfc3339) (\(Distribution.milliseconds(last.microseconds - first.microseconds)) ms)"
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
    table.reserve(rows: s.controllers.count)
    for c in s.controllers {
      table.add(displayText(c.controller.rawValue))
      table.add(c.className.map { displayText($0) } ?? "-")
      table.add(c.visits)
      table.add(milliseconds: c.dwellMicroseconds)
      table.add(c.openVisits)
      table.add(c.incompleteVisits)
    }
    table.write(to: &out)
  }

  /// `label` padded to 10 columns, the value, a line end.
  private static func line(_ label: String, _ value: String) -> String {
    label + String(repeating: " ", count: max(1, 10 - label.count)) + value + "\n"
  }

  /// `1 error`, `2 errors`.
  private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

/// Columns of text aligned with spaces: a header row, then rows, filled cell by cell.
///
/// ```swift
/// var table = TextTable(["controller", "visits"], rightAligned: [1])
/// table.add("home")
/// table.add(3)
/// table.write(to: &out)  // controller  visits\nhome             3\n
/// ```
///
/// Implementation note: a churn-shaped journal's table has a row for each of tens of thousands
/// of controllers, written after the journal is read, on one thread, while the other core waits:
/// every cell costs there. The cells' text is kept in one byte buffer (no string, no array per
/// row), numbers are written as digits straight into it, and an ASCII cell's width is its length
/// in bytes, known as it is appended.
struct TextTable {
  private let columns: Int
  private let right: [Bool]
  /// Every cell's UTF-8, one after the other, header first.
  private var text: [UInt8] = []
  /// Per cell, in order: where its text ends in ``text`` and its width in characters.
  private var cells: [(end: Int, width: Int)] = []
  /// Per column: its widest cell.
  private var widths: [Int]

  init(_ header: [String], rightAligned: Set<Int> = []) {
    columns = header.count
    right = (0..<header.count).map { rightAligned.contains($0) }
    widths = [Int](repeating: 0, count: header.count)
    for cell in header { add(cell) }
  }

  /// Makes room for `rows` more rows of short cells.
  mutating func reserve(rows: Int) {
    cells.reserveCapacity(cells.count + rows * columns)
    text.reserveCapacity(text.count + rows * columns * 12)
  }

  /// Adds the next cell: the rows are filled left to right, top to bottom.
  mutating func add(_ cell: String) {
    var ascii = true
    let start = text.count
    for byte in cell.utf8 {
      if byte >= 0x80 || byte == 0x0D { ascii = false }
      text.append(byte)
    }
    // A cell that is not plain ASCII (or holds a `\r`, one character with a following `\n`) is as
    // wide as its characters.
    end(width: ascii ? text.count - start : cell.count)
  }

  /// Adds the next cell: an integer's digits.
  mutating func add(_ n: Int) {
    let start = text.count
    JSONWriter.appendInt(n, to: &text)
    end(width: text.count - start)
  }

  /// Adds the next cell: microseconds as ``Distribution/milliseconds(_:)`` writes them (`1250.000`, `-` for none).
  mutating func add(milliseconds microseconds: Int64?) {
    let start = text.count
    Distribution.appendMilliseconds(microseconds, to: &text)
    end(width: text.count - start)
  }

  private mutating func end(width: Int) {
    let column = cells.count % columns
    widths[column] = max(widths[column], width)
    cells.append((text.count, width))
  }

  /// Appends `count` spaces (a loop: a column's padding is a few bytes).
  @inline(__always)
  private static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
    var n = count
    while n > 0 {
      bytes.append(UInt8(ascii: " "))
      n -= 1
    }
  }

  /// Writes the rows, each cell padded with spaces to its column's widest (in characters), in
  /// pieces of about 64 KiB.
  func write(to out: inout some TextOutputStream) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity((1 << 16) + 4096)
    text.withUnsafeBufferPointer { text in
      var start = 0
      for (i, cell) in cells.enumerated() {
        let column = i % columns
        let pad = widths[column] - cell.width
        if column > 0 { Self.appendSpaces(2, to: &bytes) }
        if right[column] { Self.appendSpaces(pad, to: &bytes) }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<cell.end]))
        start = cell.end
        if column == columns - 1 {
          bytes.append(UInt8(ascii: "\n"))
          if bytes.count >= 1 << 16 {
            out.write(String(decoding: bytes, as: UTF8.self))
            bytes.removeAll(keepingCapacity: true)
          }
        } else if !right[column] {
          Self.appendSpaces(pad, to: &bytes)
        }
      }
    }
    if !bytes.isEmpty { out.write(String(decoding: bytes, as: UTF8.self)) }
  }
}
