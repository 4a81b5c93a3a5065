// Timings of `spatial-replay step` over a generated 1M-event journal: the
// time to the first screen against one plain read of the file, then the time
// each key takes (the new state and the whole screen rendered), per key.
//
// ```
// swift run -c release step-bench [--events 1000000] [--profile legacy|intended] [--keys 2000] [--seed 2026]
//                                 [--journal PATH]
// ```
//
// `--journal PATH` writes the journal there and keeps it (for `spatial-replay step PATH`).
//
// The journal comes from the reference navigator: a grid of controllers, a
// seeded random walk of pans, flings, programmatic moves, modals presented and
// left, goToRoot and marks. The legacy profile (the default) gives the
// checker plenty to report: some 600,000 findings in 1M events.
import BenchSupport
import Journal
import Projection
import Rendering
import Stepper

#if canImport(Glibc)
  import Glibc
#endif

var events = 1_000_000
var profile = Profile.legacy
var keyCount = 2000
var seed: UInt64 = 2026
var keep: String?

var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let name = arguments.removeFirst()
  guard let value = arguments.first else { fail("\(name) needs a value") }
  arguments.removeFirst()
  switch name {
  case "--events": events = max(1, Int(value) ?? events)
  case "--keys": keyCount = max(1, Int(value) ?? keyCount)
  case "--seed": seed = UInt64(value) ?? seed
  case "--journal": keep = value
  case "--profile":
    guard let p = Profile(rawValue: value) else { fail("--profile takes intended or legacy") }
    profile = p
  default: fail("unknown option \(name)")
  }
}

// MARK: The journal

print("step-bench: \(grouped(events)) events, \(profile) profile")
var records: [Record] = []
let generation = seconds { records = generateJournal(events: events, profile: profile, seed: seed) }
let path = keep ?? "/tmp/step-bench-\(getpid()).ndjson"
guard let bytes = try? writeJournal(records, to: path) else { fail("cannot write \(path)") }
defer { if keep == nil { unlink(path) } }
print("  generated in \(format(generation)) s: \(grouped(bytes / 1024)) KiB at \(path)")
records = []

// MARK: Opening

var sink = 0
// Warm the page cache, so that both measurements read from memory.
_ = try? JournalReader.readAll(path: path)
let readTime = best(of: 3) {
  guard let (r, d) = try? JournalReader.readAll(path: path) else { fail("cannot read \(path)") }
  sink &+= r.count &+ d.count
}
var journal: StepperJournal?
var firstScreen: [String] = []
var openTime = Double.infinity
var checkedTime = Double.infinity
for _ in 0..<3 {
  let start = now()
  guard let (loaded, check) = try? StepperJournal.open(path: path) else { fail("cannot read \(path)") }
  let stepper = Stepper(journal: loaded)
  firstScreen = stepper.render(stepper.start(), size: (width: 80, height: 24))
  openTime = min(openTime, seconds(since: start))
  journal = loaded.withFindings(check.wait())
  checkedTime = min(checkedTime, seconds(since: start))
}
guard let journal else { fail("no journal") }
// The same without the check: what the reading thread does alone.
let uncheckedTime = best(of: 2) {
  guard let rules = try? RuleSelection(only: ["bom"]),
    let (loaded, _) = try? StepperJournal.open(path: path, rules: rules)
  else { fail("cannot read \(path)") }
  let stepper = Stepper(journal: loaded)
  sink &+= stepper.render(stepper.start(), size: (width: 80, height: 24)).count
}
let checkOnly = best(of: 1) { sink &+= Checker.check(journal.records).count }
let timelineOnly = best(of: 1) { sink &+= Timeline(records: journal.records).snapshotCount }
print(
  "  one read of the file (decode every line):     \(format(readTime)) s "
    + "(\(grouped(Int(Double(journal.count) / readTime))) events/s)")
print(
  "  step: first screen (read, timeline):          \(format(openTime)) s = \(format(openTime / readTime)) × the read")
print(
  "  step: findings in (checked after it):         \(format(checkedTime)) s = \(format(checkedTime / readTime)) × the read; "
    + "\(grouped(journal.findings.count)) finding\(journal.findings.count == 1 ? "" : "s")")
print(
  "    for comparison, alone: check \(format(checkOnly)) s, timeline \(format(timelineOnly)) s, "
    + "first screen without the check \(format(uncheckedTime)) s = \(format(uncheckedTime / readTime)) × the read")
print("  first screen, 80×24:")
for line in firstScreen { print("    | " + line) }

// MARK: Keys

let stepper = Stepper(journal: journal)
var random = SplitMix64(seed: seed &+ 7)
var state = stepper.start()

