// Timings of the timeline over a generated 1M-event journal: stepping
// forwards and backwards, jumping to random seqs, and the memory the
// snapshots take; then the map layout of a 1M-controller state.
//
// ```
// swift run -c release timeline-bench [--events 1000000] [--interval 256] [--steps 100000]
//                                     [--jumps 10000] [--layout 1000000] [--seed 2026]
// ```
//
// The journal comes from the reference navigator (the model): a 32 × 32 grid
// of controllers linked right and down, some two-finger edges, and a seeded
// random walk of pans, flings, programmatic moves, modals presented and left,
// goToRoot and marks, cut at exactly `--events` records.
import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#endif

var events = 1_000_000
var interval = Timeline.defaultInterval
var steps = 100_000
var jumps = 10_000
var layoutCount = 1_000_000
var seed: UInt64 = 2026

var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let name = arguments.removeFirst()
  guard let value = arguments.first, let number = Int(value), number >= 0 else {
    fail("\(name) needs a whole number")
  }
  arguments.removeFirst()
  switch name {
  case "--events": events = max(1, number)
  case "--interval": interval = max(1, number)
  case "--steps": steps = number
  case "--jumps": jumps = number
  case "--layout": layoutCount = number
  case "--seed": seed = UInt64(number)
  default: fail("unknown option \(name)")
  }
}

// MARK: The journal

print("timeline-bench: \(grouped(events)) events, a snapshot every \(interval)")
var records: [Record] = []
let generation = seconds { records = generateJournal(events: events, seed: seed) }
print("  generated with the navigator in \(format(generation)) s")
print(
  "  records held as [Record]: \(grouped(records.count * MemoryLayout<Record>.stride / 1024)) KiB inline "
    + "(\(MemoryLayout<Record>.stride) bytes each; ids up to 15 bytes need no more)")

// MARK: Building the timeline, and the snapshots' memory

let residentBefore = residentBytes()
var timeline = Timeline(records: [])
let building = seconds { timeline = Timeline(records: records, interval: interval) }
let snapshotBytes = max(0, residentBytes() - residentBefore)
print(
  "  built in \(format(building)) s: \(grouped(timeline.snapshotCount)) snapshots, "
    + "\(grouped(timeline.state.controllerCount)) controllers at the end")
print(
  "  snapshots and final state: \(grouped(snapshotBytes / 1024)) KiB more resident memory, "
    + "\(grouped(snapshotBytes / max(1, timeline.snapshotCount))) bytes per snapshot")

// MARK: Stepping and jumping

var sink = 0
var random = SplitMix(seed: seed &+ 1)
let middle = records.count / 2

timeline.seek(to: max(0, middle - steps / 2))
let forward = measure(count: min(steps, records.count - 1 - timeline.index)) {
  timeline.stepForward()
  sink &+= timeline.state.counters.events
}
report("step +1", forward, limit: 1)

let backward = measure(count: min(steps, timeline.index + 1)) {
  timeline.stepBackward()
  sink &+= timeline.state.counters.events
}
report("step -1", backward, limit: 1)

let jumping = measure(count: jumps) {
  let seq = records[Int(random.next() % UInt64(records.count))].seq
  timeline.jump(toSeq: seq)
  sink &+= timeline.state.counters.events
}
report("jump to a random seq", jumping, limit: 10)

// MARK: The map of a large state

if layoutCount > 0 {
  var state = State()
  var seq = 0
  func fold(_ event: Event) {
    reduce(into: &state, Record(seq: seq, time: .modelEpoch, event: event))
    seq += 1
  }
  fold(.session(SessionHeader(session: "LAYOUT")))
  let width = 1000
  let ids = (0..<layoutCount).map { ControllerID("c\($0)") }
  for id in ids { fold(.alloc(controller: id, className: "C")) }
  fold(.root(controller: ids[0]))
  // A snake through a 1000-wide band: right along even rows, left along odd ones, down at the ends.
  for i in 1..<layoutCount {
    let row = (i - 1) / width
    let atEnd = i % width == 0
    let direction: Direction = atEnd ? .down : (row % 2 == 0 ? .right : .left)
    fold(.link(from: ids[i - 1], direction: direction, to: ids[i]))
  }
  var layout: MapLayout? = nil
  let layingOut = seconds { layout = MapLayout(state: state) }
  var text = ""
  let rendering = seconds {
    MapRenderer(options: .init(width: 80, height: 40)).render(layout!, to: &text)
  }
  print(
    "  map of \(grouped(layoutCount)) controllers: laid out in \(format(layingOut)) s "
      + "(\(grouped(layout!.placements.count)) placed, \(grouped(layout!.collisions.count)) collisions), "
      + "80×40 rendering in \(format(rendering)) s")
}

