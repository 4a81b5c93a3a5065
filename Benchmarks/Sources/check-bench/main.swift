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
import BenchSupport
import Journal
import Projection

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
  let generation = seconds {
    do {
      records = try GridSession.benchGrid(profile: profile).records(events: events, seed: seed)
    } catch {
      fail("the navigator refused a command: \(error)")
    }
  }
  let bytes = Record.journal(records)
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
  if !summary.ruleCounts.isEmpty {
    print("    " + summary.ruleCounts.map { "\($0.rule) \(grouped($0.count))" }.joined(separator: ", "))
  }

  let direct = best {
    let reader = JournalReader(bytes: bytes)
    var checker = Checker()
    var findings: [Finding] = []
    while let item = reader.next() {
      if case .record(let record, let line, _) = item { checker.check(record, line: line, into: &findings) }
      findings.removeAll(keepingCapacity: true)
    }
    checker.finish(into: &findings)
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
    var findings: [Finding] = []
    found = 0
    for (index, record) in records.enumerated() {
      checker.check(record, line: index + 1, into: &findings)
      found += findings.count
      findings.removeAll(keepingCapacity: true)
    }
    checker.finish(into: &findings)
    found += findings.count
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

// MARK: Measuring

/// The number of the measurement being run, for `--only`.
var measurement = 0

/// The best time of `count` runs of the next measurement; NaN, without running it, when `--only` names another.
@MainActor
func best(runs count: Int = runs, _ body: () -> Void) -> Double {
  measurement += 1
  if only != 0 && only != measurement { return .nan }
  return best(of: count, body)
}

@MainActor
func report(_ what: String, _ time: Double, bytes: Int?) {
  guard !time.isNaN else { return }
  var line = "  \(what): \(format(time)) s, \(grouped(Int(Double(events) / time))) events/s"
  if let bytes { line += ", \(format(Double(bytes) / time / 1_048_576)) MiB/s" }
  print(line)
}

func fail(_ message: String) -> Never { fail(message, program: "check-bench", output: .standardOutput) }
