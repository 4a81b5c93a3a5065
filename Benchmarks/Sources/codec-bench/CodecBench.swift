import BenchSupport
import Foundation
import Journal

/// Decode and encode throughput of the journal codec beside Foundation's
/// `JSONDecoder`/`JSONEncoder` on the same generated journal, in one run.
///
/// ```
/// swift run -c release codec-bench [--runs 5] [--events 1000000] [--baseline-events 100000]
/// ```
@main
struct CodecBench {
  static func main() {
    let options: Options
    do {
      options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch {
      writeToStandardError("codec-bench: \(error)\n\n\(Options.usage)")
      exit(64)
    }
    if options.help {
      print(Options.usage, terminator: "")
      return
    }
    run(options)
  }

  static func run(_ options: Options) {
    if let path = options.journalPath {
      runOnFile(path, options)
      return
    }
    var generator = JournalGenerator(seed: 2026)
    let records = generator.generate(count: options.events)
    let journal = Record.journal(records)
    if let path = options.writePath {
      // Only write the journal (for `spatial-replay check` and friends).
      guard FileManager.default.createFile(atPath: path, contents: Data(journal)) else {
        writeToStandardError("codec-bench: cannot write \(path)\n")
        exit(1)
      }
      print("wrote \(grouped(records.count)) events, \(grouped(journal.count)) bytes to \(path)")
      return
    }
    let baselineCount = min(options.baselineEvents, records.count)
    let baselineBytes = lineEnd(of: baselineCount, in: journal)
    let flat = records[..<baselineCount].map(FlatEvent.init)

    print(
      "codec-bench: \(grouped(records.count)) events, \(megabytes(journal.count)) MB "
        + "(\(String(format: "%.1f", Double(journal.count) / Double(records.count))) bytes/line), "
        + "\(options.runs) runs, medians")
    print(
      "Foundation baselines run on the first \(grouped(baselineCount)) events (\(megabytes(baselineBytes)) MB) "
        + "to keep the run short; rates are per event, so they compare.")
    verify(records: records, journal: journal, flat: flat, baselineBytes: baselineBytes)
    print("verified: every line decodes back to its record; JSONDecoder reads the same values\n")

    var sink = 0
    if let only = options.only {
      // One measurement alone (for a profiler): no table.
      for _ in 1...options.runs {
        let time = measure {
          switch only {
          case "split": sink &+= splitLines(journal)
          case "decode": sink &+= decodeAll(journal)
          case "decode-in-order": sink &+= decodeInOrder(journal)
          case "decode-baseline": sink &+= decodeWithFoundation(journal, bytes: baselineBytes)
          case "encode": sink &+= encodeAll(records)
          default: sink &+= encodeWithFoundation(flat)
          }
        }
        print(String(format: "%@: %.3f s (CPU %.3f s)", only, time.wall, time.cpu))
      }
      print("(checksum \(sink & 0xFFFF))")
      return
    }
    let all = records.count
    var rows = [
      Row(name: "split lines only (reference)", events: all, bytes: journal.count),
      Row(name: "decode  RecordDecoder", events: all, bytes: journal.count),
      Row(name: "decode  Foundation JSONDecoder", events: baselineCount, bytes: baselineBytes),
      Row(name: "encode  Record.encode(into:)", events: all, bytes: journal.count),
      Row(name: "encode  Foundation JSONEncoder", events: baselineCount, bytes: baselineBytes),
      Row(name: "decode  in order (the readers')", events: all, bytes: journal.count),
    ]
    for run in 1...options.runs {
      writeToStandardError("run \(run)/\(options.runs)…\r")
      rows[0].times.append(measure { sink &+= splitLines(journal) })
      rows[1].times.append(measure { sink &+= decodeAll(journal) })
      rows[2].times.append(measure { sink &+= decodeWithFoundation(journal, bytes: baselineBytes) })
      rows[3].times.append(measure { sink &+= encodeAll(records) })
      rows[4].times.append(measure { sink &+= encodeWithFoundation(flat) })
      rows[5].times.append(measure { sink &+= decodeInOrder(journal) })
    }
    writeToStandardError("               \r")

    printTable(rows)
    print(
      String(
        format: "decode: RecordDecoder is %.1f× Foundation's JSONDecoder (%.1f× by CPU time)",
        rows[1].eventsPerSecond / rows[2].eventsPerSecond, rows[1].eventsPerCPUSecond / rows[2].eventsPerCPUSecond))
    print(
      String(
        format: "encode: Record.encode is %.1f× Foundation's JSONEncoder (%.1f× by CPU time)",
        rows[3].eventsPerSecond / rows[4].eventsPerSecond, rows[3].eventsPerCPUSecond / rows[4].eventsPerCPUSecond))
    print("wall: median elapsed time; CPU: median time this thread ran (less sensitive to other processes)")
    print("(checksum \(sink & 0xFFFF))")
  }

  /// `--journal FILE`: splitting and decoding that journal's lines (a shape of one's own, such as
  /// `spatial-replay simulate --shape churn`), each line decoded by the public decoder on this thread.
  static func runOnFile(_ path: String, _ options: Options) {
    guard let data = FileManager.default.contents(atPath: path) else {
      writeToStandardError("codec-bench: cannot read \(path)\n")
      exit(1)
    }
    let journal = [UInt8](data)
    var lines = 0
    var failures = 0
    var decoder = RecordDecoder.Sequential()
    forEachLine(journal, upTo: journal.count) { line in
      lines += 1
      // Alone and in order, each line decodes, to the same record.
      guard let record = try? RecordDecoder.decode(line.bytes), (try? decoder.decode(line.bytes)) == record else {
        failures += 1
        return
      }
    }
    guard failures == 0 else {
      writeToStandardError("codec-bench: \(failures) of \(lines) lines of \(path) do not decode\n")
      exit(1)
    }
    print(
      "codec-bench: \(path): \(grouped(lines)) events, \(megabytes(journal.count)) MB "
        + "(\(String(format: "%.1f", Double(journal.count) / Double(max(lines, 1)))) bytes/line), "
        + "\(options.runs) runs, medians")
    var sink = 0
    var rows = [
      Row(name: "split lines only (reference)", events: lines, bytes: journal.count),
      Row(name: "decode  RecordDecoder", events: lines, bytes: journal.count),
      Row(name: "decode  in order (the readers')", events: lines, bytes: journal.count),
    ]
    for run in 1...options.runs {
      writeToStandardError("run \(run)/\(options.runs)…\r")
      if options.only == nil || options.only == "split" {
        rows[0].times.append(measure { sink &+= splitLines(journal) })
      }
      if options.only == nil || options.only == "decode" {
        rows[1].times.append(measure { sink &+= decodeAll(journal) })
      }
      if options.only == nil || options.only == "decode-in-order" {
        rows[2].times.append(measure { sink &+= decodeInOrder(journal) })
      }
    }
    writeToStandardError("               \r")
    printTable(rows.filter { !$0.times.isEmpty })
    print("wall: median elapsed time; CPU: median time this thread ran (less sensitive to other processes)")
    print("(checksum \(sink & 0xFFFF))")
  }

  static func printTable(_ rows: [Row]) {
    print(
      pad("", 32) + pad("events/s", 13, right: true) + pad("MB/s", 9, right: true)
        + pad("wall", 10, right: true) + pad("CPU", 10, right: true) + pad("events/s (CPU)", 16, right: true))
    for row in rows {
      print(
        pad(row.name, 32) + pad(grouped(Int(row.eventsPerSecond)), 13, right: true)
          + pad(String(format: "%.1f", row.megabytesPerSecond), 9, right: true)
          + pad(String(format: "%.3f s", row.wall), 10, right: true)
          + pad(String(format: "%.3f s", row.cpu), 10, right: true)
          + pad(grouped(Int(row.eventsPerCPUSecond)), 16, right: true))
    }
    print("")
  }

  /// One line of the table: what was measured, on how much, and the time of each run.
  struct Row {
    var name: String
    var events: Int
    var bytes: Int
    var times: [(wall: Double, cpu: Double)] = []

    var wall: Double { median(times.map(\.wall)) }
    var cpu: Double { median(times.map(\.cpu)) }
    var eventsPerSecond: Double { Double(events) / wall }
    var eventsPerCPUSecond: Double { Double(events) / cpu }
    var megabytesPerSecond: Double { Double(bytes) / wall / 1e6 }
  }

  // MARK: The measured loops

  /// Finds every line end: the floor any reader pays.
  static func splitLines(_ journal: [UInt8]) -> Int {
    var count = 0
    forEachLine(journal, upTo: journal.count) { _ in count += 1 }
    return count
  }

  static func decodeAll(_ journal: [UInt8]) -> Int {
    sumOfSeqs(journal) { line throws(DecodeError) in try RecordDecoder.decode(line.bytes) }
  }

  /// ``decodeAll(_:)`` as the readers decode: one ``RecordDecoder/Sequential`` for all the lines
  /// (the minute of the last time and the ids and class names seen lately kept).
  static func decodeInOrder(_ journal: [UInt8]) -> Int {
    var decoder = RecordDecoder.Sequential()
    return sumOfSeqs(journal) { line throws(DecodeError) in try decoder.decode(line.bytes) }
  }

  /// Decodes every line with `decode`; the sum of the seqs (so the work cannot be optimized away).
  @inline(__always)
  static func sumOfSeqs(
    _ journal: [UInt8], _ decode: (UnsafeRawBufferPointer) throws(DecodeError) -> Record
  ) -> Int {
    var checksum = 0
    forEachLine(journal, upTo: journal.count) { line in
      do {
        checksum &+= try decode(line).seq
      } catch {
        fatalError("\(error)")
      }
    }
    return checksum
  }

  static func decodeWithFoundation(_ journal: [UInt8], bytes: Int) -> Int {
    let data = Data(journal[..<bytes])
    let decoder = JSONDecoder()
    var checksum = 0
    var start = 0
    forEachLine(journal, upTo: bytes) { line in
      do {
        checksum &+= try decoder.decode(FlatEvent.self, from: data[start..<(start + line.count)]).seq
      } catch {
        fatalError("\(error)")
      }
      start += line.count + 1
    }
    return checksum
  }

  static func encodeAll(_ records: [Record]) -> Int {
    var out: [UInt8] = []
    out.reserveCapacity(records.count * 128)
    for record in records {
      record.encode(into: &out)
      out.append(0x0A)
    }
    return out.count
  }

  static func encodeWithFoundation(_ events: [FlatEvent]) -> Int {
    let encoder = JSONEncoder()
    var out = Data()
    out.reserveCapacity(events.count * 160)
    for event in events {
      do {
        out.append(try encoder.encode(event))
      } catch {
        fatalError("\(error)")
      }
      out.append(0x0A)
    }
    return out.count
  }

  /// Calls `body` with each line (without its `\n`) in `journal[..<end]`.
  @inline(__always)
  static func forEachLine(_ journal: [UInt8], upTo end: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
    journal.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var start = 0
      while start < end {
        let lineEnd = memchr(base + start, 0x0A, end - start).map { UnsafeRawPointer($0) - base } ?? end
        body(UnsafeRawBufferPointer(start: base + start, count: lineEnd - start))
        start = lineEnd + 1
      }
    }
  }

