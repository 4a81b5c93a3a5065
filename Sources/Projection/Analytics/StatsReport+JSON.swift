import Journal

extension StatsReport {
  /// The report as one JSON document (documented in `docs/tables.md`):
  /// `{"sessions":[STATS...],"overall":STATS}`, each STATS with `file`,
  /// `session`, `app`, `build`, `device`, `profile`, `journals`, `events`, `firstTime`,
  /// `lastTime`, `durationMs`, `eventsByType`, `moves`, `pans`,
  /// `controllers`, `modals` and `findings`.
  public var json: String {
    var json = JSONBuffer()
    json.open("{")
    json.key("sessions")
    json.open("[")
    for session in sessions {
      json.element()
      Self.appendJSON(session, to: &json)
    }
    json.close("]")
    json.key("overall")
    Self.appendJSON(overall, to: &json)
    json.close("}")
    return json.text
  }

  /// One STATS object; with `key`, a group's (``StatsGroups``), which starts with `"key":{FIELD:VALUE,...}`.
  static func appendJSON(_ s: SessionStats, key: [(String, String?)]? = nil, to json: inout JSONBuffer) {
    /// A value as the exported tables write it (numbers always with a `.` or an exponent).
    func cell(_ key: String, _ value: Cell) {
      json.key(key)
      var bytes: [UInt8] = []
      TableEncoder.appendJSON(value, to: &bytes)
      json.raw(bytes)
    }
    func counts(_ key: String, _ pairs: [(String, Int)]) {
      json.key(key)
      json.open("{")
      json.counts(pairs)
      json.close("}")
    }
    json.open("{")
    if let key {
      json.key("key")
      json.open("{")
      for (field, value) in key { cell(field, .string(value)) }
      json.close("}")
    }
    cell("file", .string(s.file))
    cell("session", .string(s.session))
    cell("app", .string(s.app))
    cell("build", .string(s.build))
    cell("device", .string(s.device))
    cell("profile", .string(s.profile))
    json.counts([("journals", s.journals), ("events", s.events)])
    cell("firstTime", s.firstTime.map(Cell.timestamp) ?? .null)
    cell("lastTime", s.lastTime.map(Cell.timestamp) ?? .null)
    cell("durationMs", .number(s.durationMilliseconds))
    counts("eventsByType", s.typeNames.map { ($0, s.eventsByType[$0] ?? 0) })
    json.key("moves")
    json.open("{")
    json.counts([("total", s.moves), ("animated", s.animatedMoves)])
    counts("byDirection", Direction.slotOrder.map { ($0.rawValue, s.movesByDirection[$0] ?? 0) })
    counts("byTrigger", MoveTrigger.allCases.map { ($0.rawValue, s.movesByTrigger[$0] ?? 0) })
    json.close("}")
    json.key("pans")
    json.open("{")
    json.counts([("total", s.pans)])
    counts("byOutcome", PanOutcome.allCases.map { ($0.rawValue, s.pansByOutcome[$0] ?? 0) })
    json.close("}")
    json.key("controllers")
    json.open("[")
    for c in s.controllers {
      json.element()
      json.open("{")
      json.key("controller")
      json.string(c.controller.rawValue)
      cell("class", .string(c.className))
      json.counts([("visits", c.visits)])
      cell("dwellMs", .number(c.dwellMilliseconds))
      json.counts([("openVisits", c.openVisits), ("incompleteVisits", c.incompleteVisits)])
      json.close("}")
    }
    json.close("]")
    json.key("modals")
    json.open("{")
    json.counts([
      ("presented", s.modalsPresented), ("deallocated", s.modalsDeallocated), ("leaked", s.leakedModals.count),
    ])
    json.key("leakedModals")
    json.strings(s.leakedModals.map(\.rawValue))
    json.counts([("leakFindings", s.modalLeakFindings)])
    json.close("}")
    json.key("findings")
    json.open("{")
    json.counts([("total", s.findings), ("errors", s.errors), ("warnings", s.warnings)])
    counts("byRule", s.ruleIDs.map { ($0, s.findingsByRule[$0] ?? 0) })
    json.close("}")
    json.close("}")
  }
}