if sink == 42 { print("") }

// MARK: Helpers

/// Per-operation times in milliseconds.
func measure(count: Int, _ body: () -> Void) -> [Double] {
  var times: [Double] = []
  times.reserveCapacity(count)
  for _ in 0..<count {
    let start = now()
    body()
    times.append((now() - start) * 1000)
  }
  return times
}

func report(_ name: String, _ times: [Double], limit: Double) {
  guard !times.isEmpty else { return }
  let sorted = times.sorted()
  let mean = times.reduce(0, +) / Double(times.count)
  let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
  let worst = sorted[sorted.count - 1]
  let verdict = worst <= limit ? "within" : (p99 <= limit ? "p99 within" : "OVER")
  print(
    "  \(name): \(grouped(times.count)) × mean \(format(mean, digits: 4)) ms, p99 \(format(p99, digits: 4)) ms, "
      + "max \(format(worst, digits: 4)) ms (\(verdict) the \(format(limit, digits: 0)) ms target; "
      + "mean is \(format(limit / max(mean, 1e-9), digits: 0))× under it)")
}

/// Builds a journal of exactly `events` records with the reference navigator.
func generateJournal(events: Int, seed: UInt64) -> [Record] {
  var random = SplitMix(seed: seed)
  var nav = Navigator(profile: .intended, header: SessionHeader(session: "BENCH", app: "Bench", profile: "intended"))
  let side = 32
  func id(_ x: Int, _ y: Int) -> ControllerID { ControllerID("g\(x)-\(y)") }
  do {
    for y in 0..<side {
      for x in 0..<side { try nav.controller(id(x, y), className: "GridViewController") }
    }
    try nav.root(id(0, 0))
    for y in 0..<side {
      for x in 0..<side {
        if x + 1 < side { try nav.link(id(x, y), .right, id(x + 1, y)) }
        if y + 1 < side { try nav.link(id(x, y), .down, id(x, y + 1)) }
      }
    }
    for k in 0..<64 { try nav.touches(id(k % side, (k * 7) % side), .right, 2) }
    var modals = 0
    while nav.records.count < events {
      let direction = Direction.allCases[Int(random.next() % 4)]
      switch random.next() % 100 {
      case 0..<45: try nav.pan(direction, distance: Double(random.next() % 200), touches: 1 + Int(random.next() % 2))
      case 45..<55: try nav.pan(direction, distance: 10, velocity: 900)
      case 55..<85: try nav.move(direction, animated: random.next() % 4 != 0)
      case 85..<92:
        let focus = nav.state.focus!
        if nav.state.neighbour(of: focus, direction) == nil, !(nav.state[controller: focus]?.isModal ?? true) {
          modals += 1
          try nav.modal(ControllerID("modal\(modals)"), className: "ModalViewController", direction)
          try nav.move(direction.opposite)
        }
      case 92..<94: try nav.goToRoot(animated: random.next() % 2 == 0)
      case 94..<96: try nav.wait(milliseconds: Int64(random.next() % 1000))
      default: try nav.mark("step", [(key: "n", value: String(nav.records.count))])
      }
    }
  } catch {
    fail("the navigator refused a command: \(error)")
  }
  return Array(nav.records.prefix(events))
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Resident memory of the process in bytes (from /proc/self/statm; 0 where it is missing).
func residentBytes() -> Int {
  guard let file = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(file) }
  var size = 0
  var resident = 0
  guard
    withUnsafeMutablePointer(
      to: &size,
      { s in
        withUnsafeMutablePointer(to: &resident, { r in readPair(file, s, r) })
      })
  else { return 0 }
  return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Reads two whole numbers separated by a space.
func readPair(_ file: UnsafeMutablePointer<FILE>, _ a: UnsafeMutablePointer<Int>, _ b: UnsafeMutablePointer<Int>)
  -> Bool
{
  var buffer = [CChar](repeating: 0, count: 256)
  guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
  let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  let parts = text.split(separator: " ")
  guard parts.count >= 2, let x = Int(parts[0]), let y = Int(parts[1]) else { return false }
  a.pointee = x
  b.pointee = y
  return true
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func seconds(_ body: () -> Void) -> Double {
  let start = now()
  body()
  return now() - start
}

func format(_ value: Double, digits: Int = 2) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return digits == 0 ? String(Int(rounded)) : String(rounded)
}

func grouped(_ n: Int) -> String {
  let digits = String(n.magnitude)
  var out = n < 0 ? "-" : ""
  for (i, digit) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return out
}

func fail(_ message: String) -> Never {
  print("timeline-bench: \(message)")
  exit(64)
}
