import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// Every column of every table, on the hand-checked ``AnalyticsFixture`` journal.
@Suite struct ExportTableTests {
  @Test func commonColumnsComeFromTheHeaderAndTheFile() throws {
    let (_, context) = AnalyticsFixture.rows(.events, file: "in/j.ndjson")
    #expect(
      context
        == RowContext(
          session: "S1", app: "Dicto", build: nil, file: "in/j.ndjson", device: "iPhone",
          startTime: try Timestamp(rfc3339: "2026-11-29T10:00:00Z")))
    #expect(context.cells == [.string("S1"), .string("Dicto"), .null, .string("in/j.ndjson")])
    for table in Table.allCases {
      #expect(Array(table.columns.prefix(4).map(\.name)) == ["session", "app", "build", "file"])
    }
  }

  /// The columns the fixture leaves null: `build` and `scenario` of a header, a modal's
  /// `presenter`, `unlink` and `dealloc` rows.
  @Test func eventsTableCarriesModalsUnlinksDeallocsAndTheWholeHeader() {
    let s = Cell.string
    let text = """
      {"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":"S2","app":"Dicto","build":"4.2 (17)","scenario":"notes","profile":"legacy"}
      {"seq":1,"time":"2026-11-29T10:00:00.001000Z","type":"modal","controller":"compose","presenter":"notes"}
      {"seq":2,"time":"2026-11-29T10:00:00.002000Z","type":"unlink","from":"notes","direction":"down"}
      {"seq":3,"time":"2026-11-29T10:00:00.003000Z","type":"dealloc","controller":"compose"}

      """
    let reader = JournalReader(bytes: Array(text.utf8), name: "m.ndjson")
    var builder = TableBuilder(table: .events, file: "m.ndjson")
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    #expect(builder.context.cells == RowContext(session: "S2", app: "Dicto", build: "4.2 (17)", file: "m.ndjson").cells)
    expectRows(
      rows,
      [
        eventRow(
          1, 0, "00.000000", "session", ["v": .integer(1), "profile": s("legacy"), "scenario": s("notes")]),
        eventRow(2, 1, "00.001000", "modal", ["controller": s("compose"), "presenter": s("notes")]),
        eventRow(3, 2, "00.002000", "unlink", ["from": s("notes"), "direction": s("down")]),
        eventRow(4, 3, "00.003000", "dealloc", ["controller": s("compose")]),
      ])
  }

  @Test func eventsTableHasOneRowPerDecodedLineWithEveryKey() {
    let s = Cell.string
    let (rows, _) = AnalyticsFixture.rows(.events)
    expectRows(
      rows,
      [
        eventRow(1, 0, "00.000000", "session", ["v": .integer(1), "device": s("iPhone"), "profile": s("intended")]),
        eventRow(2, 1, "00.001000", "alloc", ["controller": s("home"), "class": s("Home")]),
        eventRow(
          3, 2, "00.002000", "alloc",
          ["controller": s("notes"), "class": s("Notes"), "extra": .json(#"{"color":"blue"}"#)]
        ),
        eventRow(4, 3, "00.003000", "root", ["controller": s("home")]),
        eventRow(5, 4, "00.003000", "lifecycle", ["controller": s("home"), "callback": s("didLoad")]),
        eventRow(6, 5, "00.003000", "lifecycle", ["controller": s("home"), "callback": s("willAppear")]),
        eventRow(7, 6, "00.003000", "lifecycle", ["controller": s("home"), "callback": s("didAppear")]),
        eventRow(8, 7, "00.004000", "link", ["from": s("home"), "direction": s("left"), "to": s("notes")]),
        eventRow(9, 8, "00.004000", "lifecycle", ["controller": s("notes"), "callback": s("didLoad")]),
        eventRow(10, 9, "00.005000", "touches", ["controller": s("home"), "direction": s("up"), "min": .integer(2)]),
        eventRow(
          11, 10, "00.006000", "pan",
          [
            "controller": s("home"), "direction": s("up"), "touches": .integer(1), "distance": .number(30),
            "velocity": .number(0), "outcome": s("refused"),
          ]),
        eventRow(
          12, 11, "00.007000", "pan",
          [
            "controller": s("home"), "direction": s("right"), "touches": .integer(1), "distance": .number(80.5),
            "velocity": .number(120.25), "outcome": s("blocked"),
          ]),
        eventRow(
          13, 12, "01.000000", "pan",
          [
            "controller": s("home"), "direction": s("left"), "touches": .integer(1), "distance": .number(120),
            "velocity": .number(300), "outcome": s("committed"),
          ]),
        eventRow(
          14, 13, "01.000000", "move",
          [
            "from": s("home"), "to": s("notes"), "direction": s("left"), "trigger": s("pan"),
            "animated": .boolean(true),
          ]),
        eventRow(15, 14, "01.000000", "lifecycle", ["controller": s("home"), "callback": s("willDisappear")]),
        eventRow(16, 15, "01.000000", "lifecycle", ["controller": s("notes"), "callback": s("willAppear")]),
        eventRow(17, 16, "01.250000", "lifecycle", ["controller": s("home"), "callback": s("didDisappear")]),
        eventRow(18, 17, "01.250000", "lifecycle", ["controller": s("notes"), "callback": s("didAppear")]),
        eventRow(19, 18, "01.300000", "mark", ["label": s("tap"), "extra": .json(#"{"x":1,"y":"a,b"}"#)]),
        eventRow(20, 19, "01.301000", "swipe", ["extra": .json(#"{"fingers":3}"#)]),
        eventRow(21, 20, "01.302000", "lifecycle", ["controller": s("notes"), "callback": s("willAppear")]),
        eventRow(23, 22, "02.000000", "mark", ["label": s("end")]),
      ])
  }

  @Test func visitsRunFromDidAppearToTheNextWillDisappearAndStayOpenAtTheEnd() {
    let t = AnalyticsFixture.time
    let (rows, _) = AnalyticsFixture.rows(.visits)
    expectRows(
      rows,
      [
        TableRow([
          .string("home"), .string("Home"), .integer(1), .integer(6), t("00.003000"), .integer(14), t("01.000000"),
          .number(997), .boolean(false), .boolean(true),
        ]),
        TableRow([
          .string("notes"), .string("Notes"), .integer(1), .integer(17), t("01.250000"), .null, t("02.000000"),
          .number(750), .boolean(true), .boolean(true),
        ]),
      ])
  }

  @Test func movesSayWhetherAndWhenTheirTransitionCompleted() {
    let t = AnalyticsFixture.time
    let (rows, _) = AnalyticsFixture.rows(.moves)
    expectRows(
      rows,
      [
        TableRow([
          .integer(14), .integer(13), t("01.000000"), .string("home"), .string("notes"), .string("left"),
          .string("pan"), .boolean(true), .boolean(true), .number(250), .string("Home"), .string("Notes"),
        ])
      ])
  }

  @Test func pansCarryTheMinimumTouchesAndTheNeighbourAtThatMoment() {
    let t = AnalyticsFixture.time
    let (rows, _) = AnalyticsFixture.rows(.pans)
    expectRows(
      rows,
      [
        TableRow([
          .integer(11), .integer(10), t("00.006000"), .string("home"), .string("up"), .integer(1), .integer(2),
          .number(30), .number(0), .string("refused"), .null,
        ]),
        TableRow([
          .integer(12), .integer(11), t("00.007000"), .string("home"), .string("right"), .integer(1), .integer(1),
          .number(80.5), .number(120.25), .string("blocked"), .null,
        ]),
        TableRow([
          .integer(13), .integer(12), t("01.000000"), .string("home"), .string("left"), .integer(1), .integer(1),
          .number(120), .number(300), .string("committed"), .string("notes"),
        ]),
      ])
  }

  @Test func findingsMergeTheReadersAndTheCheckersInLineOrder() {
    let (rows, _) = AnalyticsFixture.rows(.findings)
    let inMove = " (in move at seq 13: home → notes)"
    expectRows(
      rows,
      [
        TableRow([
          .integer(20), .null, .integer(19), .string("unknown-type"), .string("warning"),
          .string(#"unknown event type "swipe" (kept as is; reported once per type)"#), .json("[]"), .null,
        ]),
        TableRow([
          .integer(21), .null, .integer(20), .string("will-repeated"), .string("error"),
          .string("notes: willAppear while already appeared" + inMove), .json(#"["notes"]"#), .integer(13),
        ]),
        TableRow([
          .integer(21), .null, .integer(20), .string("visible-count"), .string("error"),
          .string("0 controllers appeared at rest; expected exactly 1" + inMove), .json("[]"), .integer(13),
        ]),
        TableRow([
          .integer(22), .integer(61), .null, .string("malformed"), .string("error"),
          .string(#"missing key "controller" for type "root""#), .json("[]"), .null,
        ]),
      ])
  }

  /// The fixture's one `sessions` row, written out by hand (see ``AnalyticsFixture``).
  @Test func sessionsRowHasTheHeaderTheTimesTheCountsAndTheFindings() throws {
    let (rows, context) = AnalyticsFixture.rows(.sessions)
    #expect(context.cells == [.string("S1"), .string("Dicto"), .null, .string("j.ndjson")])
    let types =
      #"{"session":1,"alloc":2,"root":1,"link":1,"unlink":0,"modal":0,"touches":1,"pan":3,"move":1,"#
      + #""lifecycle":9,"dealloc":0,"mark":2,"swipe":1}"#
    let rules = #"{"malformed":1,"unknown-type":1,"will-repeated":1,"visible-count":1}"#
    expectRows(
      rows,
      [
        TableRow([
          .string("iPhone"), .string("intended"), .null, AnalyticsFixture.time("00.000000"),
          AnalyticsFixture.time("02.000000"), .number(2000), .integer(22), .json(types), .integer(4), .integer(3),
          .integer(1), .json(rules),
        ])
      ])
  }

  /// A journal whose first line does not decode: its finding waits for the header and
  /// carries the session, app and build like every other row.
  @Test func findingsBeforeTheHeaderCarryItsCommonColumns() {
    let text = """
      \u{FEFF}{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S","app":"A","build":"B"}
      {"seq":1,"time":"2026-01-01T00:00:00.000000Z","type":"mark","label":"x"}

      """
    let reader = JournalReader(bytes: Array(text.utf8), name: "m.ndjson")
    var builder = TableBuilder(table: .findings, file: "m.ndjson")
    var rows: [TableRow] = []
    var contexts: [[Cell]] = []
    while let item = reader.next() {
      let before = rows.count
      builder.consume(item, into: &rows)
      contexts += Array(repeating: builder.context.cells, count: rows.count - before)
    }
    builder.finish(into: &rows)
    #expect(rows.map { $0.cells[3] } == [.string("bom")])
    #expect(contexts == [[.string("S"), .string("A"), .string("B"), .string("m.ndjson")]])
  }

  @Test(arguments: Table.allCases)
  func everyRowHasOneCellPerColumnOfTheDocumentedKind(_ table: Table) {
    let (rows, _) = AnalyticsFixture.rows(table)
    #expect(!rows.isEmpty)
    for row in rows {
      #expect(row.cells.count == table.ownColumns.count)
      for (cell, column) in zip(row.cells, table.ownColumns) {
        let ok: Bool
        switch (cell, column.kind) {
        case (.null, _): ok = column.nullable
        case (.string, .string), (.integer, .integer), (.number, .number), (.boolean, .boolean),
          (.timestamp, .timestamp), (.json, .json), (.json, .list):
          ok = true
        default: ok = false
        }
        #expect(ok, "\(table).\(column.name) holds \(cell)")
      }
    }
  }

  /// Controllers `a`, `b`, `c` alive, `a` the root, `b` left of `a`, `c` above `b`.
  static let threeControllers = """
    {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S2"}
    {"seq":1,"time":"2026-01-01T00:00:00.000000Z","type":"alloc","controller":"a","class":"A"}
    {"seq":2,"time":"2026-01-01T00:00:00.000000Z","type":"alloc","controller":"b","class":"B"}
    {"seq":3,"time":"2026-01-01T00:00:00.000000Z","type":"alloc","controller":"c","class":"C"}
    {"seq":4,"time":"2026-01-01T00:00:00.000000Z","type":"root","controller":"a"}
    {"seq":5,"time":"2026-01-01T00:00:00.000000Z","type":"link","from":"a","direction":"left","to":"b"}
    {"seq":6,"time":"2026-01-01T00:00:00.000000Z","type":"link","from":"b","direction":"up","to":"c"}

    """

  static func moveRows(_ journal: String) -> [TableRow] {
    let reader = JournalReader(bytes: Array(journal.utf8))
    var builder = TableBuilder(table: .moves, file: "m.ndjson")
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    return rows
  }

  @Test func aMoveCutShortByTheNextMoveOrTheEndIsNotCompleted() throws {
    let journal =
      Self.threeControllers + """
        {"seq":7,"time":"2026-01-01T00:00:00.001000Z","type":"move","from":"a","to":"b","direction":"left","trigger":"programmatic","animated":false}
        {"seq":8,"time":"2026-01-01T00:00:00.001000Z","type":"lifecycle","controller":"a","callback":"willDisappear"}
        {"seq":9,"time":"2026-01-01T00:00:00.002000Z","type":"move","from":"b","to":"c","direction":"up","trigger":"goToRoot","animated":true}

        """
    let t0 = try Timestamp(rfc3339: "2026-01-01T00:00:00.001Z")
    let t1 = try Timestamp(rfc3339: "2026-01-01T00:00:00.002Z")
    expectRows(
      Self.moveRows(journal),
      [
        TableRow([
          .integer(8), .integer(7), .timestamp(t0), .string("a"), .string("b"), .string("left"),
          .string("programmatic"), .boolean(false), .boolean(false), .null, .string("A"), .string("B"),
        ]),
        TableRow([
          .integer(10), .integer(9), .timestamp(t1), .string("b"), .string("c"), .string("up"), .string("goToRoot"),
          .boolean(true), .boolean(false), .null, .string("B"), .string("C"),
        ]),
      ])
  }

  /// The fold starts no transition for a move naming a controller that is not
  /// alive: that move gets no row, and the move in flight still completes when
  /// its callbacks arrive, as the lifecycle checker sees it.
  @Test func aMoveNamingAnUnknownControllerStartsNoTransition() throws {
    let journal =
      Self.threeControllers + """
        {"seq":7,"time":"2026-01-01T00:00:00.001000Z","type":"move","from":"a","to":"b","direction":"left","trigger":"pan","animated":true}
        {"seq":8,"time":"2026-01-01T00:00:00.001000Z","type":"lifecycle","controller":"a","callback":"willDisappear"}
        {"seq":9,"time":"2026-01-01T00:00:00.001000Z","type":"lifecycle","controller":"b","callback":"willAppear"}
        {"seq":10,"time":"2026-01-01T00:00:00.002000Z","type":"move","from":"b","to":"ghost","direction":"up","trigger":"pan","animated":true}
        {"seq":11,"time":"2026-01-01T00:00:00.003000Z","type":"lifecycle","controller":"a","callback":"didDisappear"}
        {"seq":12,"time":"2026-01-01T00:00:00.004000Z","type":"lifecycle","controller":"b","callback":"didAppear"}

        """
    let t0 = try Timestamp(rfc3339: "2026-01-01T00:00:00.001Z")
    expectRows(
      Self.moveRows(journal),
      [
        TableRow([
          .integer(8), .integer(7), .timestamp(t0), .string("a"), .string("b"), .string("left"),
          .string("pan"), .boolean(true), .boolean(true), .number(3), .string("A"), .string("B"),
        ])
      ])
    var state = State()
    let reader = JournalReader(bytes: Array(journal.utf8))
    while let item = reader.next() {
      if case .record(let record, _, _) = item { _ = reduce(into: &state, record) }
    }
    #expect(state.transition?.seq == 7)
    #expect(state.transition?.isComplete == true)
  }

  @Test func aDeallocEndsAVisitAndAJournalWithoutHeaderHasNullSession() throws {
    let journal = """
      {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"lifecycle","controller":"x","callback":"didAppear"}
      {"seq":1,"time":"2026-01-01T00:00:00.500000Z","type":"dealloc","controller":"x"}
      {"seq":2,"time":"2026-01-01T00:00:01.000000Z","type":"lifecycle","controller":"x","callback":"didAppear"}

      """
    let reader = JournalReader(bytes: Array(journal.utf8))
    var builder = TableBuilder(table: .visits, file: "n.ndjson")
    var rows: [TableRow] = []
    while let item = reader.next() { builder.consume(item, into: &rows) }
    builder.finish(into: &rows)
    #expect(builder.context.cells == RowContext(file: "n.ndjson").cells)
    let t = { (s: String) in Cell.timestamp((try? Timestamp(rfc3339: "2026-01-01T00:00:0\(s)Z")) ?? .modelEpoch) }
    expectRows(
      rows,
      [
        TableRow([
          .string("x"), .null, .integer(1), .integer(0), t("0.000"), .integer(1), t("0.500"), .number(500),
          .boolean(false), .boolean(true),
        ]),
        TableRow([
          .string("x"), .null, .integer(2), .integer(2), t("1.000"), .null, t("1.000"), .number(0), .boolean(true),
          .boolean(true),
        ]),
      ])
  }
}
