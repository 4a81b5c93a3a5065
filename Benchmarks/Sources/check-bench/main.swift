// Timings of `check` over generated 1M-event journals: the journal read and
// decoded alone, then with every lifecycle rule (the streaming Checker through
// JournalCheck, as the CLI runs it), the Checker alone on decoded records, and
// `check --model` (Conformance); once for an intended recording (no finding) and
// once for a legacy one (many findings).
//
// ```
// swift run -c release check-bench [--events 1000000] [--seed 2026] [--runs 3] [--model 1|0] [--only N]
//
// `--only N` runs the N-th measurement alone (1 read, 2 check, 3 read and Checker,
// 4 fold, 5 Checker, 6 Conformance; then again for the legacy journal from 7), e.g.
// under `perf stat -e instructions:u`, whose counts do not depend on the machine's load.
// ```
//
// The journals come from the reference navigator: a 32 × 32 grid of
// controllers linked right and down, some two-finger edges, and a seeded random
// walk of pans, flings, programmatic moves, modals presented and left, goToRoot,
// waits and marks, cut at exactly `--events` records.
import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#endif

var events = 1_000_000
var seed: UInt64 = 2026
var runs = 3
var model = 1
/// Run only the measurement whose name starts with this (for `perf stat`), 0 for all.
var only = 0

var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let name = arguments.removeFirst()
  guard let value = arguments.first, let number = Int(value), number >= 0 else { fail("\(name) needs a whole number") }
  arguments.removeFirst()
  switch name {
  case "--events": events = number
  case "--seed": seed = UInt64(number)
  case "--runs": runs = number
  case "--model": model = number
  case "--only": only = number
  default: fail("unknown option \(name)")
  }
}

print("check-bench: \(grouped(events)) events, best of \(runs)")
for profile in Profile.allCases {
  var records: [Record] = []
  let generation = seconds { records = generateJournal(events: events, seed: seed, profile: profile) }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(records.count * 128)
  for record in records {
    record.encode(into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
  }
  print(
    "\n\(profile) journal: \(grouped(records.count)) events, \(grouped(bytes.count / 1024)) KiB "
      + "(generated in \(format(generation)) s)")

  var decoded = 0
  let read = best {
    let reader = JournalReader(bytes: bytes)
    decoded = 0
    while let item = reader.next() { if case .record = item { decoded += 1 } }
  }
  report("read and decode", read, bytes: bytes.count)

  var summary = CheckSummary()
  let residentBefore = residentBytes()
  let check = best {
    let reader = JournalReader(bytes: bytes)
    var journalCheck = JournalCheck(rules: .all)
    var findings: [CheckFinding] = []
    while let item = reader.next() {
      journalCheck.consume(item, into: &findings)
      findings.removeAll(keepingCapacity: true)
    }
    journalCheck.finish(into: &findings)
    summary = journalCheck.summary
  }
  let growth = max(0, residentBytes() - residentBefore)
  report("check (read, decode, every rule)", check, bytes: bytes.count)
  print(
    "    \(grouped(summary.events)) events, \(grouped(summary.errors)) errors; "
      + "resident memory grew by \(grouped(growth / 1024)) KiB over the journal's \(grouped(bytes.count / 1024)) KiB")
  if !summary.lifecycleCounts.isEmpty {
    print("    " + summary.lifecycleCounts.map { "\($0.rule) \(grouped($0.count))" }.joined(separator: ", "))
  }

  let direct = best {
    let reader = JournalReader(bytes: bytes)
    var checker = Checker()
    var diagnostics: [Diagnostic] = []
    while let item = reader.next() {
      if case .record(let record, let line, _) = item { checker.check(record, line: line, into: &diagnostics) }
      diagnostics.removeAll(keepingCapacity: true)
    }
    checker.finish(into: &diagnostics)
  }
  report("read, decode and the Checker, without JournalCheck", direct, bytes: bytes.count)

  let fold = best {
    var state = State()
    for record in records { reduce(into: &state, record) }
  }
  report("the model's fold alone on decoded records", fold, bytes: nil)

  var found = 0
  let checker = best {
    var checker = Checker()
    var diagnostics: [Diagnostic] = []
    found = 0
    for (index, record) in records.enumerated() {
      checker.check(record, line: index + 1, into: &diagnostics)
      found += diagnostics.count
      diagnostics.removeAll(keepingCapacity: true)
    }
    checker.finish(into: &diagnostics)
    found += diagnostics.count
  }
  report("Checker alone on decoded records", checker, bytes: nil)

  guard model != 0 else { continue }
  var divergences = 0
  let conformance = best(runs: 1) {
    var conformance = Conformance(profile: .intended)
    var list: [ModelDivergence] = []
    for (index, record) in records.enumerated() {
      conformance.feed(record, line: index + 1, into: &list)
      divergences += list.count
      list.removeAll(keepingCapacity: true)
    }
    conformance.finish(into: &list)
    divergences += list.count
  }
  report("Conformance to the intended model", conformance, bytes: nil)
  print("    \(grouped(divergences)) divergences")
  _ = decoded
}

// MARK: Generation

/// A journal of exactly `events` records from the navigator under `profile`.
func generateJournal(events: Int, seed: UInt64, profile: Profile) -> [Record] {
  var random = SplitMix(seed: seed)
  var nav = Navigator(profile: profile, header: SessionHeader(session: "BENCH", app: "Bench", profile: "\(profile)"))
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

// MARK: Measuring

func seconds(_ body: () -> Void) -> Double {
  var start = timespec()
  var end = timespec()
  clock_gettime(CLOCK_MONOTONIC, &start)
  body()
  clock_gettime(CLOCK_MONOTONIC, &end)
  return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// The best time of `runs` runs.
/// The number of the measurement being run, for `--only`.
var measurement = 0

@MainActor
func best(runs count: Int = runs, _ body: () -> Void) -> Double {
  measurement += 1
  if only != 0 && only != measurement { return .nan }
  var times: [Double] = []
  for _ in 0..<count { times.append(seconds(body)) }
  return times.min()!
}

@MainActor
func report(_ what: String, _ time: Double, bytes: Int?) {
  guard !time.isNaN else { return }
  var line = "  \(what): \(format(time)) s, \(grouped(Int(Double(events) / time))) events/s"
  if let bytes { line += ", \(format(Double(bytes) / time / 1_048_576)) MiB/s" }
  print(line)
}

/// Resident memory of the process in bytes (from /proc/self/statm; 0 where it is missing).
func residentBytes() -> Int {
  guard let file = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(file) }
  var buffer = [CChar](repeating: 0, count: 256)
  guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
  let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  let parts = text.split(separator: " ")
  guard parts.count >= 2, let resident = Int(parts[1]) else { return 0 }
  return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func format(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

func grouped(_ n: Int) -> String {
  let digits = String(n)
  var out = ""
  for (i, digit) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
    out.append(digit)
  }
  return out
}

func fail(_ message: String) -> Never {
  print("check-bench: \(message)")
  exit(64)
}
