import Journal

/// Folds a window of a journal once and writes the page's data block for it
/// (the shape is described in `docs/report.md`).
///
/// Implementation note: the block is written straight into one byte buffer
/// while the fold runs (no value per event is kept), so a 250,000-event window
/// costs the fold, one short JSON fragment per event and a layout per
/// structural event.
struct ReportRunBuilder {
  let records: [Record]
  let lines: [Int]
  let window: Range<Int>
  let filter: EventSelection

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

  private var state = State()
  /// Lane of each allocation position, -1 for none yet.
  private var laneOf: [Int32] = []
  /// Allocation position of each lane.
  private var lanePositions: [Int32] = []
  private var rows: [Row?] = []
  private var transitions: [Transition] = []
  private var status: TransitionStatus? = nil
  private var layoutCount = 0
  private var lastLayout: [UInt8] = []
  private var layouts = JSONBuffer()

  init(records: [Record], lines: [Int], window: Range<Int>, filter: EventSelection) {
    self.records = records
    self.lines = lines
    self.window = window
    self.filter = filter
    layouts.htmlSafe = true
  }

  /// The lane of allocation position `p`, given one on first use.
  private mutating func lane(_ p: Int32) -> Int32 {
    let i = Int(p)
    if i >= laneOf.count { laneOf.append(contentsOf: repeatElement(-1, count: i + 1 - laneOf.count)) }
    if laneOf[i] < 0 {
      laneOf[i] = Int32(lanePositions.count)
      lanePositions.append(p)
      rows.append(nil)
    }
    return laneOf[i]
  }

  private mutating func lane(of id: ControllerID?) -> Int32 {
    guard let id, let p = state.position(of: id) else { return -1 }
    return lane(p)
  }

  private mutating func row(at p: Int32) -> Row? {
    let controller = state.store[Int(p)]
    guard controller.isAlive else { return nil }
    return Row(
      phase: ControllerState.Phase.allCases.firstIndex(of: controller.phase) ?? 0, loadCount: controller.loadCount,
      isModal: controller.isModal,
      presenter: lane(of: controller.presenter))
  }

