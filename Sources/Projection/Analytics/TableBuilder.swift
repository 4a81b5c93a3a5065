import Journal

/// Turns one journal, streamed item by item, into the rows of one ``Table``.
///
/// It keeps only what the table needs: nothing for `events`, one entry per
/// controller for `visits`, the model's state and the pending move for `moves`, the model's state for
/// `pans`, `check`'s ``JournalCheck`` for `findings`, and the counters of
/// ``StatsBuilder`` for `sessions`. Memory does not grow with the length of the journal.
///
/// ```swift
/// var builder = TableBuilder(table: .visits, file: "a.ndjson")  // Rendering's, which says the findings
/// var rows: [TableRow] = []
/// while let item = reader.next() { builder.consume(item, into: &rows) }
/// builder.finish(into: &rows)
/// builder.context.session  // the header's session id
/// ```
public struct TableBuilder {
  public let table: Table
  /// The common columns of this journal's rows: set from its header.
  public private(set) var context: RowContext
  /// How many times ``context`` changed (0 before the header, then 1): rows made
  /// before a change belong to the context before it.
  public private(set) var contextChanges = 0
  private var sawHeader = false
  private var header: SessionHeader?
  private var sawRecord = false
  /// Rows of findings before the first record, held so that they get the header's common
  /// columns (a journal's header is its first record); at most ``heldRowLimit``.
  private var held: [TableRow] = []
  private static let heldRowLimit = 1024
  private var lastTime: Timestamp?
  private var stats: StatsBuilder?
  private var visits = VisitTracker()
  private var moves = MoveTracker()
  private var screens = ScreenTracker()
  /// Steps of the screen sequence so far (`paths`).
  private var steps = 0
  private var state = State()
  private var check: JournalCheck?
  private var findings: [CheckFinding] = []
  /// The `message` of a finding's row: its words, which `Rendering` gives.
  private let message: @Sendable (CheckFinding) -> String

  /// - Parameters:
  ///   - table: the table to build.
  ///   - file: the journal's path, for the `file` column.
  ///   - message: a finding's words, for the `message` column of `findings`.
  public init(table: Table, file: String, message: @escaping @Sendable (CheckFinding) -> String) {
    self.table = table
    self.message = message
    self.context = RowContext(file: file)
    if table == .findings { check = JournalCheck() }
    if table == .sessions { stats = StatsBuilder(file: file) }
  }

  /// Takes the reader's next item; appends the rows it completes, in order.
  public mutating func consume(_ item: borrowing JournalItem, into rows: inout [TableRow]) {
    switch item {
    case .record(let record, let line, _):
      if table == .sessions { stats!.consume(item) }
      consume(record, line: line, into: &rows)
    case .diagnostic(let diagnostic):
      if table == .sessions { stats!.consume(item) }
      guard table == .findings else { return }
      check!.consume(diagnostic, into: &findings)
      if sawRecord || held.count >= Self.heldRowLimit {
        rows.append(contentsOf: held)
        held.removeAll()
        flushFindings(into: &rows)
      } else {
        var early: [TableRow] = []
        flushFindings(into: &early)
        held += early
      }
    }
  }

  private mutating func consume(_ record: Record, line: Int, into rows: inout [TableRow]) {
    lastTime = record.time
    if !sawRecord {
      sawRecord = true
      contextChanges += 1
      context.startTime = record.time
    }
    if !sawHeader, case .session(let header) = record.event {
      sawHeader = true
      contextChanges += 1
      self.header = header
      context.session = header.session
      context.app = header.app
      context.build = header.build
      context.device = header.device
    }
    if !held.isEmpty {
      rows.append(contentsOf: held)
      held.removeAll()
    }
    switch table {
    case .events:
      rows.append(Self.eventRow(record, line: line))
    case .visits:
      if let visit = visits.consume(record) { rows.append(Self.visitRow(visit)) }
    case .moves:
      reduce(into: &state, record)
      if let move = moves.consume(record, line: line, after: state) { rows.append(Self.moveRow(move, in: state)) }
    case .paths:
      if case .step(let step) = screens.consume(record) {
        steps += 1
        rows.append(Self.pathRow(step, line: line, number: steps))
      }
    case .pans:
      if case .pan(let pan) = record.event { rows.append(Self.panRow(pan, record, line: line, in: state)) }
      reduce(into: &state, record)
    case .findings:
      check!.consume(record, line: line, into: &findings)
      flushFindings(into: &rows)
    case .sessions:
      break
    }
  }

