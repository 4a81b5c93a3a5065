import Journal
import Projection
import Rendering

extension Stepper {
  /// Draws a state as the lines of a screen of `size`.
  ///
  /// Exactly `size.height` lines come back, none wider than `size.width`
  /// columns, without trailing spaces and without escape sequences (the
  /// terminal layer adds any styling); the last one is always the status line
  /// with the position and the total (`seq 1,234 / 1,000,000`). Journal text
  /// is escaped (`displayText`). The same state and size always give the same
  /// lines.
  ///
  /// One journal, from the top: the file and session; the map at the cursor
  /// (focus highlighted); the move the cursor is in; the events around the
  /// cursor (`▶` the current one, `!` those with findings); the transition in
  /// flight; every alive controller's appearance phase; the findings of
  /// `check` at or before the cursor; the prompt or the last message; the
  /// status line. Two journals: the same per side, in two columns, the events
  /// aligned row by row (`≠` a changed row, `<` only in A, `>` only in B).
  ///
  /// - Complexity: the fold from the nearest snapshot to the cursor (at most
  ///   the timeline's interval), plus the map's layout (linear in the controllers).
  public func render(_ state: StepperState, size: (width: Int, height: Int)) -> [String] {
    let width = max(size.width, 1)
    let height = max(size.height, 1)
    let layout = ScreenLayout(height: height)
    let screen = Screen(stepper: self, state: state, width: width, layout: layout)
    var lines: [String]
    if height < ScreenLayout.fixedLines {
      lines = screen.tiny(height: height)
    } else {
      lines = screen.lines()
    }
    lines = lines.map { Screen.trimmed(ScreenText.fit($0, width, options.glyphs)) }
    if lines.count < height {
      lines.insert(contentsOf: repeatElement("", count: height - lines.count), at: max(lines.count - 2, 0))
    }
    return Array(lines.prefix(height))
  }
}

/// One rendering: the state, the size and the glyphs, with a function per section.
private struct Screen {
  let stepper: Stepper
  let state: StepperState
  let width: Int
  let layout: ScreenLayout

  var glyphs: Glyphs { stepper.options.glyphs }
  var rule: Character { glyphs.rule }
  var cursorMark: String { glyphs.cursor }
  /// Between the parts of a line.
  var dot: String { glyphs.separator }

  static func trimmed(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }

  // MARK: Whole screens

  func lines() -> [String] {
    switch stepper.source {
    case .journal(let journal): single(journal)
    case .comparison(let comparison): sideBySide(comparison)
    }
  }

  /// Fewer lines than the fixed sections: the status line, then what fits,
  /// in this order: the current event (the prompt while one is typed), the
  /// message line, the header, the transition; shown in screen order.
  func tiny(height: Int) -> [String] {
    let all = lines()
    // The six fixed lines: header, rule, current event, transition, message, status.
    let status = all.count - 1
    let message = all.count - 2
    let transition = all.count - 3
    let current = 2
    let priority =
      state.prompt == nil
      ? [status, current, message, 0, transition, 1] : [status, message, current, 0, transition, 1]
    return priority.prefix(height).sorted().map { all[$0] }
  }

  private func single(_ journal: StepperJournal) -> [String] {
    let count = journal.count
    let cursor = min(max(state.cursor, 0), max(count - 1, 0))
    let model = count > 0 ? journal.timeline.state(at: cursor) : State()
    var out: [String] = [header(journal, model)]
    if state.isHelpVisible {
      out += fitted(help(), lines: layout.total - 3)
    } else {
      out += fitted(map(model, journal: journal, side: .a, at: cursor, width: width), lines: layout.map)
      out.append(ruleLine(moveTitle(journal, cursor)))
      out += events(journal, cursor: cursor)
      out.append(transition(model))
      out += ScreenText.wrap(phases(model, width: width), width: width, lines: layout.phases, glyphs: glyphs)
        .padded(to: layout.phases)
      out += findings(journal, cursor: cursor, width: width, lines: layout.findings)
    }
    out.append(messageLine())
    out.append(status(journal, cursor: cursor))
    return out
  }