/// Moves the cursor to the record with this seq (through the `:` prompt).
@MainActor func place(atSeq seq: Int) {
  for key in StepperKey.sequence(named: ":\(seq)")! { state = stepper.handle(key, in: state) }
}

/// Presses `keys` (one script token) `presses` times in a row, in `runs` runs
/// from random places (whose screen is drawn first, untimed, as the user saw
/// it), timing each press: the new state and the rendered screen, 80×24 and
/// 200×60 in alternate runs.
@MainActor func measureKey(_ name: String, runs: Int, presses: Int, token: (() -> String)? = nil) {
  var samples: [Double] = []
  samples.reserveCapacity(runs * presses)
  for run in 0..<runs {
    place(atSeq: journal.records[Int.random(in: 0..<journal.count, using: &random)].seq)
    let size = run % 2 == 0 ? (width: 80, height: 24) : (width: 200, height: 60)
    sink &+= stepper.render(state, size: size).count
    for _ in 0..<presses {
      guard let keys = StepperKey.sequence(named: token?() ?? name) else { fail("no key \(name)") }
      let t = seconds {
        for key in keys { state = stepper.handle(key, in: state) }
        sink &+= stepper.render(state, size: size).count
      }
      samples.append(t)
    }
  }
  samples.sort()
  let mean = samples.reduce(0, +) / Double(samples.count)
  print(
    "  \(pad(name, 14)) \(pad(String(samples.count), 6, right: true)) × "
      + "mean \(milliseconds(mean)) · median \(milliseconds(samples[samples.count / 2])) · "
      + "p99 \(milliseconds(samples[min(samples.count - 1, samples.count * 99 / 100)])) · "
      + "max \(milliseconds(samples[samples.count - 1]))")
}

let runs = max(2, keyCount / 20)
print("  keys, ms per press (new state + screen), \(runs) runs from random places, 80×24 and 200×60:")
measureKey("l", runs: runs, presses: 20)
measureKey("h", runs: runs, presses: 20)
measureKey("PgDn", runs: runs, presses: 5)
measureKey("PgUp", runs: runs, presses: 5)
measureKey("]", runs: runs, presses: 5)
measureKey("[", runs: runs, presses: 5)
measureKey("f", runs: runs, presses: 5)
measureKey("F", runs: runs, presses: 5)
measureKey("g", runs: runs, presses: 1)
measureKey("G", runs: runs, presses: 1)
measureKey(":SEQ", runs: runs, presses: 5) {
  ":\(journal.records[Int.random(in: 0..<journal.count, using: &random)].seq)"
}
measureKey("H", runs: runs, presses: 2)
measureKey("/goToRoot", runs: max(2, runs / 4), presses: 1)
measureKey("/no such text", runs: 2, presses: 1)

// What one screen costs, piece by piece, at random places.
var foldTime = 0.0
var layoutTime = 0.0
var mapTime = 0.0
var controllers = 0
let samples = 200
for _ in 0..<samples {
  let index = Int.random(in: 0..<journal.count, using: &random)
  var model = State()
  foldTime += seconds { model = journal.timeline.state(at: index) }
  var layout: MapLayout?
  layoutTime += seconds { layout = MapLayout(state: model) }
  mapTime += seconds {
    var text = ""
    MapRenderer(options: .init(width: 80, height: 7)).render(layout!, to: &text)
    sink &+= text.utf8.count
  }
  controllers += model.controllerCount
}
print(
  "  one screen's parts, mean of \(samples) random places (\(grouped(controllers / samples)) controllers): "
    + "state \(milliseconds(foldTime / Double(samples))) ms, map layout \(milliseconds(layoutTime / Double(samples))) ms, "
    + "map drawing \(milliseconds(mapTime / Double(samples))) ms")
print("  (sink \(sink & 1))")

// MARK: Helpers

/// step-bench's session: a 24 × 24 grid of controllers `c0-0` to `c23-23` of
/// four classes, by column, then a walk that leaves the modals it presents open.
func generateJournal(events: Int, profile: Profile, seed: UInt64) -> [Record] {
  let session = GridSession(
    profile: profile, header: SessionHeader(session: "STEP-BENCH", profile: profile.rawValue), side: 24,
    idPrefix: "c", classNames: (0..<4).map { "Screen\($0)ViewController" }, twoFingerEdges: 0, walk: .sheets)
  do {
    return try session.records(events: events, seed: seed)
  } catch {
    fail("the navigator refused a command: \(error)")
  }
}

func milliseconds(_ s: Double) -> String {
  let micro = Int((s * 1_000_000).rounded())
  let ms = micro / 1000
  let rest = micro % 1000
  return "\(ms).\(rest < 100 ? "0" : "")\(rest < 10 ? "0" : "")\(rest)"
}

func fail(_ message: String) -> Never { fail(message, program: "step-bench", status: 1, output: .standardOutput) }
