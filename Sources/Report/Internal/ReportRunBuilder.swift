import Dispatch
import Journal
import Projection
import Rendering
import Synchronization

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
/// It runs in three steps: ``begin()`` with the state folded up to the
/// window's first event, ``step(_:)`` after each of the window's events has
/// been folded into ``state``, and ``finish(records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``.
/// ``build(records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``
/// folds the records and steps through them; `ReportRun.read` folds ``state``
/// and steps as the journal is read, on the thread that writes the page,
/// while the checker (with a fold of its own) runs on another one.
///
/// The strings that take longest to make and do not depend on what comes
/// after them (the transitions' summaries, the sentences that are not
/// templates) are made on a thread of their own while the events are
/// stepped (``MadeElsewhere``), and the columns of plain integers are written
/// on one while ``finish(records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``
/// writes the rest (``EventColumns``).
struct ReportRunBuilder {
  let filter: EventSelection
  /// The records, their lines and the window, for ``finish(records:lines:window:name:findings:note:totalEvents:lineAfterRecords:)``.
  private var records: [Record] = []
  private var lines: [Int] = []
  private var window: Range<Int> = 0..<0

  /// A controller's row in the state panel: what the page shows of it.
  private struct Row: Equatable {
    var phase: Int
    var loadCount: Int
    var isModal: Bool
    var presenter: Int32
  }

  /// What the page shows of the transition after an event: which one (an
  /// index in the transition table), how many arrivals so far, the missing
  /// expected callbacks as bits of ``Transition/expected``, and whether it is in flight.
  private struct TransitionStatus: Equatable {
    var index: Int
    var arrived: Int
    var missing: Int
    var inFlight: Bool
  }

  /// The model's state after the event stepped last.
  var state = State()
  /// The events stepped so far.
  private(set) var stepped = 0
  /// The focus's position after the event stepped last (or before the first).
  private var focus: Int32? = nil
  // The columns and buffers written as the events are stepped.
  private var types: [Int] = []
  private var laneA: [Int32] = []
  private var laneB: [Int32] = []
  private var texts: [Int] = []
  private var deltas = JSONBuffer()
  private var keyframes = JSONBuffer()
  private var moves = 0
  private var changed: [Int32] = []
  private var named: [Int32] = []
  /// Bytes of deltas written since the last keyframe.
  private var deltaBytes = 0
  /// Lane of each allocation position, -1 for none yet.
  private var laneOf: [Int32] = []
  /// Allocation position of each lane.
  private var lanePositions: [Int32] = []
  private var rows: [Row?] = []
  /// The lanes with a row (alive controllers), in no particular order, and each lane's slot in it.
  private var rowLanes: [Int32] = []
  private var rowSlot: [Int32] = []
  private var transitions: [Transition] = []
  /// The transitions' summaries, made on another thread as they come (``MadeElsewhere``).
  private var summaries = MadeElsewhere<Transition, String> { $0.summary(.unicode) }
  /// The sentences that are not templates (``sentence(_:_:a:b:)``), made on another thread
  /// and put in `texts` at the end.
  private var sentences = MadeElsewhere<PendingSentence, (event: Int, text: SentenceText)> {
    ($0.event, SentenceText($0.value, first: $0.first, second: $0.second))
  }
  /// The last transition's seq, kind and arrivals (when `transitions` is not empty).
  private var lastTransition: (seq: Int, kind: Transition.Kind, arrivals: Int) = (0, .move, 0)
  private var status: TransitionStatus? = nil
  private var strings = ReportStrings()
  /// Sentence templates (indexes in `strings`) by what decides them.
  private var templates: [TemplateKey: Int] = [:]
  private var map = ReportMapTracker()
  private var mapChanges = ReportMapTracker.Changes()
  private var layoutCount = 0
  /// Bytes of layout deltas written since the last whole layout.
  private var layoutDeltaBytes = 0
  private var layouts = JSONBuffer()

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
  private mutating func lane(_ p: Int32) -> Int32 {
    let i = Int(p)
    if i >= laneOf.count { laneOf.append(contentsOf: repeatElement(-1, count: i + 1 - laneOf.count)) }
    if laneOf[i] < 0 {
      laneOf[i] = Int32(lanePositions.count)
      lanePositions.append(p)
      rows.append(nil)
      rowSlot.append(-1)
    }
    return laneOf[i]
  }

