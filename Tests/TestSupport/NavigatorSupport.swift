import Journal
import Projection

/// One event, compactly: `home.W+` for callbacks (the spec's notation: L, W+, D+, W-, D-),
/// `move a>b left pan animated`, `pan a left touches=1 committed`, `link a left b`...
func compact(_ event: Event) -> String {
  switch event {
  case .session: return "session"
  case .alloc(let c, let cls): return "alloc \(c) \(cls)"
  case .root(let c): return "root \(c)"
  case .link(let a, let d, let b): return "link \(a) \(d) \(b)"
  case .unlink(let a, let d): return "unlink \(a) \(d)"
  case .modal(let m, let p): return "modal \(m) presenter \(p)"
  case .touches(let c, let d, let n): return "touches \(c) \(d) \(n)"
  case .pan(let p): return "pan \(p.controller) \(p.direction) touches=\(p.touches) \(p.outcome)"
  case .move(let m):
    return "move \(m.from)>\(m.to) \(m.direction) \(m.trigger) \(m.animated ? "animated" : "instant")"
  case .lifecycle(let c, let cb):
    let short: String
    switch cb {
    case .didLoad: short = "L"
    case .willAppear: short = "W+"
    case .didAppear: short = "D+"
    case .willDisappear: short = "W-"
    case .didDisappear: short = "D-"
    }
    return "\(c).\(short)"
  case .dealloc(let c): return "dealloc \(c)"
  case .mark(let label, let fields):
    return (["mark \(label)"] + fields.map { "\($0.key)=\($0.value.text)" }).joined(separator: " ")
  case .unknown(let type, _): return "unknown \(type)"
  }
}

/// Records `setup`, a `mark test`, then `action`; returns the action's events as
/// `+MS event`, MS being milliseconds since the mark.
func recordAction(_ setup: String, _ action: String, profile: Profile) throws -> [String] {
  let script = setup + "\nmark test\n" + action + "\n"
  let navigator = try ScenarioCompiler.record(Array(script.utf8), script: "rule.scenario", profile: profile)
  let records = navigator.records
  guard let markIndex = records.lastIndex(where: { if case .mark("test", _) = $0.event { true } else { false } })
  else { return ["(no mark)"] }
  let start = records[markIndex].time
  return records[(markIndex + 1)...].map { r in
    "+\(Int(start.milliseconds(to: r.time))) \(compact(r.event))"
  }
}

/// The navigator after a script.
func navigator(_ script: String, profile: Profile = .intended) throws -> Navigator {
  try ScenarioCompiler.record(Array(script.utf8), script: "rule.scenario", profile: profile)
}