  mutating func build(
    name: String, findings: [Diagnostic], note: String?, totalEvents: Int, lineAfterRecords: Int?
  ) -> [UInt8] {
    for i in 0..<window.lowerBound { _ = reduce(into: &state, records[i]) }
    for (p, controller) in state.controllers.enumerated() where controller.isAlive {
      let l = lane(Int32(p))
      rows[Int(l)] = row(at: Int32(p))
    }

    var json = JSONBuffer()
    json.htmlSafe = true
    var types: [Int] = []
    var laneA: [Int32] = []
    var laneB: [Int32] = []
    var texts = JSONBuffer()
    texts.htmlSafe = true
    texts.open("[")
    var deltas = JSONBuffer()
    deltas.open("[")
    var keyframes = JSONBuffer()
    keyframes.open("[")
    layouts.open("[")
    types.reserveCapacity(window.count)
    laneA.reserveCapacity(window.count)
    laneB.reserveCapacity(window.count)
    var moves = 0
    var changed: [Int32] = []

    for (w, i) in window.enumerated() {
      let record = records[i]
      let focusBefore = state.focusIndex
      _ = reduce(into: &state, record)

      // What the event is, for the lanes and the log.
      let (type, a, b) = describe(record.event)
      if type == Self.moveType { moves += 1 }
      types.append(type)
      laneA.append(a)
      laneB.append(b)
      texts.element()
      texts.string(record.event.sentence)

      // The delta: rows of the controllers the event names, focus, transition, layout.
      changed.removeAll(keepingCapacity: true)
      for id in record.event.controllers {
        guard let p = state.position(of: id) else { continue }
        let l = lane(p)
        let new = row(at: p)
        if rows[Int(l)] != new {
          rows[Int(l)] = new
          if !changed.contains(l) { changed.append(l) }
        }
      }
      let newStatus = transitionStatus()
      let statusChanged = newStatus != status
      status = newStatus
      var layoutIndex: Int? = nil
      if w == 0 || Self.changesLayout(record.event) { layoutIndex = updateLayout() }
      let focusChanged = state.focusIndex != focusBefore

      deltas.element()
      if changed.isEmpty && !statusChanged && layoutIndex == nil && !focusChanged {
        deltas.int(0)
      } else {
        deltas.open("{")
        if !changed.isEmpty {
          deltas.key("r")
          deltas.open("[")
          for l in changed { writeRow(l, to: &deltas) }
          deltas.close("]")
        }
        if focusChanged {
          deltas.key("f")
          deltas.int(Int(lane(of: state.focus)))
        }
        if statusChanged {
          deltas.key("t")
          writeStatus(to: &deltas)
        }
        if let layoutIndex {
          deltas.key("l")
          deltas.int(layoutIndex)
        }
        deltas.close("}")
      }

      if w % ReportRun.keyframeInterval == 0 {
        keyframes.element()
        keyframes.open("{")
        keyframes.key("r")
        keyframes.open("[")
        for l in rows.indices where rows[l] != nil { writeRow(Int32(l), to: &keyframes) }
        keyframes.close("]")
        keyframes.key("f")
        keyframes.int(Int(lane(of: state.focus)))
        keyframes.key("t")
        writeStatus(to: &keyframes)
        keyframes.key("l")
        keyframes.int(layoutCount - 1)
        keyframes.close("}")
      }
    }
    texts.close("]")
    deltas.close("]")
    keyframes.close("]")
    layouts.close("]")

    // Everything that may give a controller a lane is written before the lanes are.
    let findingLanes = findings.map { lane(of: $0.controllers.first) }
    var transitionsJSON = JSONBuffer()
    transitionsJSON.htmlSafe = true
    writeTransitions(to: &transitionsJSON)

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
    json.key("K")
    json.int(ReportRun.keyframeInterval)
    json.key("types")
    json.strings(Event.knownTypeNames + ["unknown"])
    json.key("callbacks")
    json.strings(Callback.allCases.map(\.rawValue))
    json.key("phases")
    json.strings(ControllerState.Phase.allCases.map(\.rawValue))
    writeLanes(to: &json)
    writeEventColumns(to: &json)
    json.key("k")
    json.ints(types)
    json.key("a")
    json.ints(laneA.map(Int.init))
    json.key("b")
    json.ints(laneB.map(Int.init))
    json.key("text")
    json.raw(texts.take())
    json.key("keys")
    json.raw(keyframes.take())
    json.key("d")
    json.raw(deltas.take())
    json.key("layouts")
    json.raw(layouts.take())
    json.key("transitions")
    json.raw(transitionsJSON.take())
    writeFindings(
      findings, lanes: findingLanes, whole: window.count == totalEvents, lineAfterRecords: lineAfterRecords,
      to: &json)
    json.close("}")
    return json.take()
  }

  // MARK: Events

  private static let moveType = Event.Kind.move.index

  /// The event's type code (its ``Event/Kind/index``, or the count of kinds for
  /// an unknown type) and the two numbers the lanes draw it with: for a
  /// callback its lane and the callback, for a move the two lanes, else the
  /// lanes of the first two controllers it names (-1 for none).
  private mutating func describe(_ event: Event) -> (Int, Int32, Int32) {
    let type = event.kind?.index ?? Event.Kind.allCases.count
    switch event {
    case .lifecycle(let id, let callback):
      return (type, lane(of: id), Int32(callback.index))
    case .unknown:
      return (Event.knownTypeNames.count, -1, -1)
    default:
      let ids = event.controllers
      return (type, lane(of: ids.first), ids.count > 1 ? lane(of: ids[1]) : -1)
    }
  }

  /// Whether folding `event` may change what ``MapLayout`` lays out: the root,
  /// links, touch minimums, modals or the controllers alive.
  private static func changesLayout(_ event: Event) -> Bool {
    switch event {
    case .alloc, .root, .link, .unlink, .modal, .touches, .dealloc: true
    case .session, .pan, .move, .lifecycle, .mark, .unknown: false
    }
  }