  /// The byte offset after the `\n` of line `count`.
  static func lineEnd(of count: Int, in journal: [UInt8]) -> Int {
    var seen = 0
    var end = 0
    forEachLine(journal, upTo: journal.count) { line in
      if seen < count {
        end += line.count + 1
        seen += 1
      }
    }
    return end
  }

  /// Checks, untimed, that both decoders read what was generated.
  static func verify(records: [Record], journal: [UInt8], flat: [FlatEvent], baselineBytes: Int) {
    var index = 0
    var inOrder = RecordDecoder.Sequential()
    forEachLine(journal, upTo: journal.count) { line in
      guard (try? RecordDecoder.decode(line.bytes)) == records[index],
        (try? inOrder.decode(line.bytes)) == records[index]
      else {
        fatalError("line \(index + 1) does not decode to its record: \(String(decoding: line, as: UTF8.self))")
      }
      index += 1
    }
    let decoder = JSONDecoder()
    index = 0
    forEachLine(journal, upTo: baselineBytes) { line in
      guard (try? decoder.decode(FlatEvent.self, from: Data(line))) == flat[index] else {
        fatalError("JSONDecoder reads line \(index + 1) differently")
      }
      index += 1
    }
  }

  // MARK: Figures

  /// The elapsed time and the CPU time of this thread that `body` took, in seconds.
  static func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
    let cpuStart = threadCPUTime()
    let wall = seconds(body)
    return (wall, threadCPUTime() - cpuStart)
  }

  static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }
}

