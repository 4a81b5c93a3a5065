import BenchSupport
import Journal

/// Deterministic random runs of a spatial map, made directly as records:
/// lifecycle-heavy like real sessions (moves between a few dozen screens,
/// modals presented and dismissed, pans that snap back or are blocked,
/// links rewired, touches changed), then copies mutated at scattered places.
struct RunGenerator {
  private var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// A run of about `count` records (header included).
  mutating func run(count: Int, build: String) -> [Record] {
    var out: [Record] = []
    out.reserveCapacity(count + 16)
    var time = Timestamp.modelEpoch
    func add(_ event: Event) {
      out.append(Record(seq: out.count, time: time, event: event))
    }
    add(.session(SessionHeader(session: "BENCH-\(build)", app: "Dicto", build: build, profile: "intended")))
    let classes = ["Home", "Notes", "Settings", "Search", "Profile", "Inbox", "Detail", "Gallery"]
    let screens: [ControllerID] = (0..<32).map { ControllerID("screen-\($0)") }
    for (i, id) in screens.enumerated() {
      time = time.adding(milliseconds: 1)
      add(.alloc(controller: id, className: classes[i % classes.count] + "ViewController"))
    }
    add(.root(controller: screens[0]))
    add(.lifecycle(controller: screens[0], callback: .didLoad))
    add(.lifecycle(controller: screens[0], callback: .willAppear))
    add(.lifecycle(controller: screens[0], callback: .didAppear))
    // A ring of screens, each linked right to the next and down to a neighbour further on.
    for i in 0..<screens.count {
      add(.link(from: screens[i], direction: .right, to: screens[(i + 1) % screens.count]))
      if i > 0 { add(.lifecycle(controller: screens[i], callback: .didLoad)) }
    }
    var focus = 0
    var modals = 0
    func move(_ from: ControllerID, _ to: ControllerID, _ d: Direction, _ trigger: MoveTrigger) {
      time = time.adding(milliseconds: 1)
      add(.move(Move(from: from, to: to, direction: d, trigger: trigger, animated: true)))
      add(.lifecycle(controller: from, callback: .willDisappear))
      add(.lifecycle(controller: to, callback: .willAppear))
      time = time.adding(milliseconds: 250)
      add(.lifecycle(controller: from, callback: .didDisappear))
      add(.lifecycle(controller: to, callback: .didAppear))
    }
    while out.count < count {
      let here = screens[focus]
      switch rng.below(100) {
      case 0..<55:
        let forward = rng.below(2) == 0
        let next = forward ? (focus + 1) % screens.count : (focus + screens.count - 1) % screens.count
        if rng.below(3) == 0 {
          add(
            .pan(
              Pan(
                controller: here, direction: forward ? .right : .left, touches: 1,
                distance: Double(60 + rng.below(200)), velocity: Double(rng.below(900)), outcome: .committed)))
          move(here, screens[next], forward ? .right : .left, .pan)
        } else {
          move(here, screens[next], forward ? .right : .left, .programmatic)
        }
        focus = next
      case 55..<80:
        modals += 1
        let modal = ControllerID("compose-\(modals)")
        time = time.adding(milliseconds: 1)
        add(.alloc(controller: modal, className: "ComposeViewController"))
        add(.modal(controller: modal, presenter: here))
        add(.link(from: here, direction: .down, to: modal))
        add(.lifecycle(controller: modal, callback: .didLoad))
        move(here, modal, .down, .programmatic)
        move(modal, here, .up, .programmatic)
        add(.unlink(from: here, direction: .down))
        add(.dealloc(controller: modal))
      case 80..<92:
        time = time.adding(milliseconds: 1)
        let outcome: PanOutcome = rng.below(2) == 0 ? .snapBack : .blocked
        add(
          .pan(
            Pan(
              controller: here, direction: outcome == .blocked ? .up : .left, touches: 1,
              distance: Double(rng.below(50)), velocity: Double(rng.below(300)), outcome: outcome)))
      case 92..<97:
        time = time.adding(milliseconds: 1)
        add(.touches(controller: here, direction: .right, min: 1 + rng.below(2)))
      default:
        time = time.adding(milliseconds: 1)
        add(.mark(label: "step", fields: [Field(key: "n", value: RawJSON(unchecked: String(out.count)))]))
      }
    }
    return out
  }

  /// A run with nothing to anchor on: about `count` callbacks of eight
  /// long-lived controllers in random order (the worst case for the
  /// alignment: no event occurs once, so every stretch goes to Myers).
  mutating func noise(count: Int) -> [Record] {
    var out: [Record] = []
    out.reserveCapacity(count)
    let time = Timestamp.modelEpoch
    out.append(Record(seq: 0, time: time, event: .session(SessionHeader(session: "NOISE"))))
    let ids: [ControllerID] = (0..<8).map { ControllerID("screen-\($0)") }
    for id in ids {
      out.append(Record(seq: out.count, time: time, event: .alloc(controller: id, className: "ScreenViewController")))
    }
    let callbacks = Callback.allCases
    while out.count < count {
      let event = Event.lifecycle(
        controller: ids[rng.below(ids.count)], callback: callbacks[rng.below(callbacks.count)])
      out.append(Record(seq: out.count, time: time, event: event))
    }
    return out
  }

  /// A copy of `run` with `count` regressions at scattered places (a lifecycle
  /// callback dropped, duplicated, swapped with the next one, or sent to
  /// another controller, in turn), renumbered; and where they are (seqs in `run`).
  mutating func mutate(_ run: [Record], count: Int) -> (records: [Record], places: [Int]) {
    var out = run
    var places: [Int] = []
    let span = run.count / (count + 1)
    for k in (1...count).reversed() {
      var i = k * span + rng.below(max(1, span / 4))
      while i + 1 < out.count, !isLifecycle(out[i]) || !isLifecycle(out[i + 1]) { i += 1 }
      guard i + 1 < out.count else { continue }
      places.append(out[i].seq)
      switch k % 4 {
      case 0: out.remove(at: i)
      case 1: out.insert(out[i], at: i)
      case 2:
        // Swap the events, not the times: time never goes backwards.
        (out[i].event, out[i + 1].event) = (out[i + 1].event, out[i].event)
      default:
        if case .lifecycle(let c, let callback) = out[i].event {
          let other: ControllerID = c == "screen-31" ? "screen-30" : "screen-31"
          out[i].event = .lifecycle(controller: other, callback: callback)
        }
      }
    }
    for i in out.indices { out[i].seq = i }
    return (out, places.reversed())
  }

  private func isLifecycle(_ r: Record) -> Bool {
    if case .lifecycle = r.event { return true }
    return false
  }
}