  private mutating func lane(of id: ControllerID?) -> Int32 {
    guard let id, let p = state.position(of: id) else { return -1 }
    return lane(p)
  }

  private mutating func row(at p: Int32) -> Row? {
    let controller = state.controller(at: p)
    guard controller.isAlive else { return nil }
    return Row(
      phase: ControllerState.Phase.allCases.firstIndex(of: controller.phase) ?? 0, loadCount: controller.loadCount,
      isModal: controller.isModal,
      presenter: lane(of: controller.presenter))
  }

  private mutating func setRow(_ l: Int32, _ row: Row?) {
    let i = Int(l)
    rows[i] = row
    if row != nil && rowSlot[i] < 0 {
      rowSlot[i] = Int32(rowLanes.count)
      rowLanes.append(l)
    } else if row == nil && rowSlot[i] >= 0 {
      let slot = Int(rowSlot[i])
      let last = rowLanes.removeLast()
      if last != l {
        rowLanes[slot] = last
        rowSlot[Int(last)] = Int32(slot)
      }
      rowSlot[i] = -1
    }
  }

  /// Folds `records` (the window's, and every one before it) and writes the block.
  mutating func build(
    records: [Record], lines: [Int], window: Range<Int>, name: String, findings: [CheckFinding], note: String?,
    totalEvents: Int, lineAfterRecords: Int?
  ) -> [[UInt8]] {
    for i in 0..<window.lowerBound { _ = reduce(into: &state, records[i]) }
    begin()
    for i in window {
      _ = reduce(into: &state, records[i])
      step(records[i])
    }
    return finish(
      records: records, lines: lines, window: window, name: name, findings: findings, note: note,
      totalEvents: totalEvents, lineAfterRecords: lineAfterRecords)
  }

  /// Starts the window: ``state`` is the fold of every event before it.
  mutating func begin() {
    for (p, controller) in state.controllers.enumerated() where controller.isAlive {
      let l = lane(Int32(p))
      setRow(l, row(at: Int32(p)))
    }
    deltas.open("[")
    keyframes.open("[")
    layouts.open("[")
    focus = state.focusPosition
  }