  /// Ends the journal: appends the rows only its end completes (open visits,
  /// the last move, the findings of the end, the session's row).
  public mutating func finish(into rows: inout [TableRow]) {
    rows.append(contentsOf: held)
    held.removeAll()
    switch table {
    case .events, .pans, .paths:
      break
    case .visits:
      for visit in visits.finish(lastTime: lastTime) { rows.append(Self.visitRow(visit)) }
    case .moves:
      if let move = moves.finish() { rows.append(Self.moveRow(move, in: state)) }
    case .findings:
      check!.finish(into: &findings)
      flushFindings(into: &rows)
    case .sessions:
      rows.append(Self.sessionRow(stats!.finish(), header: header))
    }
  }

  private mutating func flushFindings(into rows: inout [TableRow]) {
    guard !findings.isEmpty else { return }
    for finding in findings { rows.append(Self.findingRow(finding, message: message(finding))) }
    findings.removeAll(keepingCapacity: true)
  }

  // MARK: Rows

  /// The `events` row of a record (``Table/eventColumns``).
  static func eventRow(_ record: Record, line: Int) -> TableRow {
    var controller: ControllerID?
    var className: String?
    var from: ControllerID?
    var to: ControllerID?
    var direction: Direction?
    var presenter: ControllerID?
    var callback: Callback?
    var trigger: MoveTrigger?
    var animated: Bool?
    var touches: Int?
    var min: Int?
    var distance: Double?
    var velocity: Double?
    var outcome: PanOutcome?
    var label: String?
    var header: SessionHeader?
    var extra = record.extra
    switch record.event {
    case .session(let h): header = h
    case .alloc(let c, let cls): (controller, className) = (c, cls)
    case .root(let c), .dealloc(let c): controller = c
    case .link(let a, let d, let b): (from, direction, to) = (a, d, b)
    case .unlink(let a, let d): (from, direction) = (a, d)
    case .modal(let m, let p): (controller, presenter) = (m, p)
    case .touches(let c, let d, let n): (controller, direction, min) = (c, d, n)
    case .pan(let p):
      (controller, direction, touches) = (p.controller, p.direction, p.touches)
      (distance, velocity, outcome) = (p.distance, p.velocity, p.outcome)
    case .move(let m): (from, to, direction, trigger, animated) = (m.from, m.to, m.direction, m.trigger, m.animated)
    case .lifecycle(let c, let cb): (controller, callback) = (c, cb)
    case .mark(let l, let fields):
      label = l
      extra = fields + extra
    case .unknown: break
    }
    return TableRow([
      .integer(line), .integer(record.seq), .timestamp(record.time), .string(record.event.typeName),
      .id(controller), .string(className), .id(from), .id(to), .string(direction?.rawValue), .id(presenter),
      .string(callback?.rawValue), .string(trigger?.rawValue), animated.map(Cell.boolean) ?? .null,
      .integer(touches), .integer(min), distance.map(Cell.number) ?? .null, velocity.map(Cell.number) ?? .null,
      .string(outcome?.rawValue), .string(label), .integer(header?.version), .string(header?.device),
      .string(header?.profile), .string(header?.scenario), extra.isEmpty ? .null : .json(Self.jsonObject(extra)),
    ])
  }

  /// The `visits` row of a visit (``Table/visitColumns``).
  static func visitRow(_ visit: Visit) -> TableRow {
    TableRow([
      .id(visit.controller), .string(visit.className), .integer(visit.number), .integer(visit.startSeq),
      .timestamp(visit.startTime), .integer(visit.endSeq), .timestamp(visit.endTime),
      .number(visit.dwellMilliseconds), .boolean(visit.isOpen), .boolean(visit.isComplete),
    ])
  }

