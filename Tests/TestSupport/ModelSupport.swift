import Journal
import Projection

/// Builds records for fold tests: `seq` counts from 0, time advances 1 ms per record.
struct RecordBuilder {
  private(set) var records: [Record] = []
  var time = Timestamp.modelEpoch

  init(header: Bool = true) {
    if header { add(.session(SessionHeader(session: "TEST"))) }
  }

  mutating func add(_ event: Event) {
    records.append(Record(seq: records.count, time: time, event: event))
    time = time.adding(milliseconds: 1)
  }

  mutating func alloc(_ ids: ControllerID...) {
    for id in ids { add(.alloc(controller: id, className: "\(id.rawValue)ViewController")) }
  }

  mutating func link(_ a: ControllerID, _ d: Direction, _ b: ControllerID) { add(.link(from: a, direction: d, to: b)) }
  mutating func unlink(_ a: ControllerID, _ d: Direction) { add(.unlink(from: a, direction: d)) }
  mutating func root(_ a: ControllerID) { add(.root(controller: a)) }
  mutating func callback(_ a: ControllerID, _ c: Callback) { add(.lifecycle(controller: a, callback: c)) }
  mutating func move(_ a: ControllerID, _ d: Direction, _ b: ControllerID, _ t: MoveTrigger = .programmatic) {
    add(.move(Move(from: a, to: b, direction: d, trigger: t, animated: true)))
  }
}

extension RecordBuilder {
  /// A complete move: `move`, `from.W-`, `to.W+`, `from.D-`, `to.D+` (5 lines).
  mutating func fullMove(_ from: ControllerID, _ d: Direction, _ to: ControllerID) {
    move(from, d, to)
    callback(from, .willDisappear)
    callback(to, .willAppear)
    callback(from, .didDisappear)
    callback(to, .didAppear)
  }

  /// `alloc m`, `modal m presenter p`, `link p d m`, m's didLoad, then a complete move to it (9 lines).
  mutating func presentModal(_ m: ControllerID, from p: ControllerID, _ d: Direction) {
    alloc(m)
    add(.modal(controller: m, presenter: p))
    link(p, d, m)
    callback(m, .didLoad)
    fullMove(p, d, m)
  }

  mutating func dealloc(_ id: ControllerID) { add(.dealloc(controller: id)) }

  mutating func mark(_ label: String) { add(.mark(label: label, fields: [])) }

  mutating func pan(_ id: ControllerID, _ d: Direction, touches: Int, _ outcome: PanOutcome) {
    add(.pan(Pan(controller: id, direction: d, touches: touches, distance: 100, velocity: 0, outcome: outcome)))
  }
}

/// The folded state and every anomaly, as `seq kind controllers` lines.
func foldAll(_ records: [Record]) -> (State, [String]) {
  var state = State()
  var found: [String] = []
  for r in records {
    for a in reduce(into: &state, r) {
      found.append("\(r.seq) \(a.rule.id) \(a.controllers.map(\.rawValue).joined(separator: ","))")
    }
  }
  return (state, found)
}

/// The links of every alive controller, `id: left=a up=b`, in allocation order.
func graph(_ state: State) -> [String] {
  state.controllers.filter(\.isAlive).map { c in
    let links = state.links(of: c.id)?.description ?? ""
    return links.isEmpty ? "\(c.id):" : "\(c.id): \(links)"
  }
}

/// Both lists line by line, `-` expected only, `+` actual only, for a readable failure.
func lineDiff(expected: [String], actual: [String]) -> String {
  // Longest common subsequence, small inputs only.
  let n = expected.count
  let m = actual.count
  var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
  for i in stride(from: n - 1, through: 0, by: -1) {
    for j in stride(from: m - 1, through: 0, by: -1) {
      lcs[i][j] = expected[i] == actual[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  var out: [String] = []
  var i = 0
  var j = 0
  while i < n || j < m {
    if i < n, j < m, expected[i] == actual[j] {
      out.append("  " + expected[i])
      i += 1
      j += 1
    } else if j < m, i == n || lcs[i][j + 1] >= lcs[i + 1][j] {
      out.append("+ " + actual[j])
      j += 1
    } else {
      out.append("- " + expected[i])
      i += 1
    }
  }
  return "expected (-) vs actual (+):\n" + out.joined(separator: "\n")
}