  /// Takes the window's next event, `record`, once ``state`` is the fold of it and of every event before it.
  mutating func step(_ record: Record) {
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
      let new = row(at: p)
      if rows[Int(l)] != new {
        setRow(l, new)
        if !changed.contains(l) { changed.append(l) }
      }
    }
    let newStatus = transitionStatus(starts: Self.mayStartATransition(record.event))
    let statusChanged = newStatus != status
    status = newStatus
    var layoutIndex: Int? = nil
    if w == 0 {
      layoutIndex = updateLayout(nil, [])
    } else if record.event.mapChange == .layout {
      layoutIndex = updateLayout(record.event, named)
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
    if w == 0 || deltaBytes >= Self.keyframeBytes(rows: rowLanes.count) {
      deltaBytes = 0
      keyframes.element()
      keyframes.open("{")
      keyframes.element()
      keyframes.raw(#""i":"#)
      keyframes.int(w)
      keyframes.element()
      keyframes.raw(#""r":"#)
      keyframes.open("[")
      for l in rowLanes { writeRow(l, to: &keyframes) }
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

  /// Writes the block once ``begin()`` ran and every event of `window` (indexes
  /// in `records`) was stepped, ``state`` being the fold up to the window's last event.
  /// - Returns: the block in pieces, in order (the page writes them one after the other: the
  ///   large ones, the columns, deltas, layouts and strings, are not copied into one more buffer).
  mutating func finish(
    records: [Record], lines: [Int], window: Range<Int>, name: String, findings: [CheckFinding], note: String?,
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
    let findingLanes = findings.map { lane(of: $0.controllers.first) }
    var transitionsJSON = JSONBuffer()
    writeTransitions(to: &transitionsJSON)
    var findingsJSON = JSONBuffer()
    findingsJSON.htmlSafe = true
    findingsJSON.open("{")
    writeFindings(
      findings, lanes: findingLanes, whole: window.count == totalEvents, lineAfterRecords: lineAfterRecords,
      to: &findingsJSON)
    var lanesJSON = JSONBuffer()
    lanesJSON.open("{")
    writeLanes(to: &lanesJSON)

    var pieces: [[UInt8]] = []
    var json = JSONBuffer()
    json.htmlSafe = true
    json.open("{")
    json.key("file")
    json.string(displayText(name, limit: .max))
    json.key("header")
    writeHeader(to: &json)
    json.key("totalEvents")
    json.int(totalEvents)
    json.key("moves")
    json.int(moves)
    json.key("note")
    json.string(note)
    writeFilter(to: &json)
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

  // MARK: Events

  private static let moveType = Event.Kind.move.index
  private static let lifecycleType = Event.Kind.lifecycle.index

  /// The event's type code (its ``Event/Kind/index``, or the count of kinds for
  /// an unknown type) and the two numbers the lanes draw it with: for a
  /// callback its lane and the callback, for a move the two lanes, else the
  /// lanes of the first two controllers it names (-1 for none).
  private mutating func describe(_ event: Event, _ positions: [Int32]) -> (Int, Int32, Int32) {
    let type = event.kind?.index ?? Event.Kind.allCases.count
    let a = positions.first.map { $0 >= 0 ? lane($0) : -1 } ?? -1
    switch event {
    case .lifecycle(_, let callback):
      return (type, a, Int32(callback.index))
    case .unknown:
      return (Event.knownTypeNames.count, -1, -1)
    case .session, .alloc, .root, .link, .unlink, .modal, .touches, .pan, .move, .dealloc, .mark:
      return (type, a, positions.count > 1 && positions[1] >= 0 ? lane(positions[1]) : -1)
    }
  }

  /// The event's `log` sentence as an index in the string table: a template
  /// where the names of lanes `a` and `b` are ``ReportStrings/first`` and
  /// ``ReportStrings/second`` (the page puts the lanes' names back), so that
  /// the sentences of many controllers share one string; `-1 - index` for a
  /// sentence written whole (one whose other text holds those characters).
  ///
  /// Implementation note: the template is the sentence of the event with
  /// placeholder ids, and a sentence shows an id only as `Glyphs.unicode.id`,
  /// the lane's name on the page (`displayText`); so the template is built
  /// instead of the sentence, and never compared with it here (`ReportTests`
  /// reads every sentence back, as the page does, against `Event.sentence`).
  ///
  /// A template that names every controller of its event by a placeholder
  /// depends only on the event's other fields: it is looked up by those
  /// (``TemplateKey``) and made once (a sentence made, checked and hashed for
  /// every event would weigh on writing a churn-shaped page). The others (a
  /// pan's, nearly every one new) are made on another thread, and `0` stands
  /// in `texts` until ``placeSentences()`` puts their indexes there.
  private mutating func sentence(_ event: Event, _ ids: [ControllerID], a: Int32, b: Int32) -> Int {
    let first = a >= 0 && !ids.isEmpty
    let second = b >= 0 && ids.count > 1 && ids[1] != ids[0]
    let key = first && (ids.count == 1 || second) ? TemplateKey(event) : nil
    if let key, let known = templates[key] { return known }
    guard let key else {
      // Made on another thread; its index is put in place at the end (``placeSentences()``).
      sentences.add(PendingSentence(event: stepped - 1, value: event, first: first, second: second))
      return 0
    }
    let made = SentenceText(event, first: first, second: second)
    let index = strings.index(made.text)
    if made.isTemplate { templates[key] = index }
    return made.index(index)
  }

  /// Puts the sentences made on another thread in the string table and their indexes in `texts`.
  private mutating func placeSentences() {
    for (event, made) in sentences.all() { texts[event] = made.index(strings.index(made.text)) }
  }

  /// An event whose sentence has no ``TemplateKey``, to be made elsewhere.
  private struct PendingSentence: Sendable {
    /// Its index in the window.
    var event: Int
    var value: Event
    var first: Bool
    var second: Bool
  }

  /// An event's sentence as the string table holds it: a template (its lanes
  /// `a` and `b` as placeholders, when `first` and `second` say they have
  /// lanes) when it has exactly those placeholders, else the whole sentence.
  private struct SentenceText: Sendable {
    var text: String
    var isTemplate: Bool
    /// A whole sentence whose own text holds the placeholders' characters (the page shows it as written).
    var isEscaped: Bool

    init(_ event: Event, first: Bool, second: Bool) {
      if first || second,
        let template = event.replacingControllers(
          first ? ReportStrings.first : nil, second ? ReportStrings.second : nil)?.sentence,
        ReportStrings.placeholders(template) == (first ? 1 : 0) + (second ? 1 : 0)
      {
        (text, isTemplate, isEscaped) = (template, true, false)
      } else {
        text = event.sentence
        (isTemplate, isEscaped) = (false, ReportStrings.placeholders(text) > 0)
      }
    }

    /// What `texts` holds for it, given its index in the string table: `-1 - index` when escaped.
    func index(_ index: Int) -> Int { isEscaped ? -1 - index : index }
  }

  /// What decides the sentence template of an event whose every controller is
  /// a placeholder: its kind and its other fields (nil for an event with free
  /// text besides its ids, whose template is made each time).
  private struct TemplateKey: Hashable {
    var kind: Int
    var a = 0
    var b = 0
    var c = 0

    init?(_ event: Event) {
      switch event {
      case .lifecycle(_, let callback):
        kind = 0
        a = callback.index
      case .root: kind = 1
      case .dealloc: kind = 2
      case .link(_, let direction, _):
        kind = 3
        a = direction.index
      case .unlink(_, let direction):
        kind = 4
        a = direction.index
      case .modal: kind = 5
      case .touches(_, let direction, let min):
        kind = 6
        a = direction.index
        b = min
      case .move(let move):
        kind = 7
        a = move.direction.index
        b = move.trigger.index
        c = move.animated ? 1 : 0
      // A pan's distance and velocity make nearly every one's sentence new.
      case .session, .alloc, .pan, .mark, .unknown: return nil
      }
    }
  }

  // MARK: Rows and transitions

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
  /// callbacks made as lists each time would weigh on a churn-shaped page.
  private mutating func transitionStatus(starts: Bool) -> TransitionStatus? {
    guard let count = state.transition?.arrivalCount, let seq = state.transition?.seq,
      let kind = state.transition?.kind
    else { return nil }
    // The latest one goes on (new arrivals) unless a move or a root that starts one (`starts`)
    // took its place with the same seq (a repeated seq): then that one is a transition of its own.
    let last = transitions.count - 1
    var isLatest = last >= 0 && lastTransition.seq == seq && lastTransition.kind == kind
    if isLatest && starts {
      isLatest =
        state.transition?.from == transitions[last].from && state.transition?.to == transitions[last].to
        && state.transition?.direction == transitions[last].direction
        && state.transition?.trigger == transitions[last].trigger
        && state.transition?.animated == transitions[last].animated
    }
    if isLatest {
      // Arrivals only grow while a transition is the latest: no new arrival, no change.
      if let status, lastTransition.arrivals == count { return status }
    }
    guard let transition = state.transition else { return nil }
    if isLatest {
      transitions[last] = transition
    } else {
      transitions.append(transition)
      // Its summary does not depend on the arrivals still to come: made now, elsewhere.
      summaries.add(transition)
    }
    lastTransition = (seq, kind, count)
    return TransitionStatus(
      index: transitions.count - 1, arrived: count, missing: transition.missingExpectedBits,
      inFlight: !transition.isComplete)
  }

  /// Whether the fold may start a transition at `event` (only a move or a root does).
  private static func mayStartATransition(_ event: Event) -> Bool {
    switch event {
    case .move, .root: true
    case .session, .alloc, .link, .unlink, .modal, .touches, .pan, .lifecycle, .dealloc, .mark, .unknown: false
    }
  }

  private func writeStatus(to json: inout JSONBuffer) {
    guard let status else { return json.null() }
    json.open("[")
    for field in ReportData.Status.allCases {
      json.element()
      switch field {
      case .transition: json.int(status.index)
      case .arrived: json.int(status.arrived)
      case .missing: json.int(status.missing)
      case .inFlight: json.int(status.inFlight ? 1 : 0)
      }
    }
    json.close("]")
  }

  /// Every transition: `[summary, fromLane, toLane, arrivals, expected]`
  /// (``ReportData/Transition``), the callbacks as `[lane, callback]` pairs flattened.
  private mutating func writeTransitions(to json: inout JSONBuffer) {
    let texts = summaries.all()
    precondition(texts.count == transitions.count, "a summary for every transition")
    json.open("[")
    for (transition, text) in zip(transitions, texts) {
      json.element()
      json.open("[")
      json.element()
      json.int(strings.index(text))
      // Every arrival but a broken transition's later ones is on one of its two ends: each looked up once.
      let from = lane(of: transition.from)
      let to = lane(of: transition.to)
      json.element()
      json.int(Int(from))
      json.element()
      json.int(Int(to))
      for list in [transition.arrivals, transition.expected] {
        json.element()
        json.open("[")
        for arrival in list {
          json.element()
          let controller = arrival.controller
          json.int(Int(controller == transition.to ? to : controller == transition.from ? from : lane(of: controller)))
          json.element()
          json.int(arrival.callback.index)
        }
        json.close("]")
      }
      json.close("]")
    }
    json.close("]")
  }

  // MARK: Layouts

  /// Brings the layout up to the state after `event` (nil: lays it out from
  /// nothing; `named`: the positions of the controllers it names, -1 for
  /// none) and appends what changed to `layouts`: a delta, or the whole
  /// layout when the deltas since the last whole one outweigh it.
  /// - Returns: the new layout's index, nil when unchanged.
  private mutating func updateLayout(_ event: Event?, _ named: [Int32]) -> Int? {
    mapChanges.removeAll()
    map.update(state, event: event, named: named, into: &mapChanges)
    guard event == nil || !mapChanges.isEmpty else { return nil }
    let whole =
      event == nil
      || layoutDeltaBytes >= 32 + 16 * map.placed.count + 8 * map.detached.count + 12 * map.edges.count
    let before = layouts.bytes.count
    layouts.element()
    layouts.open("{")
    if whole {
      layouts.element()
      layouts.raw(#""full":"#)
      layouts.int(1)
    }
    if whole || mapChanges.root {
      layouts.element()
      layouts.raw(#""root":"#)
      layouts.int(map.root >= 0 ? Int(lane(map.root)) : -1)
    }
    layouts.element()
    layouts.raw(#""p":"#)
    layouts.open("[")
    for p in whole ? map.placed : mapChanges.placements { writePlacement(p) }
    layouts.close("]")
    layouts.element()
    layouts.raw(#""d":"#)
    layouts.open("[")
    if whole {
      for p in map.detached.sorted() { writeDetached(p) }
    } else {
      for p in mapChanges.detached { writeDetached(p) }
    }
    layouts.close("]")
    layouts.element()
    layouts.raw(#""e":"#)
    layouts.open("[")
    for key in whole ? map.edges.keys.sorted() : mapChanges.edges { writeEdge(key) }
    layouts.close("]")
    layouts.close("}")
    layoutDeltaBytes = whole ? 0 : layoutDeltaBytes + layouts.bytes.count - before
    layoutCount += 1
    return layoutCount - 1
  }

  /// `[lane, x, y, modal]`, or `[lane]` when no longer placed (``ReportData/Placement``).
  private mutating func writePlacement(_ p: Int32) {
    let l = Int(lane(p))
    let flag = map.placedFlag[Int(p)]
    layouts.element()
    layouts.open("[")
    for field in ReportData.Placement.allCases where flag != 0 || field == .lane {
      layouts.element()
      switch field {
      case .lane: layouts.int(l)
      case .x: layouts.int(Int(map.x[Int(p)]))
      case .y: layouts.int(Int(map.y[Int(p)]))
      case .modal: layouts.int(flag == 2 ? 1 : 0)
      }
    }
    layouts.close("]")
  }

  /// `[lane, modal]`, or `[lane]` when no longer detached (``ReportData/Detached``).
  private mutating func writeDetached(_ p: Int32) {
    let l = Int(lane(p))
    let flag = map.detachedFlag[Int(p)]
    layouts.element()
    layouts.open("[")
    for field in ReportData.Detached.allCases where flag != 0 || field == .lane {
      layouts.element()
      switch field {
      case .lane: layouts.int(l)
      case .modal: layouts.int(flag == 2 ? 1 : 0)
      }
    }
    layouts.close("]")
  }

  /// `[laneA, laneB, lines]` with the smaller lane first, lines 0 when the link is gone (``ReportData/Edge``).
  private mutating func writeEdge(_ key: UInt64) {
    let la = Int(lane(Int32(truncatingIfNeeded: key >> 32)))
    let lb = Int(lane(Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)))
    layouts.element()
    layouts.open("[")
    for field in ReportData.Edge.allCases {
      layouts.element()
      switch field {
      case .a: layouts.int(min(la, lb))
      case .b: layouts.int(max(la, lb))
      case .lines: layouts.int(Int(map.edges[key] ?? 0))
      }
    }
    layouts.close("]")
  }

  // MARK: The rest of the block

  /// `filter` (its summary, null for none), `sel` (the selected events'
  /// indexes as differences, null for every event) and `laneSel` (the lanes
  /// of the filter's controllers, null for every lane).
  private mutating func writeFilter(to json: inout JSONBuffer) {
    json.key("filter")
    json.string(filter.summary)
    json.key("sel")
    if filter.isEmpty {
      json.null()
    } else {
      var selected: [Int] = []
      var previous = 0
      for (w, i) in window.enumerated() where filter.selects(records[i].event) {
        selected.append(w - previous)
        previous = w
      }
      json.ints(selected)
    }
    json.key("laneSel")
    if filter.controllers.isEmpty {
      json.null()
    } else {
      var lanes: [Int] = []
      for id in filter.controllers {
        if let p = state.position(of: id) { lanes.append(Int(lane(p))) }
      }
      json.ints(lanes.sorted())
    }
  }

  private func writeHeader(to json: inout JSONBuffer) {
    guard let header = state.header else { return json.null() }
    json.open("{")
    json.key("session")
    json.string(displayText(header.session, limit: 200))
    json.key("v")
    json.int(header.version)
    for (key, value) in [
      ("app", header.app), ("build", header.build), ("device", header.device), ("profile", header.profile),
      ("scenario", header.scenario),
    ] {
      json.key(key)
      json.string(value.map { displayText($0, limit: 200) })
    }
    json.close("}")
  }

  /// `ids` (exact, for attributes), `shown` (escaped for display, -1 when
  /// the same), `classes` (escaped), one per lane in order of first use, each
  /// an index in the string table.
  private mutating func writeLanes(to json: inout JSONBuffer) {
    let ids = lanePositions.map { state.controller(at: $0).id.rawValue }
    json.key("ids")
    json.ints(ids.map { strings.index($0) })
    json.key("shown")
    json.ints(ids.map { id in displayText(id, limit: .max) == id ? -1 : strings.index(displayText(id, limit: .max)) })
    json.key("classes")
    json.ints(lanePositions.map { strings.index(displayText(state.controller(at: $0).className, limit: .max)) })
  }

  /// Findings as `[line, seq, index, rule, severity, message, move, lane, source]`
  /// (``ReportData/Finding``): `index` is the event's index in the window (the
  /// last event at or before the line; -1 outside the window), `severity` 0
  /// for errors, 1 for warnings, `message` and `source` (the app's call site
  /// of the event, -1 when it has none) indexes in the string table.
  /// `whole`: the window is the whole journal (every finding is listed);
  /// `lineAfterRecords`: findings from this line on are past the records kept.
  private mutating func writeFindings(
    _ findings: [CheckFinding], lanes: [Int32], whole: Bool, lineAfterRecords: Int?, to json: inout JSONBuffer
  ) {
    var rules: [String] = []
    var ruleIndex: [Rule: Int] = [:]
    json.key("findings")
    json.open("[")
    for (finding, l) in zip(findings, lanes) {
      // The last record at or before the finding's line.
      var low = 0
      var high = lines.count
      while low < high {
        let middle = (low + high) / 2
        if lines[middle] <= finding.line { low = middle + 1 } else { high = middle }
      }
      let record = max(0, low - 1)
      let past = lineAfterRecords.map { finding.line >= $0 } ?? false
      let index = window.contains(record) && !past ? record - window.lowerBound : -1
      // A window shows the findings of its own events only.
      if index < 0 && !whole { continue }
      let rule: Int
      if let known = ruleIndex[finding.rule] {
        rule = known
      } else {
        rule = rules.count
        ruleIndex[finding.rule] = rule
        rules.append(finding.rule.id)
      }
      typealias F = ReportData.Finding
      var values = [Int](repeating: 0, count: F.allCases.count)
      values[F.line.rawValue] = finding.line
      values[F.seq.rawValue] = finding.seq ?? -1
      values[F.event.rawValue] = index
      values[F.rule.rawValue] = rule
      values[F.severity.rawValue] = finding.severity == .error ? 0 : 1
      values[F.message.rawValue] = strings.index(displayText(finding.message, limit: .max))
      values[F.move.rawValue] = finding.move ?? -1
      values[F.lane.rawValue] = Int(l)
      values[F.source.rawValue] = finding.source.map { strings.index(displayText($0, limit: .max)) } ?? -1
      json.element()
      json.ints(values)
    }
    json.close("]")
    json.key("rules")
    json.strings(rules)
  }
}

/// The page's columns of plain integers, one value per event of the window
/// (`dseq`, `dline`, `dt`: the difference from the event before; `k`, `a`,
/// `b`, `text`), written on a thread of their own from the moment they are
/// made; ``wait()`` returns them in the order of ``keys``.
private final class EventColumns: Sendable {
  static let keys = ["dseq", "dline", "dt", "k", "a", "b", "text"]
  private let done = DispatchSemaphore(value: 0)
  private let columns = Mutex<[[UInt8]]>([])

  init(
    records: [Record], lines: [Int], window: Range<Int>, types: [Int], laneA: [Int32], laneB: [Int32], texts: [Int]
  ) {
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let first = window.lowerBound
      let made = [
        Self.ints(window.lazy.map { $0 == first ? 0 : records[$0].seq - records[$0 - 1].seq }),
        Self.ints(window.lazy.map { $0 == first ? 0 : lines[$0] - lines[$0 - 1] }),
        Self.ints(
          window.lazy.map {
            $0 == first ? 0 : Int(records[$0].time.microseconds - records[$0 - 1].time.microseconds)
          }),
        Self.ints(types), Self.ints(laneA), Self.ints(laneB), Self.ints(texts),
      ]
      columns.withLock { $0 = made }
      done.signal()
    }
  }

  /// The columns, once written.
  func wait() -> [[UInt8]] {
    done.wait()
    return columns.withLock { $0 }
  }

  /// A JSON array of integers, written in one piece (``JSONBuffer/ints(_:)``
  /// writes value by value; the page's columns hold one value per event).
  private static func ints<T: BinaryInteger>(_ values: some Collection<T>) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(2 + values.count * 4)
    bytes.append(UInt8(ascii: "["))
    var first = true
    for value in values {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      JSONWriter.appendInt(Int(value), to: &bytes)
    }
    bytes.append(UInt8(ascii: "]"))
    return bytes
  }
}

/// Strings a page needs made from values known early, made on a thread of
/// their own, in order, while the page's thread goes on: the transitions'
/// summaries (a transition's summary is known when it starts: its arrivals
/// do not change it) and the sentences that are not templates (a pan's, whose
/// distance and velocity make nearly every one new), which would otherwise
/// weigh on the page's thread of a churn-shaped session.
///
/// The inputs are handed over in batches of ``batchSize``; ``all()`` hands
/// over the rest and waits for every output.
private struct MadeElsewhere<Input: Sendable, Output: Sendable> {
  private let maker: Maker
  private var pending: [Input] = []
  static var batchSize: Int { 512 }

  init(_ make: @escaping @Sendable (Input) -> Output) {
    maker = Maker(make)
  }

  /// Makes the output of `input`, after those of every earlier one.
  mutating func add(_ input: Input) {
    pending.append(input)
    if pending.count == Self.batchSize { handOver() }
  }

  /// Every output so far, in order, once made.
  mutating func all() -> [Output] {
    handOver()
    return maker.all()
  }

  private mutating func handOver() {
    maker.add(pending)
    pending = []
  }

  /// The queue that makes them, and what it made.
  private final class Maker: Sendable {
    private let make: @Sendable (Input) -> Output
    private let queue = DispatchQueue(label: "spatial-replay.report-strings", qos: .userInitiated)
    private let made = Mutex<[Output]>([])

    init(_ make: @escaping @Sendable (Input) -> Output) { self.make = make }

    func add(_ inputs: [Input]) {
      guard !inputs.isEmpty else { return }
      queue.async { [self] in
        let outputs = inputs.map(make)
        made.withLock { $0.append(contentsOf: outputs) }
      }
    }

    func all() -> [Output] {
      queue.sync {}
      return made.withLock { $0 }
    }
  }
}
