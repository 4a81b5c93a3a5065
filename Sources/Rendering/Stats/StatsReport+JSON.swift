import Journal
import Projection

extension StatsReport {
  /// The report as one JSON document (documented in `docs/tables.md`):
  /// `{"sessions":[STATS...],"overall":STATS}`, each STATS with `file`,
  /// `session`, `app`, `build`, `device`, `profile`, `journals`, `events`, `firstTime`,
  /// `lastTime`, `durationMs`, `eventsByType`, `moves`, `pans`,
  /// `controllers`, `modals` and `findings`.
  public var json: String {
    var json = JSONBuffer()
    json.object { json in
      json.array("sessions") { json in
        for session in sessions {
          json.element()
          Self.appendJSON(session, to: &json)
        }
      }
      json.key("overall")
      Self.appendJSON(overall, to: &json)
    }
    return json.text
  }

  /// One STATS object; with `key`, a group's (``StatsGroups``), which starts with `"key":{FIELD:VALUE,...}`.
  static func appendJSON(_ s: SessionStats, key: [(String, String?)]? = nil, to json: inout JSONBuffer) {
    json.object { json in
      if let key {
        json.object("key") { json in
          for (field, value) in key { json.cell(field, .string(value)) }
        }
      }
      json.cell("file", .string(s.file))
      json.cell("session", .string(s.session))
      json.cell("app", .string(s.app))
      json.cell("build", .string(s.build))
      json.cell("device", .string(s.device))
      json.cell("profile", .string(s.profile))
      json.counts([("journals", s.journals), ("events", s.events)])
      json.cell("firstTime", s.firstTime.map(Cell.timestamp) ?? .null)
      json.cell("lastTime", s.lastTime.map(Cell.timestamp) ?? .null)
      json.cell("durationMs", .number(s.durationMilliseconds))
      json.counts("eventsByType", s.typeNames.map { ($0, s.eventsByType[$0] ?? 0) })
      json.object("moves") { json in
        json.counts([("total", s.moves), ("animated", s.animatedMoves)])
        json.counts("byDirection", Direction.slotOrder.map { ($0.rawValue, s.movesByDirection[$0] ?? 0) })
        json.counts("byTrigger", MoveTrigger.allCases.map { ($0.rawValue, s.movesByTrigger[$0] ?? 0) })
      }
      json.object("pans") { json in
        json.counts([("total", s.pans)])
        json.counts("byOutcome", PanOutcome.allCases.map { ($0.rawValue, s.pansByOutcome[$0] ?? 0) })
      }
      json.array("controllers") { json in
        for c in s.controllers {
          json.objectElement { json in
            json.member("controller", c.controller.rawValue)
            json.cell("class", .string(c.className))
            json.counts([("visits", c.visits)])
            json.cell("dwellMs", .number(c.dwellMilliseconds))
            json.counts([("openVisits", c.openVisits), ("incompleteVisits", c.incompleteVisits)])
          }
        }
      }
      json.object("modals") { json in
        json.counts([
          ("presented", s.modalsPresented), ("deallocated", s.modalsDeallocated), ("leaked", s.leakedModals.count),
        ])
        json.member("leakedModals", strings: s.leakedModals.map(\.rawValue))
        json.counts([("leakFindings", s.modalLeakFindings)])
      }
      json.object("findings") { json in
        json.counts([("total", s.findings), ("errors", s.errors), ("warnings", s.warnings)])
        json.counts("byRule", s.ruleIDs.map { ($0, s.findingsByRule[$0] ?? 0) })
      }
    }
  }
}

extension JSONBuffer {
  /// `"key":value`, the value as the exported tables write it (numbers always with a `.` or an exponent).
  fileprivate mutating func cell(_ key: String, _ value: Cell) {
    self.key(key)
    var bytes: [UInt8] = []
    TableEncoder.appendJSON(value, to: &bytes)
    raw(bytes)
  }

  /// `"key":{"name":count,...}`.
  fileprivate mutating func counts(_ key: String, _ pairs: [(String, Int)]) {
    object(key) { $0.counts(pairs) }
  }
}
