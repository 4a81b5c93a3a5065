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
import BenchSupport
import Journal
import Projection
import Rendering

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
let generation = seconds {
  do {
    records = try GridSession.benchGrid(profile: .intended).records(events: events, seed: seed)
  } catch {
    fail("the navigator refused a command: \(error)")
  }
}
print("  generated with the navigator in \(decimal(generation)) s")
print(
  "  records held as [Record]: \(grouped(records.count * MemoryLayout<Record>.stride / 1024)) KiB inline "
    + "(\(MemoryLayout<Record>.stride) bytes each; ids up to 15 bytes need no more)")

// MARK: Building the timeline, and the snapshots' memory

let residentBefore = residentBytes()
var timeline = Timeline(records: [])
let building = seconds { timeline = Timeline(records: records, interval: interval) }
let snapshotBytes = max(0, residentBytes() - residentBefore)
print(
  "  built in \(decimal(building)) s: \(grouped(timeline.snapshotCount)) snapshots, "
    + "\(grouped(timeline.state.controllerCount)) controllers at the end")
print(
  "  snapshots and final state: \(grouped(snapshotBytes / 1024)) KiB more resident memory, "
    + "\(grouped(snapshotBytes / max(1, timeline.snapshotCount))) bytes per snapshot")

// MARK: Stepping and jumping

var sink = 0
var random = SplitMix64(seed: seed &+ 1)
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
    "  map of \(grouped(layoutCount)) controllers: laid out in \(decimal(layingOut)) s "
      + "(\(grouped(layout!.placements.count)) placed, \(grouped(layout!.collisions.count)) collisions), "
      + "80×40 rendering in \(decimal(rendering)) s")
}

if sink == 42 { print("") }

// MARK: Helpers

/// Per-operation times in milliseconds.
func measure(count: Int, _ body: () -> Void) -> [Double] {
  var times: [Double] = []
  times.reserveCapacity(count)
  for _ in 0..<count { times.append(seconds(body) * 1000) }
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
    "  \(name): \(grouped(times.count)) × mean \(decimal(mean, digits: 4)) ms, p99 \(decimal(p99, digits: 4)) ms, "
      + "max \(decimal(worst, digits: 4)) ms (\(verdict) the \(decimal(limit, digits: 0)) ms target; "
      + "mean is \(decimal(limit / max(mean, 1e-9), digits: 0))× under it)")
}

/// `value` rounded to `digits` decimals, written as short as it goes (`0.5`, `0.0123`; no point for 0 digits).
func decimal(_ value: Double, digits: Int = 2) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return digits == 0 ? String(Int(rounded)) : String(rounded)
}

func fail(_ message: String) -> Never { fail(message, program: "timeline-bench", output: .standardOutput) }
