import Journal
import Projection
import Rendering

extension ReportRunBuilder {
  /// `filter` (its summary, null for none), `sel` (the selected events'
  /// indexes as differences, null for every event) and `laneSel` (the lanes
  /// of the filter's controllers, null for every lane).
  mutating func writeFilter(_ state: State, to json: inout JSONBuffer) {
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

  func writeHeader(_ state: State, to json: inout JSONBuffer) {
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
  mutating func writeLanes(_ state: State, to json: inout JSONBuffer) {
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
  mutating func writeFindings(
    _ findings: [CheckFinding], lanes: [Int32], whole: Bool, lineAfterRecords: Int?, to json: inout JSONBuffer
  ) {
    var rules: [String] = []
    var ruleIndex: [Rule: Int] = [:]
    json.key("findings")
    json.open("[")
    typealias F = ReportData.Finding
    // One row of values, written over for each finding (an array a finding was one allocation each).
    var values = [Int](repeating: 0, count: F.allCases.count)
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