  // MARK: Rows and transitions

  private func writeRow(_ l: Int32, to json: inout JSONBuffer) {
    json.element()
    json.open("[")
    json.element()
    json.int(Int(l))
    if let row = rows[Int(l)] {
      for value in [row.phase, row.loadCount, row.isModal ? 1 : 0, Int(row.presenter)] {
        json.element()
        json.int(value)
      }
    }
    json.close("]")
  }

  private mutating func transitionStatus() -> TransitionStatus? {
    guard let transition = state.transition else { return nil }
    if let last = transitions.last, last.seq == transition.seq, last.kind == transition.kind {
      // Arrivals only grow while a transition is the latest: no new arrival, no change.
      if let status, last.arrivals.count == transition.arrivals.count { return status }
      transitions[transitions.count - 1] = transition
    } else {
      transitions.append(transition)
    }
    let expected = transition.expected
    var missing = 0
    for arrival in transition.missing {
      if let k = expected.firstIndex(of: arrival) { missing |= 1 << k }
    }
    return TransitionStatus(
      index: transitions.count - 1, arrived: transition.arrivals.count, missing: missing,
      inFlight: !transition.isComplete)
  }

  private func writeStatus(to json: inout JSONBuffer) {
    guard let status else { return json.null() }
    json.open("[")
    for value in [status.index, status.arrived, status.missing, status.inFlight ? 1 : 0] {
      json.element()
      json.int(value)
    }
    json.close("]")
  }

