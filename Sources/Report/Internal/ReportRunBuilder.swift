import Journal
import Projection
import Rendering

/// Folds a window of a journal once and writes the page's data block for it
/// (the shape is described in `docs/report.md`).
///
/// Implementation note: the block is written into byte buffers while the fold
/// runs, and its size is linear in the events whatever the number of
/// controllers: a keyframe holds the alive controllers' rows and is written
/// when the deltas since the last one outweigh it; the map's layout is a
/// delta (what moved, appeared or went) after each structural event, whole
/// only when the deltas since the last whole one outweigh it; every string
/// (ids, classes, sentences as templates, summaries, messages) is written once
/// in one table and referred to by its index. What is kept while writing is
/// the alive state, the output, and one lane per controller.
///
/// It does not fold: it reads the states of a fold that runs beside it, in
/// three steps: ``begin(_:)`` with the state folded up to the window's first
/// event, ``step(_:_:)`` with the state once each of the window's events is
/// folded, and ``finish(_:records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``
/// with the state after the window's last event.
/// ``build(records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``
/// folds the records itself and steps through them; `ReportRun.read` steps
/// through the checker's fold, on the checker's thread (``ReportFold``).
///
/// The strings that take longest to make and do not depend on what comes
/// after them (the transitions' summaries, the sentences that are not
/// templates) are made on a thread of their own while the events are
/// stepped (``MadeElsewhere``), and the columns of plain integers are written
/// on one while ``finish(_:records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``
/// writes the rest (``EventColumns``).
struct ReportRunBuilder: Sendable {
  let filter: EventSelection
  /// The records, their lines and the window, for ``finish(_:records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``.
  var records: [Record] = []
  var lines: [Int] = []
  var window: Range<Int> = 0..<0

  /// A controller's row in the state panel: what the page shows of it.
  struct Row: Equatable {
    var phase: Int
    var loadCount: Int
    var isModal: Bool
    var presenter: Int32
  }

  /// What the page shows of the transition after an event: which one (an
  /// index in the transition table), how many arrivals so far, the missing
  /// expected callbacks as bits of ``Transition/expected``, and whether it is in flight.
  struct TransitionStatus: Equatable {
    var index: Int
    var arrived: Int
    var missing: Int
    var inFlight: Bool
  }

  /// The events stepped so far.
  var stepped = 0
  /// The focus's position after the event stepped last (or before the first).
  private var focus: Int32? = nil
  // The columns and buffers written as the events are stepped.
  private var types: [Int] = []
  private var laneA: [Int32] = []
  private var laneB: [Int32] = []
  var texts: [Int] = []
  private var deltas = JSONBuffer()
  private var keyframes = JSONBuffer()
  private var moves = 0
  private var changed: [Int32] = []
  private var named: [Int32] = []
  /// Bytes of deltas written since the last keyframe.
  private var deltaBytes = 0
  /// Lane of each allocation position, -1 for none yet.
  var laneOf: [Int32] = []
  /// Allocation position of each lane.
  var lanePositions: [Int32] = []
  var rows: [Row?] = []
  /// The lanes with a row (alive controllers), in no particular order, and each lane's slot in it.
  private var rowLanes = SlotList()
  var transitions: [Transition] = []
  /// The transitions' summaries, made on another thread as they come (``MadeElsewhere``).
  var summaries = MadeElsewhere<Transition, String> { $0.summary(.unicode) }
  /// The sentences that are not templates (``sentence(_:_:a:b:)``), made on another thread
  /// and put in `texts` at the end.
  var sentences = MadeElsewhere<PendingSentence, (event: Int, text: SentenceText)> {
    ($0.event, SentenceText($0.value, first: $0.first, second: $0.second))
  }
  /// The last transition's seq, kind and arrivals (when `transitions` is not empty).
  var lastTransition: (seq: Int, kind: Transition.Kind, arrivals: Int) = (0, .move, 0)
  var status: TransitionStatus? = nil
  var strings = ReportStrings()
  /// Sentence templates (indexes in `strings`) by what decides them.
  var templates: [TemplateKey: Int] = [:]
  var map = ReportMapTracker()
  var mapChanges = ReportMapTracker.Changes()
  var layoutCount = 0
  /// Bytes of layout deltas written since the last whole layout.
  var layoutDeltaBytes = 0
  var layouts = JSONBuffer()