  private func sideBySide(_ comparison: StepperComparison) -> [String] {
    let rows = comparison.rowCount
    let row = min(max(state.cursor, 0), max(rows - 1, 0))
    let recordA = rows > 0 ? comparison.record(.a, atRow: row) : 0
    let recordB = rows > 0 ? comparison.record(.b, atRow: row) : 0
    let modelA = comparison.a.count > 0 ? comparison.a.timeline.state(at: recordA) : State()
    let modelB = comparison.b.count > 0 ? comparison.b.timeline.state(at: recordB) : State()
    let left = max((width - 3) / 2, 1)
    let right = max(width - 3 - left, 1)
    let bar = glyphs.columns
    func columns(_ a: [String], _ b: [String], lines: Int) -> [String] {
      let a = fitted(a, lines: lines)
      let b = fitted(b, lines: lines)
      return zip(a, b).map { ScreenText.pad($0, left, glyphs) + bar + $1 }
    }
    var out = columns(
      [sideHeader("A", comparison.a, modelA)], [sideHeader("B", comparison.b, modelB)], lines: 1)
    if state.isHelpVisible {
      out += fitted(help(), lines: layout.total - 3)
    } else {
      out += columns(
        map(modelA, journal: comparison.a, side: .a, at: recordA, width: left),
        map(modelB, journal: comparison.b, side: .b, at: recordB, width: right), lines: layout.map)
      out.append(ruleLine(divergenceTitle(comparison, row: row)))
      out += alignedRows(comparison, row: row, left: left, right: right)
      out += columns([transition(modelA)], [transition(modelB)], lines: 1)
      out += columns(
        ScreenText.wrap(phases(modelA, width: left), width: left, lines: layout.phases, glyphs: glyphs),
        ScreenText.wrap(phases(modelB, width: right), width: right, lines: layout.phases, glyphs: glyphs),
        lines: layout.phases)
      out += columns(
        findings(comparison.a, cursor: recordA, width: left, lines: layout.findings),
        findings(comparison.b, cursor: recordB, width: right, lines: layout.findings), lines: layout.findings)
    }
    out.append(messageLine())
    out.append(status(comparison, row: row, recordA: recordA, recordB: recordB))
    return out
  }

  /// `lines` exactly `count` long: cut, or padded with empty lines.
  private func fitted(_ lines: [String], lines count: Int) -> [String] {
    Array(lines.prefix(count)).padded(to: count)
  }

  // MARK: Sections

  private func header(_ journal: StepperJournal, _ model: State) -> String {
    var parts = [
      glyphs.text(journal.name, limit: 80),
      "focus " + (model.focus.map { glyphs.text($0.rawValue) } ?? "none"),
      "root " + (model.root.map { glyphs.text($0.rawValue) } ?? "none"),
    ]
    if let header = model.header ?? journal.records.first.flatMap(Self.header(of:)) {
      parts.append(
        "session " + glyphs.text(header.session) + (header.profile.map { ", " + glyphs.text($0) } ?? ""))
    }
    return parts.joined(separator: dot)
  }

  private func sideHeader(_ name: String, _ journal: StepperJournal, _ model: State) -> String {
    "\(name): \(glyphs.text(journal.name, limit: 60))\(dot)focus "
      + (model.focus.map { glyphs.text($0.rawValue) } ?? "none")
  }

  private static func header(of record: Record) -> SessionHeader? {
    if case .session(let header) = record.event { return header }
    return nil
  }

  /// The grid of the map at this state (without the legend), and a line about
  /// collisions, detached controllers and cropping when there is room.
  private func map(_ model: State, journal: StepperJournal, side: DiffSide, at index: Int, width: Int) -> [String] {
    guard layout.map > 0 else { return [] }
    let options = MapRenderer.Options(width: width, height: layout.map, glyphs: glyphs, idWidth: journal.mapIDWidth)
    guard journal.count > 0 else { return draw(model, options) }
    let key = MapCache.Key(side: side, version: Int(journal.mapVersions[index]), options: options)
    if let lines = stepper.maps[key] { return lines }
    let lines = draw(model, options)
    stepper.maps[key] = lines
    return lines
  }