  /// Every transition: `[summary, fromLane, toLane, arrivals, expected]`, the
  /// callbacks as `[lane, callback]` pairs flattened.
  private mutating func writeTransitions(to json: inout JSONBuffer) {
    json.open("[")
    for transition in transitions {
      json.element()
      json.open("[")
      json.element()
      json.string(transition.summary(.unicode))
      json.element()
      json.int(Int(lane(of: transition.from)))
      json.element()
      json.int(Int(lane(of: transition.to)))
      for list in [transition.arrivals, transition.expected] {
        json.element()
        json.open("[")
        for arrival in list {
          json.element()
          json.int(Int(lane(of: arrival.controller)))
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

  /// Lays out the state; appends the layout when it differs from the last one.
  /// - Returns: the new layout's index, nil when unchanged.
  private mutating func updateLayout() -> Int? {
    let layout = MapLayout(state: state)
    var json = JSONBuffer()
    json.htmlSafe = true
    json.open("{")
    json.key("root")
    json.int(Int(lane(of: layout.root)))
    json.key("p")
    json.open("[")
    var placedLanes: [Int32] = []
    placedLanes.reserveCapacity(layout.placements.count)
    for placement in layout.placements {
      let l = lane(of: placement.id)
      placedLanes.append(l)
      json.element()
      json.open("[")
      for value in [Int(l), placement.position.x, placement.position.y, placement.isModal ? 1 : 0] {
        json.element()
        json.int(value)
      }
      json.close("]")
    }
    json.close("]")
    // Edges: one per pair of linked controllers, double when either side needs two fingers.
    var edges: [(Int32, Int32, Bool)] = []
    var seen: [UInt64: Int] = [:]
    func edge(_ x: Int32, _ y: Int32, double: Bool) {
      let key = UInt64(UInt32(min(x, y))) << 32 | UInt64(UInt32(max(x, y)))
      if let k = seen[key] {
        if double { edges[k].2 = true }
      } else {
        seen[key] = edges.count
        edges.append((min(x, y), max(x, y), double))
      }
    }
    for p in layout.placements.indices {
      for direction in Direction.slotOrder {
        let q = layout.links[p * 4 + direction.index]
        guard q >= 0 else { continue }
        edge(placedLanes[p], placedLanes[Int(q)], double: layout.doubleLinks[p] & (1 << UInt8(direction.index)) != 0)
      }
    }
    json.key("d")
    json.open("[")
    for id in layout.detached {
      guard let p = state.position(of: id) else { continue }
      let controller = state.store[Int(p)]
      json.element()
      json.open("[")
      json.element()
      json.int(Int(lane(p)))
      json.element()
      json.int(controller.isModal ? 1 : 0)
      json.close("]")
      for direction in Direction.slotOrder {
        guard let q = controller.neighbours[direction], state.store[Int(q)].isAlive else { continue }
        let double = MapLayout.needsTwoFingers(
          controller.minimumTouches, direction, state.store[Int(q)].minimumTouches)
        edge(lane(p), lane(q), double: double)
      }
    }
    json.close("]")
    json.key("e")
    json.open("[")
    for (x, y, double) in edges {
      json.element()
      json.open("[")
      for value in [Int(x), Int(y), double ? 2 : 1] {
        json.element()
        json.int(value)
      }
      json.close("]")
    }
    json.close("]")
    json.key("c")
    json.strings(layout.collisions.map(\.description))
    json.close("}")
    let bytes = json.take()
    guard bytes != lastLayout else { return nil }
    lastLayout = bytes
    layouts.element()
    layouts.raw(bytes)
    layoutCount += 1
    return layoutCount - 1
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

  /// `ids` (exact, for attributes), `shown` (escaped for display, null when
  /// the same), `classes` (escaped), one per lane in order of first use.
  private func writeLanes(to json: inout JSONBuffer) {
    let ids = lanePositions.map { state.store[Int($0)].id.rawValue }
    json.key("ids")
    json.strings(ids)
    json.key("shown")
    json.strings(ids.map { id in displayText(id, limit: .max) == id ? nil : displayText(id, limit: .max) })
    json.key("classes")
    json.strings(lanePositions.map { displayText(state.store[Int($0)].className, limit: .max) })
  }

  /// `seq0`, `line0`, `t0` (microseconds since 1970) and per event the
  /// difference from the event before (`dseq`, `dline`, `dt`).
  private func writeEventColumns(to json: inout JSONBuffer) {
    let first = window.lowerBound
    json.key("seq0")
    json.int(window.isEmpty ? 0 : records[first].seq)
    json.key("line0")
    json.int(window.isEmpty ? 0 : lines[first])
    json.key("t0")
    json.int(window.isEmpty ? 0 : Int(records[first].time.microseconds))
    json.key("dseq")
    json.ints(window.map { $0 == first ? 0 : records[$0].seq - records[$0 - 1].seq })
    json.key("dline")
    json.ints(window.map { $0 == first ? 0 : lines[$0] - lines[$0 - 1] })
    json.key("dt")
    json.ints(
      window.map { $0 == first ? 0 : Int(records[$0].time.microseconds - records[$0 - 1].time.microseconds) })
  }

  /// Findings as `[line, seq, index, rule, severity, message, move, lane]`:
  /// `index` is the event's index in the window (the last event at or before
  /// the line; -1 outside the window), `severity` 0 for errors, 1 for warnings.
  /// `whole`: the window is the whole journal (every finding is listed);
  /// `lineAfterRecords`: findings from this line on are past the records kept.
  private func writeFindings(
    _ findings: [Diagnostic], lanes: [Int32], whole: Bool, lineAfterRecords: Int?, to json: inout JSONBuffer
  ) {
    var rules: [String] = []
    var ruleIndex: [String: Int] = [:]
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
        rules.append(finding.rule)
      }
      json.element()
      json.open("[")
      for value in [finding.line, finding.seq ?? -1, index, rule, finding.severity == .error ? 0 : 1] {
        json.element()
        json.int(value)
      }
      json.element()
      json.string(displayText(finding.message, limit: .max))
      json.element()
      json.int(finding.move ?? -1)
      json.element()
      json.int(Int(l))
      json.close("]")
    }
    json.close("]")
    json.key("rules")
    json.strings(rules)
  }

}