  /// - Parameter events: how many events the window holds, if known (to reserve the columns).
  init(filter: EventSelection, events: Int = 0) {
    self.filter = filter
    layouts.htmlSafe = true
    types.reserveCapacity(events)
    laneA.reserveCapacity(events)
    laneB.reserveCapacity(events)
    texts.reserveCapacity(events)
  }

  /// The lane of allocation position `p`, given one on first use.
  mutating func lane(_ p: Int32) -> Int32 {
    let i = Int(p)
    if i >= laneOf.count { laneOf.append(contentsOf: repeatElement(-1, count: i + 1 - laneOf.count)) }
    if laneOf[i] < 0 {
      laneOf[i] = Int32(lanePositions.count)
      lanePositions.append(p)
      rows.append(nil)
      rowLanes.grow(by: 1)
    }
    return laneOf[i]
  }

  /// The lane of `id`'s position in `state` (-1: none).
  mutating func lane(of id: ControllerID?, in state: State) -> Int32 {
    guard let id, let p = state.position(of: id) else { return -1 }
    return lane(p)
  }

  private mutating func row(at p: Int32, in state: State) -> Row? {
    let controller = state.controller(at: p)
    guard controller.isAlive else { return nil }
    return Row(
      phase: ControllerState.Phase.allCases.firstIndex(of: controller.phase) ?? 0, loadCount: controller.loadCount,
      isModal: controller.isModal,
      presenter: lane(of: controller.presenter, in: state))
  }

  private mutating func setRow(_ l: Int32, _ row: Row?) {
    let i = Int(l)
    rows[i] = row
    if row != nil { rowLanes.insert(l) } else { rowLanes.remove(l) }
  }

  /// Folds `records` (the window's, and every one before it) and writes the block.
  mutating func build(
    records: [Record], lines: [Int], window: Range<Int>, name: String, findings: [CheckFinding], note: String?,
    totalEvents: Int, lineAfterRecords: Int?
  ) -> [[UInt8]] {
    var state = State()
    for i in 0..<window.lowerBound { _ = reduce(into: &state, records[i]) }
    begin(state)
    for i in window {
      _ = reduce(into: &state, records[i])
      step(records[i], state)
    }
    return finish(
      state, records: records, lines: lines, window: window, name: name, findings: findings, note: note,
      totalEvents: totalEvents, lineAfterRecords: lineAfterRecords)
  }

  /// Starts the window: `state` is the fold of every event before it.
  mutating func begin(_ state: State) {
    for (p, controller) in state.controllers.enumerated() where controller.isAlive {
      let l = lane(Int32(p))
      setRow(l, row(at: Int32(p), in: state))
    }
    deltas.open("[")
    keyframes.open("[")
    layouts.open("[")
    focus = state.focusPosition
  }