  /// The `moves` row of a move (``Table/moveColumns``), the classes from `state`
  /// (a controller's class never changes, so any later state has it).
  static func moveRow(_ summary: MoveSummary, in state: State) -> TableRow {
    let move = summary.move
    return TableRow([
      .integer(summary.line), .integer(summary.seq), .timestamp(summary.time), .id(move.from), .id(move.to),
      .string(move.direction.rawValue), .string(move.trigger.rawValue), .boolean(move.animated),
      .boolean(summary.completedAt != nil), summary.durationMilliseconds.map(Cell.number) ?? .null,
      .string(state[controller: move.from]?.className), .string(state[controller: move.to]?.className),
    ])
  }

  /// The `paths` row of a step of the screen sequence (``Table/pathColumns``).
  static func pathRow(_ step: ScreenStep, line: Int, number: Int) -> TableRow {
    TableRow([
      .integer(line), .integer(step.seq), .timestamp(step.time), .integer(number), .id(step.controller),
      .string(step.className), .id(step.previous), .string(step.previousClass), .string(step.trigger?.rawValue),
    ])
  }

  /// The `pans` row of a pan, with the state before it (``Table/panColumns``).
  static func panRow(_ pan: Pan, _ record: Record, line: Int, in state: State) -> TableRow {
    let controller = state[controller: pan.controller]
    return TableRow([
      .integer(line), .integer(record.seq), .timestamp(record.time), .id(pan.controller),
      .string(pan.direction.rawValue), .integer(pan.touches), .integer(controller?.minimumTouches[pan.direction]),
      .number(pan.distance), .number(pan.velocity), .string(pan.outcome.rawValue),
      .id(state.neighbour(of: pan.controller, pan.direction)),
    ])
  }

  /// The `findings` row of a finding (``Table/findingColumns``).
  static func findingRow(_ diagnostic: CheckFinding, message: String) -> TableRow {
    var controllers: [UInt8] = [UInt8(ascii: "[")]
    for (i, id) in diagnostic.controllers.enumerated() {
      if i > 0 { controllers.append(UInt8(ascii: ",")) }
      JSONWriter.appendString(id.rawValue, to: &controllers)
    }
    controllers.append(UInt8(ascii: "]"))
    return TableRow([
      .integer(diagnostic.line), .integer(diagnostic.column), .integer(diagnostic.seq), .string(diagnostic.rule.id),
      .string(diagnostic.severity.rawValue), .string(message),
      .json(String(decoding: controllers, as: UTF8.self)), .integer(diagnostic.move),
    ])
  }

  /// The `sessions` row of a journal's stats and header (``Table/sessionColumns``).
  static func sessionRow(_ stats: SessionStats, header: SessionHeader?) -> TableRow {
    func counts(_ pairs: [(String, Int)]) -> Cell {
      var json = JSONBuffer()
      json.open("{")
      json.counts(pairs)
      json.close("}")
      return .json(json.text)
    }
    return TableRow([
      .string(header?.device), .string(header?.profile), .string(header?.scenario),
      stats.firstTime.map(Cell.timestamp) ?? .null, stats.lastTime.map(Cell.timestamp) ?? .null,
      .number(stats.durationMilliseconds), .integer(stats.events),
      counts(stats.typeNames.map { ($0, stats.eventsByType[$0] ?? 0) }), .integer(stats.findings),
      .integer(stats.errors), .integer(stats.warnings),
      counts(stats.ruleIDs.map { ($0, stats.findingsByRule[$0] ?? 0) }),
    ])
  }

  /// `{"key":value,...}` with the values verbatim.
  static func jsonObject(_ fields: [Field]) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    for (i, field) in fields.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      JSONWriter.appendString(field.key, to: &out)
      out.append(UInt8(ascii: ":"))
      out.append(contentsOf: field.value.text.utf8)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }
}
