import BenchSupport
import Journal
import Projection
import Rendering

/// Throughput of the analytics pipeline in process, without the command line:
/// the simulator, the stats builder and the visits table (rows encoded as NDJSON),
/// over one simulated journal held in memory.
///
///   swift run -c release analytics-bench [EVENTS] [RUNS]
///
/// Prints the median of RUNS runs (5 by default) of each, in ms and events/s.
/// `Benchmarks/run-analytics.sh` measures the commands end to end (time and peak RSS).
@main
enum AnalyticsBench {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    let events = arguments.first.flatMap { Int($0) } ?? 1_000_000
    let runs = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
    let simulation = Simulation(events: events, seed: 1)

    var journal: [UInt8] = []
    let simulate = measure(runs) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(events * 130)
      Simulator.run(simulation) { bytes += $0 }
      journal = bytes
      return bytes.count
    }
    report("simulate", events: events, simulate)
    print("  journal: \(journal.count) bytes, \(journal.count / max(1, events)) bytes per event")

    let read = measure(runs) {
      let reader = JournalReader(bytes: journal)
      var count = 0
      while let item = reader.next() { if case .record = item { count += 1 } }
      return count
    }
    report("read only (baseline)", events: events, read)

    let stats = measure(runs) {
      let reader = JournalReader(bytes: journal)
      var builder = StatsBuilder(file: "bench")
      while let item = reader.next() { builder.consume(item) }
      return builder.finish().controllers.count
    }
    report("stats", events: events, stats)

    let visits = measure(runs) {
      let reader = JournalReader(bytes: journal)
      var builder = TableBuilder(table: .visits, file: "bench")
      var encoder = TableEncoder(table: .visits, format: .ndjson)
      var rows: [TableRow] = []
      var out: [UInt8] = []
      var total = 0
      while let item = reader.next() {
        builder.consume(item, into: &rows)
        if !rows.isEmpty {
          encoder.context = builder.context
          for row in rows { encoder.append(row, to: &out) }
          rows.removeAll(keepingCapacity: true)
          if out.count > 1 << 18 {
            total += out.count
            out.removeAll(keepingCapacity: true)
          }
        }
      }
      builder.finish(into: &rows)
      return total + out.count
    }
    report("export --table visits", events: events, visits)
  }

  /// Runs `body` `runs` times; the durations in seconds, sorted, and the last result.
  static func measure(_ runs: Int, _ body: () -> Int) -> (seconds: [Double], result: Int) {
    var times: [Double] = []
    var result = 0
    for _ in 0..<max(1, runs) { times.append(seconds { result = body() }) }
    return (times.sorted(), result)
  }

  static func report(_ name: String, events: Int, _ m: (seconds: [Double], result: Int)) {
    let median = m.seconds[m.seconds.count / 2]
    let rate = Double(events) / median
    print(
      "\(pad(name + " ", 24)) median \(Int(median * 1000)) ms (min \(Int(m.seconds[0] * 1000)), max "
        + "\(Int(m.seconds[m.seconds.count - 1] * 1000))), \(Int(rate / 1000)) k events/s")
  }
}