  /// Takes the window's next event, `record`, once `state` is the fold of it and of every event before it.
  mutating func step(_ record: Record, _ state: State) {
    let w = stepped
    stepped += 1
    let focusBefore = focus
    // Written as locals: `writeRow(_:to: &self.deltas)` would copy `self` (and the buffer with it) for the call.
    var deltas = JSONBuffer()
    var keyframes = JSONBuffer()
    swap(&deltas, &self.deltas)
    swap(&keyframes, &self.keyframes)
    defer {
      swap(&deltas, &self.deltas)
      swap(&keyframes, &self.keyframes)
    }

    // The positions of the controllers the event names, looked up once.
    let ids = record.event.controllers
    named.removeAll(keepingCapacity: true)
    for id in ids { named.append(state.position(of: id) ?? -1) }

    // What the event is, for the lanes and the log.
    let (type, a, b) = describe(record.event, named)
    if type == Self.moveType { moves += 1 }
    types.append(type)
    laneA.append(a)
    laneB.append(b)
    texts.append(sentence(record.event, ids, a: a, b: type == Self.lifecycleType ? -1 : b))

    // The delta: rows of the controllers the event names, focus, transition, layout.
    changed.removeAll(keepingCapacity: true)
    for p in named where p >= 0 {
      let l = lane(p)
      let new = row(at: p, in: state)
      if rows[Int(l)] != new {
        setRow(l, new)
        if !changed.contains(l) { changed.append(l) }
      }
    }
    let newStatus = transitionStatus(state, starts: Self.mayStartATransition(record.event))
    let statusChanged = newStatus != status
    status = newStatus
    var layoutIndex: Int? = nil
    if w == 0 {
      layoutIndex = updateLayout(state, nil, [])
    } else if record.event.mapChange == .layout {
      layoutIndex = updateLayout(state, record.event, named)
    }
    focus = state.focusPosition
    let focusChanged = focus != focusBefore

    let before = deltas.bytes.count
    deltas.element()
    if changed.isEmpty && !statusChanged && layoutIndex == nil && !focusChanged {
      deltas.int(0)
    } else {
      deltas.open("{")
      if !changed.isEmpty {
        deltas.element()
        deltas.raw(#""r":"#)
        deltas.open("[")
        for l in changed { writeRow(l, to: &deltas) }
        deltas.close("]")
      }
      if focusChanged {
        deltas.element()
        deltas.raw(#""f":"#)
        deltas.int(Int(focus.map { lane($0) } ?? -1))
      }
      if statusChanged {
        deltas.element()
        deltas.raw(#""t":"#)
        writeStatus(to: &deltas)
      }
      if let layoutIndex {
        deltas.element()
        deltas.raw(#""l":"#)
        deltas.int(layoutIndex)
      }
      deltas.close("}")
    }
    deltaBytes += deltas.bytes.count - before

    // A keyframe when the deltas since the last one outweigh it (placed by size, not by count).
    if w == 0 || deltaBytes >= Self.keyframeBytes(rows: rowLanes.members.count) {
      deltaBytes = 0
      keyframes.element()
      keyframes.open("{")
      keyframes.element()
      keyframes.raw(#""i":"#)
      keyframes.int(w)
      keyframes.element()
      keyframes.raw(#""r":"#)
      keyframes.open("[")
      for l in rowLanes.members { writeRow(l, to: &keyframes) }
      keyframes.close("]")
      keyframes.element()
      keyframes.raw(#""f":"#)
      keyframes.int(Int(focus.map { lane($0) } ?? -1))
      keyframes.element()
      keyframes.raw(#""t":"#)
      writeStatus(to: &keyframes)
      keyframes.element()
      keyframes.raw(#""l":"#)
      keyframes.int(layoutCount - 1)
      keyframes.close("}")
    }
  }

  /// Writes the block once ``begin(_:)`` ran and every event of `window` (indexes
  /// in `records`) was stepped, `state` being the fold up to the window's last event.
  /// - Returns: the block in pieces, in order (the page writes them one after the other: the
  ///   large ones, the columns, deltas, layouts and strings, are not copied into one more buffer).
  mutating func finish(
    _ state: State, records: [Record], lines: [Int], window: Range<Int>, name: String, findings: [CheckFinding],
    note: String?,
    totalEvents: Int, lineAfterRecords: Int?
  ) -> [[UInt8]] {
    precondition(stepped == window.count, "every event of the window stepped")
    self.records = records
    self.lines = lines
    self.window = window
    deltas.close("]")
    keyframes.close("]")
    layouts.close("]")

    placeSentences()
    // The columns of plain integers, one value per event, are written on another core
    // while this one writes the rest (the transitions, findings and lanes).
    let columns = EventColumns(
      records: records, lines: lines, window: window, types: types, laneA: laneA, laneB: laneB, texts: texts)

    // Everything that may give a controller a lane is written before the lanes are.
    let findingLanes = findings.map { lane(of: $0.controllers.first, in: state) }
    var transitionsJSON = JSONBuffer()
    writeTransitions(state, to: &transitionsJSON)
    var findingsJSON = JSONBuffer()
    findingsJSON.htmlSafe = true
    findingsJSON.open("{")
    writeFindings(
      findings, lanes: findingLanes, whole: window.count == totalEvents, lineAfterRecords: lineAfterRecords,
      to: &findingsJSON)
    var lanesJSON = JSONBuffer()
    lanesJSON.open("{")
    writeLanes(state, to: &lanesJSON)

    var pieces: [[UInt8]] = []
    var json = JSONBuffer()
    json.htmlSafe = true
    json.open("{")
    json.key("file")
    json.string(displayText(name, limit: .max))
    json.key("header")
    writeHeader(state, to: &json)
    json.key("totalEvents")
    json.int(totalEvents)
    json.key("moves")
    json.int(moves)
    json.key("note")
    json.string(note)
    writeFilter(state, to: &json)
    json.key("types")
    json.strings(Event.knownTypeNames + ["unknown"])
    json.key("callbacks")
    json.strings(Callback.allCases.map(\.rawValue))
    json.key("phases")
    json.strings(ControllerState.Phase.allCases.map(\.rawValue))
    Self.piece(Self.members(&lanesJSON), after: &json, in: &pieces)
    let first = window.lowerBound
    json.key("seq0")
    json.int(window.isEmpty ? 0 : records[first].seq)
    json.key("line0")
    json.int(window.isEmpty ? 0 : lines[first])
    json.key("t0")
    json.int(window.isEmpty ? 0 : Int(records[first].time.microseconds))
    for (key, bytes) in zip(EventColumns.keys, columns.wait()) {
      json.key(key)
      Self.piece(bytes, after: &json, in: &pieces)
    }
    json.key("keys")
    Self.piece(keyframes.take(), after: &json, in: &pieces)
    json.key("d")
    Self.piece(deltas.take(), after: &json, in: &pieces)
    json.key("layouts")
    Self.piece(layouts.take(), after: &json, in: &pieces)
    json.key("transitions")
    Self.piece(transitionsJSON.take(), after: &json, in: &pieces)
    Self.piece(Self.members(&findingsJSON), after: &json, in: &pieces)
    json.key("str")
    Self.piece(strings.take(), after: &json, in: &pieces)
    json.close("}")
    pieces.append(json.take())
    return pieces
  }

  /// Appends what `json` holds so far (its brackets still open), then `bytes`, to `pieces`.
  private static func piece(_ bytes: [UInt8], after json: inout JSONBuffer, in pieces: inout [[UInt8]]) {
    json.drain { pieces.append($0) }
    pieces.append(bytes)
  }

  /// The members written into `buffer` after its `{`, with a comma before them
  /// (they follow other members of the block).
  private static func members(_ buffer: inout JSONBuffer) -> [UInt8] {
    var bytes = buffer.take()
    bytes[0] = UInt8(ascii: ",")
    return bytes
  }

  /// The size of a keyframe of `rows` rows, roughly: a keyframe is written
  /// when the deltas since the last one are as large, so keyframes never
  /// outweigh the deltas and the page replays at most about that many bytes.
  private static func keyframeBytes(rows: Int) -> Int { 64 + rows * 16 }

  // MARK: Rows

  private func writeRow(_ l: Int32, to json: inout JSONBuffer) {
    json.element()
    json.open("[")
    json.element()
    json.int(Int(l))
    if let row = rows[Int(l)] {
      // In the declared order, without an array per row (a page writes hundreds of thousands).
      for field in ReportData.Row.allCases.dropFirst() {
        json.element()
        switch field {
        case .lane: json.int(Int(l))
        case .phase: json.int(row.phase)
        case .loads: json.int(row.loadCount)
        case .modal: json.int(row.isModal ? 1 : 0)
        case .presenter: json.int(Int(row.presenter))
        }
      }
    }
    json.close("]")
  }

  /// The status after the event just folded.
  ///
  /// Implementation note: read in place, and the transition copied only when
  /// it changed (a new one or a new arrival): the status is taken after every
  /// event, and a copy (retaining its ids) with its arrivals and missing
}