/// The command line: `--runs N`, `--events N`, `--baseline-events N`, `--only NAME`, `--help`.
struct Options {
  var runs = 5
  var events = 1_000_000
  var baselineEvents = 100_000
  var only: String? = nil
  var writePath: String? = nil
  var journalPath: String? = nil
  var help = false

  static let measurements = ["split", "decode", "decode-in-order", "decode-baseline", "encode", "encode-baseline"]

  static let usage = """
    usage: codec-bench [--runs N] [--events N] [--baseline-events N] [--only NAME] [--write FILE]
           codec-bench --journal FILE [--runs N] [--only split|decode|decode-in-order]

    Generates a deterministic journal in memory and prints the median decode and
    encode throughput of the Journal codec beside Foundation's JSONDecoder and
    JSONEncoder on the same events.

      --runs N              measured runs, the median is printed (default 5)
      --events N            events in the generated journal (default 1000000)
      --baseline-events N   events the Foundation baselines decode and encode,
                            the first N of the journal (default 100000)
      --only NAME           time one measurement alone, for a profiler: split,
                            decode, decode-in-order, decode-baseline, encode
                            or encode-baseline
      --write FILE          write the generated journal to FILE and stop
                            (e.g. to time `spatial-replay check FILE`)
      --journal FILE        split and decode FILE's lines instead (a journal of
                            another shape: `spatial-replay simulate --shape churn`)

    """

  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--help" || argument == "-h" {
        help = true
        continue
      }
      if argument == "--write" {
        guard let path = rest.popFirst() else { throw Invalid(description: "--write needs a file name") }
        writePath = path
        continue
      }
      if argument == "--journal" {
        guard let path = rest.popFirst() else { throw Invalid(description: "--journal needs a file name") }
        journalPath = path
        continue
      }
      if argument == "--only" {
        guard let name = rest.popFirst(), Self.measurements.contains(name) else {
          throw Invalid(description: "--only needs one of \(Self.measurements.joined(separator: ", "))")
        }
        only = name
        continue
      }
      guard ["--runs", "--events", "--baseline-events"].contains(argument) else {
        throw Invalid(description: "unknown option \(argument)")
      }
      guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
        throw Invalid(description: "\(argument) needs a positive integer")
      }
      switch argument {
      case "--runs": runs = value
      case "--events": events = value
      default: baselineEvents = value
      }
    }
  }
}