  private func draw(_ model: State, _ options: MapRenderer.Options) -> [String] {
    let mapLayout = MapLayout(state: model)
    guard let drawing = MapRenderer(options: options).draw(mapLayout) else { return ["(no map yet: no root)"] }
    var lines = drawing.grid
    while lines.last == "" { lines.removeLast() }
    var notes: [String] = []
    if !drawing.cropped.isEmpty { notes.append("cropped around the focus") }
    if !mapLayout.collisions.isEmpty { notes.append("\(mapLayout.collisions.count) collisions") }
    if !mapLayout.detached.isEmpty {
      notes.append("detached: " + mapLayout.detached.map { glyphs.text($0.rawValue) }.joined(separator: ", "))
    }
    if !notes.isEmpty && lines.count < layout.map { lines.append("(map: " + notes.joined(separator: "; ") + ")") }
    return lines
  }

  private func ruleLine(_ title: String) -> String {
    let head = String(repeating: rule, count: 2) + " " + title + " "
    let used = TextWidth.columns(of: head)
    return head + String(repeating: rule, count: max(width - used, 0))
  }

  private func moveTitle(_ journal: StepperJournal, _ cursor: Int) -> String {
    let k = journal.movesThrough(cursor)
    guard k > 0 else { return "events\(dot)before the first move" }
    let index = Int(journal.moves[k - 1])
    let record = journal.records[index]
    guard case .move(let move) = record.event else { return "events" }
    return "events\(dot)move \((k).grouped) of \((journal.moves.count).grouped) at #\(record.seq): "
      + move.sentence(glyphs)
  }

  private func events(_ journal: StepperJournal, cursor: Int) -> [String] {
    let count = journal.count
    var out: [String] = []
    guard count > 0 else {
      return ["(the journal has no events)"].padded(to: 2 * layout.context + 1).rotated(by: layout.context)
    }
    for i in (cursor - layout.context)...(cursor + layout.context) {
      if i < 0 {
        out.append("")
      } else if i >= count {
        out.append(i == count ? "  (end of the journal: \((count).grouped) events)" : "")
      } else {
        let flagged = journal.findingsThrough(i) > journal.findingsThrough(i - 1)
        let marks = (i == cursor ? cursorMark : " ") + (flagged ? "!" : " ")
        out.append(marks + LogLine.text(journal.records[i], glyphs: glyphs))
      }
    }
    return out
  }

  private func transition(_ model: State) -> String {
    guard let transition = model.transition else { return "transition: none yet" }
    if transition.isComplete { return "transition: \(transition.summary(glyphs)), complete" }
    let name: String
    switch transition.kind {
    case .initialDisplay: name = "initial display of \(glyphs.text(transition.to.rawValue))"
    case .move:
      name =
        "\(glyphs.text((transition.from ?? transition.to).rawValue)) \(glyphs.arrow) \(glyphs.text(transition.to.rawValue))"
    }
    let arrived = transition.arrivals.isEmpty ? "nothing" : transition.arrivals.map(short).joined(separator: " ")
    return "in flight: #\(transition.seq) \(name)\(dot)missing "
      + transition.missing.map(short).joined(separator: " ") + "\(dot)arrived \(arrived)"
  }

  /// `home.W-`: the spec's notation for a callback on a controller.
  private func short(_ arrival: Arrival) -> String {
    glyphs.id(arrival.controller) + "." + arrival.callback.short
  }

  /// Alive controllers grouped by phase (appeared first), each group in
  /// allocation order, as many as can be shown.
  ///
  /// Implementation note: a state may hold many thousands of controllers;
  /// all are counted, but only the first few of each phase, as many as the
  /// section could show, are turned into text.
  private func phases(_ model: State, width: Int) -> [ScreenText.Word] {
    let order: [ControllerState.Phase] = [.appeared, .appearing, .disappearing, .disappeared]
    let shown = max(1, width * layout.phases / 2)
    var counts = [Int](repeating: 0, count: order.count)
    var ids = [[String]](repeating: [], count: order.count)
    var deallocated = 0
    for controller in model.controllers {
      guard controller.isAlive else {
        deallocated += 1
        continue
      }
      let k: Int
      switch controller.phase {
      case .appeared: k = 0
      case .appearing: k = 1
      case .disappearing: k = 2
      case .disappeared: k = 3
      }
      counts[k] += 1
      if ids[k].count < shown {
        ids[k].append(glyphs.text(controller.id.rawValue) + (controller.isModal ? "*" : ""))
      }
    }
    var words: [ScreenText.Word] = []
    for (k, phase) in order.enumerated() where counts[k] > 0 {
      for (i, id) in ids[k].enumerated() {
        words.append(i == 0 ? .init(separator: dot, text: "\(phase): \(id)") : .init(separator: ", ", text: id))
      }
      let more = counts[k] - ids[k].count
      if more > 0 {
        words.append(.init(separator: ", ", text: "+\((more).grouped) more", count: more))
      }
    }
    if deallocated > 0 {
      words.append(.init(separator: dot, text: "\((deallocated).grouped) deallocated", count: 0))
    }
    if words.isEmpty { words.append(.init(separator: "", text: "controllers: none yet")) }
    return words
  }

