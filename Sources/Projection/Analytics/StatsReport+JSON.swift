import Journal

extension StatsReport {
  /// The report as one JSON document (documented in `docs/tables.md`):
  /// `{"sessions":[STATS...],"overall":STATS}`, each STATS with `file`,
  /// `session`, `app`, `build`, `journals`, `events`, `first_time`,
  /// `last_time`, `duration_ms`, `events_by_type`, `moves`, `pans`,
  /// `controllers`, `modals` and `findings`.
  public var json: String {
    var out: [UInt8] = []
    out.append(contentsOf: #"{"sessions":["#.utf8)
    for (i, session) in sessions.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      Self.appendJSON(session, to: &out)
    }
    out.append(contentsOf: #"],"overall":"#.utf8)
    Self.appendJSON(overall, to: &out)
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  static func appendJSON(_ s: SessionStats, to out: inout [UInt8]) {
    var first = true
    func key(_ name: String) {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      JSONWriter.appendString(name, to: &out)
      out.append(UInt8(ascii: ":"))
    }
    func string(_ name: String, _ value: String?) {
      key(name)
      TableEncoder.appendJSON(.string(value), to: &out)
    }
    func int(_ name: String, _ value: Int) {
      key(name)
      JSONWriter.appendInt(value, to: &out)
    }
    func counts(_ name: String, _ pairs: [(String, Int)]) {
      key(name)
      out.append(UInt8(ascii: "{"))
      for (i, (k, v)) in pairs.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendString(k, to: &out)
        out.append(UInt8(ascii: ":"))
        JSONWriter.appendInt(v, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
    /// Runs `body` inside a nested object under `name`.
    func object(_ name: String, _ body: () -> Void) {
      key(name)
      out.append(UInt8(ascii: "{"))
      first = true
      body()
      out.append(UInt8(ascii: "}"))
      first = false
    }

    out.append(UInt8(ascii: "{"))
    string("file", s.file)
    string("session", s.session)
    string("app", s.app)
    string("build", s.build)
    int("journals", s.journals)
    int("events", s.events)
    key("firstTime")
    TableEncoder.appendJSON(s.firstTime.map(Cell.timestamp) ?? .null, to: &out)
    key("lastTime")
    TableEncoder.appendJSON(s.lastTime.map(Cell.timestamp) ?? .null, to: &out)
    key("durationMs")
    TableEncoder.appendNumber(s.durationMilliseconds, to: &out)
    counts("eventsByType", s.typeNames.map { ($0, s.eventsByType[$0] ?? 0) })
    object("moves") {
      int("total", s.moves)
      int("animated", s.animatedMoves)
      counts("byDirection", Direction.slotOrder.map { ($0.rawValue, s.movesByDirection[$0] ?? 0) })
      counts("byTrigger", MoveTrigger.allCases.map { ($0.rawValue, s.movesByTrigger[$0] ?? 0) })
    }
    object("pans") {
      int("total", s.pans)
      counts("byOutcome", PanOutcome.allCases.map { ($0.rawValue, s.pansByOutcome[$0] ?? 0) })
    }
    key("controllers")
    out.append(UInt8(ascii: "["))
    for (i, c) in s.controllers.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"controller":"#.utf8)
      JSONWriter.appendString(c.controller.rawValue, to: &out)
      out.append(contentsOf: #","class":"#.utf8)
      TableEncoder.appendJSON(.string(c.className), to: &out)
      out.append(contentsOf: #","visits":"#.utf8)
      JSONWriter.appendInt(c.visits, to: &out)
      out.append(contentsOf: #","dwellMs":"#.utf8)
      TableEncoder.appendNumber(c.dwellMilliseconds, to: &out)
      out.append(contentsOf: #","openVisits":"#.utf8)
      JSONWriter.appendInt(c.openVisits, to: &out)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    object("modals") {
      int("presented", s.modalsPresented)
      int("deallocated", s.modalsDeallocated)
      int("leaked", s.leakedModals.count)
      key("leakedModals")
      out.append(UInt8(ascii: "["))
      for (i, id) in s.leakedModals.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendString(id.rawValue, to: &out)
      }
      out.append(UInt8(ascii: "]"))
      int("leakFindings", s.modalLeakFindings)
    }
    object("findings") {
      int("total", s.findings)
      int("errors", s.errors)
      int("warnings", s.warnings)
      counts("byRule", s.ruleIDs.map { ($0, s.findingsByRule[$0] ?? 0) })
    }
    out.append(UInt8(ascii: "}"))
  }
}
