// The Recorder's cost to its caller and its sustained throughput, with the
// writer on a real file, under each durability policy; beside the baseline of
// calling `JournalWriter.append` on the caller's thread, measured in the same run.
//
// ```
// swift run -c release recorder-bench [--events 1000000] [--latency-events 200000] [--baseline-events 20000] [--dir /tmp]
// ```
//
// - Caller-side cost: `--latency-events` calls timed one by one (monotonic clock
//   around each call), made in bursts of 1,000 with 1 ms between bursts (an app
//   records in bursts, far fewer than this); median, p99, p99.9 and the worst.
//   The queue drops rather than waits here (`dropNewest`, capacity 65,536): the
//   drops are printed and are 0 when the writer keeps up.
// - Sustained: `--events` calls as fast as one thread can make them, waiting when
//   the queue is full (`block`), until `close()` has written everything: events/s
//   and the events lost at close.
// - Baseline: `JournalWriter.append` of one event per call, timed the same way.
import BenchSupport
import Journal

#if canImport(Glibc)
  import Glibc
#endif

var events = 1_000_000
var latencyEvents = 200_000
var baselineEvents = 20_000
var directory = "/tmp"

var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let name = arguments.removeFirst()
  guard let value = arguments.first else { fail("\(name) needs a value", program: "recorder-bench") }
  arguments.removeFirst()
  switch name {
  case "--events": events = Int(value) ?? events
  case "--latency-events": latencyEvents = Int(value) ?? latencyEvents
  case "--baseline-events": baselineEvents = Int(value) ?? baselineEvents
  case "--dir": directory = value
  default: fail("unknown option \(name)", program: "recorder-bench")
  }
}

let header = SessionHeader(session: "recorder-bench", app: "Bench")

/// A fresh journal path for one measurement.
@MainActor func journalPath(_ name: String) -> String {
  let path = "\(directory)/recorder-bench-\(getpid())-\(name).ndjson"
  unlink(path)
  return path
}

/// Median, p99, p99.9 and the worst of per-call times, in microseconds.
func percentiles(_ samples: [Double]) -> String {
  let sorted = samples.sorted()
  func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1e6 }
  return "median \(format(at(0.5))) µs, p99 \(format(at(0.99))) µs, p99.9 \(format(at(0.999))) µs, "
    + "worst \(format(sorted.last! * 1e6)) µs"
}

/// The event the calls record: a lifecycle callback, the most frequent kind in a session.
let controllers: [ControllerID] = (0..<64).map { ControllerID("controller-\($0)") }

print("recorder-bench: writer on \(directory), \(grouped(latencyEvents)) timed calls, \(grouped(events)) sustained")
for durability in [Durability.none, .batch, .always] {
  // Caller-side cost.
  let path = journalPath("latency-\(durability)")
  let recorder = Recorder(
    path: path, header: header,
    options: RecorderOptions(capacity: 65_536, overflow: .dropNewest, durability: durability))
  var samples = [Double](repeating: 0, count: latencyEvents)
  for i in 0..<latencyEvents {
    let start = now()
    recorder.didAppear(controllers[i & 63])
    samples[i] = now() - start
    if i % 1_000 == 999 { usleep(1_000) }
  }
  let latencyStatus = recorder.close()
  print(
    "  \(pad(durability.rawValue, 6)) call: \(percentiles(samples)); dropped \(latencyStatus.dropped), "
      + "written \(grouped(latencyStatus.written))")
  unlink(path)

  // Sustained throughput.
  let sustainedPath = journalPath("sustained-\(durability)")
  let sustained = Recorder(
    path: sustainedPath, header: header,
    options: RecorderOptions(capacity: 65_536, overflow: .block, durability: durability))
  let start = now()
  for i in 0..<events { sustained.didAppear(controllers[i & 63]) }
  let status = sustained.close()
  let elapsed = seconds(since: start)
  print(
    "  \(pad(durability.rawValue, 6)) sustained: \(grouped(Int(Double(events) / elapsed))) events/s "
      + "(\(format(elapsed)) s to close), written \(grouped(status.written)), lost \(status.lost + status.dropped)")
  unlink(sustainedPath)

  // Baseline: the writer on the caller's thread.
  let baselinePath = journalPath("baseline-\(durability)")
  do {
    let writer = try JournalWriter(path: baselinePath, durability: durability)
    try writer.append(Draft(event: .session(header)))
    let count = durability == .always ? max(1, baselineEvents / 10) : baselineEvents
    var direct = [Double](repeating: 0, count: count)
    for i in 0..<count {
      let start = now()
      try writer.append(Draft(event: .lifecycle(controller: controllers[i & 63], callback: .didAppear)))
      direct[i] = now() - start
    }
    try writer.close()
    let ratio = median(direct) / median(samples)
    print(
      "  \(pad(durability.rawValue, 6)) baseline JournalWriter.append on the caller (\(grouped(count)) calls): "
        + "\(percentiles(direct)); median \(format(ratio))× the recorder's")
  } catch {
    fail("\(error)", program: "recorder-bench", status: 1)
  }
  unlink(baselinePath)
}