  /// The title line and the latest findings at or before the cursor.
  private func findings(_ journal: StepperJournal, cursor: Int, width: Int, lines: Int) -> [String] {
    guard lines > 0 else { return [] }
    guard journal.isChecked else { return ["findings: checking the journal\(glyphs.more)"].padded(to: lines) }
    let total = journal.findings.count
    let through = journal.count > 0 ? journal.findingsThrough(cursor) : total
    var title: String
    if total == 0 {
      title = "findings: none in this journal"
    } else {
      title = "findings up to here: \((through).grouped) of \((total).grouped)"
    }
    let shown = min(through, lines - 1)
    if lines == 1, through > 0 {
      title += "; last " + findingText(journal.findings[through - 1])
    }
    var out = [title]
    for k in (through - shown)..<through {
      let here = Int(journal.findingRecords[k]) == cursor
      out.append((here ? cursorMark : " ") + " " + findingText(journal.findings[k]))
    }
    return out.padded(to: lines)
  }

  private func findingText(_ finding: CheckFinding) -> String {
    let place = finding.seq.map { "#\($0)" } ?? "line \(finding.line)"
    return "\(place) \(finding.rule): " + glyphs.text(finding.message(glyphs), limit: 400)
      + (finding.source.map { " (recorded at \(glyphs.text($0, limit: 200)))" } ?? "")
  }

  private func messageLine() -> String {
    if let prompt = state.prompt {
      let hint: String
      switch prompt.kind {
      case .jump: hint = "a seq, Enter to jump, Esc to cancel"
      case .searchForward: hint = "text, Enter to search forwards, Esc to cancel"
      case .searchBackward: hint = "text, Enter to search backwards (Enter alone: help), Esc to cancel"
      }
      return "\(prompt.kind.rawValue)\(glyphs.text(prompt.text, limit: 200))\(glyphs.caret)   (\(hint))"
    }
    if let message = state.message { return message }
    if state.isHelpVisible { return "any key closes the help" }
    if stepper.isComparison {
      return "l/h step\(dot)d/D divergence\(dot)]/[ move\(dot)f/F finding\(dot):seq\(dot)H help\(dot)q quit"
    }
    return "l/h step\(dot)]/[ move\(dot)f/F finding\(dot):seq\(dot)/ ? search\(dot)H help\(dot)q quit"
  }

  /// `1,234 / 1,000,000`: the record's seq and the number of events. When the
  /// seqs are not 0 to N - 1 (a slice, a journal with gaps), the record's place
  /// is given too: `143 · event 44 / 44`.
  static func position(_ journal: StepperJournal, _ record: Int, _ glyphs: Glyphs) -> String {
    let records = journal.records
    let seq = (records[record].seq).grouped
    let total = (journal.count).grouped
    guard records[0].seq == 0 && records[records.count - 1].seq == records.count - 1 else {
      return "\(seq)\(glyphs.separator)event \((record + 1).grouped) / \(total)"
    }
    return "\(seq) / \(total)"
  }

  private func status(_ journal: StepperJournal, cursor: Int) -> String {
    guard journal.count > 0 else { return "seq - / 0\(dot)the journal has no events" }
    var parts = [
      "seq \(Self.position(journal, cursor, glyphs))",
      "move \((journal.movesThrough(cursor)).grouped) / \((journal.moves.count).grouped)",
      journal.isChecked
        ? "findings \((journal.findingsThrough(cursor)).grouped) / \((journal.findings.count).grouped)"
        : "findings \(glyphs.more)",
    ]
    if let search = state.search { parts.append("search \(search.forward ? "/" : "?")\(glyphs.text(search.text))") }
    return parts.joined(separator: dot)
  }

  // MARK: Two journals

