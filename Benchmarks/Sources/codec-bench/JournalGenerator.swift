import BenchSupport
import Journal

/// A deterministic, realistic journal: a session of a spatial map where the
/// user mostly pans between neighbours (pan, move and four lifecycle
/// callbacks per move), with controllers created, linked and released now and
/// then, a few refused or snapped-back pans, modals and marks.
struct JournalGenerator {
  private var rng: SplitMix64
  private var seq = 0
  private var time = Timestamp(microseconds: 1_795_946_400_000_000)  // 2026-11-29T10:00:00Z
  private var records: [Record] = []
  /// Live controllers: the focused one first.
  private var live: [ControllerID] = []
  private var serial = 0

  /// Id prefixes and classes: ids are a prefix and a serial number (`n17`), short as real ids tend to be.
  private static let classes = [
    ("h", "HomeViewController"), ("n", "NotesViewController"), ("l", "ListViewController"),
    ("e", "EditorViewController"), ("s", "SettingsViewController"), ("m", "MapViewController"),
  ]

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// Exactly `count` records, `seq` 0 to count - 1.
  mutating func generate(count: Int) -> [Record] {
    records.reserveCapacity(count + 8)
    emit(.session(SessionHeader(session: "3F2A9C1E", app: "Dicto", build: "2.1 (88)", profile: "intended")))
    let home = allocate()
    emit(.root(controller: home))
    for callback in [Callback.didLoad, .willAppear, .didAppear] {
      emit(.lifecycle(controller: home, callback: callback))
    }
    while records.count < count { step() }
    records.removeLast(records.count - count)
    return records
  }

  private mutating func step() {
    let roll = live.count < 3 ? 0 : Int.random(in: 0..<100, using: &rng)
    switch roll {
    case 0..<8 where live.count < 40:
      // A new neighbour is created and linked.
      let from = live[0]
      let new = allocate()
      emit(.link(from: from, direction: direction(), to: new))
      emit(.lifecycle(controller: new, callback: .didLoad))
    case 0..<60:
      // The user pans to a neighbour: pan, move, four callbacks.
      let from = live[0]
      let index = Int.random(in: 1..<live.count, using: &rng)
      let to = live[index]
      let d = direction()
      let fling = Int.random(in: 0..<5, using: &rng) == 0
      emit(
        .pan(
          Pan(
            controller: from, direction: d, touches: 1, distance: Double(Int.random(in: 400...3200, using: &rng)) / 10,
            velocity: Double(Int.random(in: 50...2400, using: &rng)), outcome: .committed)))
      emit(.move(Move(from: from, to: to, direction: d, trigger: fling ? .fling : .pan, animated: true)))
      switchFocus(from: from, to: to, index: index)
    case 60..<70:
      // Code moves programmatically.
      let index = Int.random(in: 1..<live.count, using: &rng)
      let from = live[0]
      let to = live[index]
      emit(.move(Move(from: from, to: to, direction: direction(), trigger: .programmatic, animated: roll % 2 == 0)))
      switchFocus(from: from, to: to, index: index)
    case 70..<82:
      // A pan that does not navigate.
      let outcomes: [PanOutcome] = [.snapBack, .snapBack, .blocked, .refused, .cancelled]
      emit(
        .pan(
          Pan(
            controller: live[0], direction: direction(), touches: Int.random(in: 1...2, using: &rng),
            distance: Double(Int.random(in: 0...900, using: &rng)) / 10,
            velocity: Double(Int.random(in: 0...300, using: &rng)),
            outcome: outcomes[Int.random(in: 0..<outcomes.count, using: &rng)])))
    case 82..<88:
      emit(.mark(label: "step", fields: [Field(key: "n", value: RawJSON(unchecked: String(seq % 1000)))]))
    case 88..<92:
      // An old controller is released.
      let index = Int.random(in: 2..<live.count, using: &rng)
      let old = live.remove(at: index)
      emit(.unlink(from: old, direction: direction()))
      emit(.dealloc(controller: old))
    case 92..<95:
      let modal = allocate()
      emit(.modal(controller: modal, presenter: live[0]))
    default:
      emit(.touches(controller: live[0], direction: direction(), min: Int.random(in: 1...2, using: &rng)))
    }
  }

  private mutating func switchFocus(from: ControllerID, to: ControllerID, index: Int) {
    emit(.lifecycle(controller: from, callback: .willDisappear))
    emit(.lifecycle(controller: to, callback: .willAppear))
    emit(.lifecycle(controller: from, callback: .didDisappear))
    emit(.lifecycle(controller: to, callback: .didAppear))
    live.swapAt(0, index)
  }

  private mutating func allocate() -> ControllerID {
    let (prefix, className) = Self.classes[Int.random(in: 0..<Self.classes.count, using: &rng)]
    serial += 1
    let id = ControllerID("\(prefix)\(serial)")
    emit(.alloc(controller: id, className: className))
    live.append(id)
    return id
  }

  private mutating func direction() -> Direction { Direction.allCases[Int.random(in: 0..<4, using: &rng)] }

  private mutating func emit(_ event: Event) {
    time = time.adding(milliseconds: Int64.random(in: 0...3, using: &rng) * 50)
    time.microseconds += Int64.random(in: 0...999, using: &rng)
    records.append(Record(seq: seq, time: time, event: event))
    seq += 1
  }
}