  private func divergenceTitle(_ comparison: StepperComparison, row: Int) -> String {
    guard let k = comparison.divergence(atRow: row) else { return "aligned events (A | B)" }
    let hunk = comparison.report.hunks[k]
    func seqs(_ run: NormalizedRun, _ r: Range<Int>) -> String {
      guard !r.isEmpty else { return "nothing" }
      let first = run.seqs[r.lowerBound]
      let last = run.seqs[r.upperBound - 1]
      return first == last ? "seq \(first)" : "seq \(first)\(glyphs.range)\(last)"
    }
    var kind = hunk.kind.rawValue
    if let side = hunk.side { kind += " in \(side == .a ? "A" : "B")" }
    return "divergence \((k + 1).grouped) of \((comparison.divergenceCount).grouped): \(kind)"
      + "\(dot)A \(seqs(comparison.report.a, hunk.hunk.a))\(dot)B \(seqs(comparison.report.b, hunk.hunk.b))"
  }

  private func alignedRows(_ comparison: StepperComparison, row: Int, left: Int, right: Int) -> [String] {
    let rows = comparison.rowCount
    guard rows > 0 else {
      return ["(no compared events on either side)"].padded(to: 2 * layout.context + 1).rotated(by: layout.context)
    }
    var out: [String] = []
    for r in (row - layout.context)...(row + layout.context) {
      guard r >= 0 && r < rows else {
        out.append(r == rows ? "  (end: \((rows).grouped) aligned rows)" : "")
        continue
      }
      let a = comparison.token(.a, atRow: r)
      let b = comparison.token(.b, atRow: r)
      let inHunk = comparison.divergence(atRow: r) != nil
      let gutter: String
      switch (a, b) {
      case (.some, .some): gutter = inHunk ? glyphs.differing : glyphs.columns
      case (.some, nil): gutter = " < "
      default: gutter = " > "
      }
      let textA = a.map { side(comparison.a, record: Int(comparison.recordsA[$0])) } ?? ""
      let textB = b.map { side(comparison.b, record: Int(comparison.recordsB[$0])) } ?? ""
      let mark = r == row ? cursorMark : " "
      out.append(
        ScreenText.pad(mark + " " + textA, left, glyphs) + gutter + ScreenText.fit(textB, right, glyphs))
    }
    return out
  }

  private func side(_ journal: StepperJournal, record: Int) -> String {
    let r = journal.records[record]
    return "#\(r.seq) " + r.event.sentence(glyphs)
  }

  private func status(_ comparison: StepperComparison, row: Int, recordA: Int, recordB: Int) -> String {
    let m = comparison.divergenceCount
    let position: String
    if m == 0 {
      position = "no divergences"
    } else if let k = comparison.divergence(atRow: row) {
      position = "divergence \((k + 1).grouped) of \((m).grouped)"
    } else {
      let k = comparison.divergencesThrough(row)
      position =
        k == 0
        ? "before divergence 1 of \((m).grouped)"
        : "after divergence \((k).grouped) of \((m).grouped)"
    }
    func seq(_ journal: StepperJournal, _ record: Int) -> String {
      journal.count > 0 ? Self.position(journal, record, glyphs) : "- / 0"
    }
    return [
      position, "A seq \(seq(comparison.a, recordA))", "B seq \(seq(comparison.b, recordB))",
      "row \((comparison.rowCount == 0 ? 0 : row + 1).grouped) / \((comparison.rowCount).grouped)",
    ].joined(separator: dot)
  }

  // MARK: Help

  private func help() -> [String] {
    ["keys (any key closes this help)"]
      + StepperBinding.lines(comparison: stepper.isComparison, glyphs: glyphs).map { "  " + $0 } + [
        "marks: \(cursorMark) current event, ! has a finding"
          + (stepper.isComparison ? ",\(glyphs.differing)differs, < only in A, > only in B" : ""),
        "phases: W+ willAppear, D+ didAppear, W- willDisappear, D- didDisappear",
      ]
  }
}

extension [String] {
  /// The lines followed by empty ones up to `count`.
  fileprivate func padded(to count: Int) -> [String] {
    self.count >= count ? self : self + repeatElement("", count: count - self.count)
  }

  /// The last `k` lines moved to the front (a one-line message in the middle of a block).
  fileprivate func rotated(by k: Int) -> [String] {
    guard !isEmpty, k > 0 else { return self }
    let k = k % count
    return Array(self[(count - k)...] + self[..<(count - k)])
  }
}
