import BenchSupport
import Dispatch
import Journal
import Projection
import Rendering
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Timings of `diff`'s core on generated runs: two 1M-event runs with 10
/// scattered regressions, and two unrelated 100k-event runs; then the full
/// command on the same data written to files, under `/usr/bin/time -v`.
///
/// ```
/// swift run -c release diff-bench [--events 1000000] [--unrelated 100000] [--runs 5]
///                                 [--dir /tmp/diff-bench] [--cli PATH-TO-spatial-replay]
/// ```
@main
struct DiffBench {
  static func main() {
    var events = 1_000_000
    var unrelated = 100_000
    var runs = 5
    var dir = "/tmp/diff-bench"
    var cli: String? = nil
    var args = Array(CommandLine.arguments.dropFirst())
    while !args.isEmpty {
      let name = args.removeFirst()
      guard let value = args.first else { fail("\(name) needs a value") }
      args.removeFirst()
      switch name {
      case "--events": events = Int(value) ?? events
      case "--unrelated": unrelated = Int(value) ?? unrelated
      case "--runs": runs = max(1, Int(value) ?? runs)
      case "--dir": dir = value
      case "--cli": cli = value
      default: fail("unknown option \(name)")
      }
    }

    if let mode = getenv("DIFF_BENCH_PROFILE").map({ String(cString: $0) }), mode == "files" {
      for _ in 0..<runs {
        let t = seconds {
          let (x, y) = readPair("\(dir)/a.ndjson", "\(dir)/b.ndjson", DiffOptions())
          let r = DiffReport(x, y)
          var text = ""
          r.write(to: &text, nameA: "a", nameB: "b")
        }
        print("files \(ms(t))")
      }
      return
    }
    if getenv("DIFF_BENCH_PROFILE") != nil {
      var generator = RunGenerator(seed: 2026)
      let a = generator.run(count: events, build: "2.4 (1201)")
      for _ in 0..<runs {
        var ra = NormalizedRun(options: DiffOptions())
        let t = seconds { for r in a { ra.append(r, line: r.seq + 1) } }
        print("normalise \(ms(t)), \(ra.vocabulary.tokenCount) tokens")
      }
      return
    }
    print("diff-bench: \(grouped(events))-event runs with 10 regressions, \(grouped(unrelated))-event unrelated runs")
    var generator = RunGenerator(seed: 2026)
    let a = generator.run(count: events, build: "2.4 (1201)")
    let (b, places) = generator.mutate(a, count: 10)
    var other = RunGenerator(seed: 7)
    let u1 = other.run(count: unrelated, build: "2.4 (1201)")
    var third = RunGenerator(seed: 8)
    let u2 = third.run(count: unrelated, build: "2.5 (1300)")
    let n1 = other.noise(count: unrelated)
    let n2 = third.noise(count: unrelated)
    mkdir(dir, 0o755)
    let files = [("a", a), ("b", b), ("u1", u1), ("u2", u2), ("n1", n1), ("n2", n2)].map { name, records in
      let path = "\(dir)/\(name).ndjson"
      do {
        return (path: path, bytes: try writeJournal(records, to: path))
      } catch {
        fail("\(error)")
      }
    }
    print("files: \(files.map { "\($0.path) (\(megabytes($0.bytes)) MB)" }.joined(separator: ", "))")
    print("regressions at seqs \(places.map(String.init).joined(separator: ", "))\n")

    let options = DiffOptions()
    var normalise: [Double] = []
    var align: [Double] = []
    var fromFiles: [Double] = []
    var unrelatedCore: [Double] = []
    var report: DiffReport? = nil
    var unrelatedReport: DiffReport? = nil
    var noiseCore: [Double] = []
    var noiseReport: DiffReport? = nil
    var sink = 0
    for run in 1...runs {
      writeToStandardError("run \(run)/\(runs)…\r")
      var ra = NormalizedRun(options: options)
      var rb = NormalizedRun(options: options)
      normalise.append(
        seconds {
          for r in a { ra.append(r, line: r.seq + 1) }
          for r in b { rb.append(r, line: r.seq + 1) }
        })
      align.append(seconds { report = DiffReport(ra, rb) })
      fromFiles.append(
        seconds {
          let (x, y) = readPair(files[0].path, files[1].path, options)
          let r = DiffReport(x, y)
          var text = ""
          r.write(to: &text, nameA: "a.ndjson", nameB: "b.ndjson")
          sink &+= text.utf8.count
        })
      unrelatedCore.append(
        seconds {
          let (x, y) = readPair(files[2].path, files[3].path, options)
          let r = DiffReport(x, y)
          var text = ""
          r.write(to: &text, nameA: "u1.ndjson", nameB: "u2.ndjson")
          sink &+= text.utf8.count
          unrelatedReport = r
        })
      noiseCore.append(
        seconds {
          let (x, y) = readPair(files[4].path, files[5].path, options)
          let r = DiffReport(x, y)
          var text = ""
          r.write(to: &text, nameA: "n1.ndjson", nameB: "n2.ndjson")
          sink &+= text.utf8.count
          noiseReport = r
        })
    }
    writeToStandardError("              \r")
    guard let report, let unrelatedReport, let noiseReport else { return }
    print("1M pair: \(report.summary)")
    print(
      "  alignment work \(grouped(report.alignment.work)) steps, budget exhausted: \(report.alignment.budgetExhausted)")
    print("  normalise both (records in memory)    median \(ms(median(normalise)))")
    print("  align + classify                      median \(ms(median(align)))")
    print("  read both files (2 threads) + diff + text report  median \(ms(median(fromFiles)))")
    print("unrelated pair: \(unrelatedReport.summary)")
    print(
      "  alignment work \(grouped(unrelatedReport.alignment.work)) steps, "
        + "budget exhausted: \(unrelatedReport.alignment.budgetExhausted)")
    print("  read both files (2 threads) + diff + text report  median \(ms(median(unrelatedCore)))")
    print("unrelated pair with nothing to anchor on: \(noiseReport.summary)")
    print(
      "  alignment work \(grouped(noiseReport.alignment.work)) steps, "
        + "budget exhausted: \(noiseReport.alignment.budgetExhausted)")
    print("  read both files (2 threads) + diff + text report  median \(ms(median(noiseCore)))")
    print("bench process peak RSS \(peakResidentBytes() / 1_048_576) MB (includes the generated records)")
    if sink == 42 { print("") }

    if let cli {
      print("\nfull command (\(cli)):")
      for (x, y) in [(files[0].path, files[1].path), (files[2].path, files[3].path), (files[4].path, files[5].path)] {
        let (wall, rss, status) = timeCommand([cli, "diff", x, y])
        print("  diff \(x) \(y): exit \(status), wall \(wall), peak RSS \(rss)")
      }
    }
  }

  /// Both files at once, one thread each, as `spatial-replay diff` reads them.
  static func readPair(_ a: String, _ b: String, _ options: DiffOptions) -> (NormalizedRun, NormalizedRun) {
    let slots = Mutex<[NormalizedRun?]>([nil, nil])
    let paths = [a, b]
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      let run = read(paths[i], options)
      slots.withLock { $0[i] = run }
    }
    let (x, y) = slots.withLock { ($0[0], $0[1]) }
    guard let x, let y else { fail("a reader thread did not finish") }
    return (x, y)
  }

  static func read(_ path: String, _ options: DiffOptions) -> NormalizedRun {
    var run = NormalizedRun(options: options)
    guard let reader = try? JournalReader(path: path) else { fail("cannot read \(path)") }
    while let item = reader.next() {
      if case .record(let record, let line, _) = item { run.append(record, line: line) }
    }
    return run
  }

  /// Runs `/usr/bin/time -v` on a command; its wall time, peak RSS and exit status as printed.
  static func timeCommand(_ command: [String]) -> (wall: String, rss: String, status: Int32) {
    let log = "/tmp/diff-bench-time.txt"
    let argv = ["/usr/bin/time", "-v", "-o", log] + command
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let cargs = argv.map { strdup($0) } + [nil]
    defer { for a in cargs { free(a) } }
    var pid = pid_t()
    guard posix_spawn(&pid, argv[0], &actions, nil, cargs, environ) == 0 else { fail("cannot run /usr/bin/time") }
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOf: log)) ?? ""
    func field(_ prefix: String) -> String {
      for line in text.split(separator: "\n") {
        let l = String(line).trimmingCharacters(in: " \t")
        if l.hasPrefix(prefix) { return String(l.dropFirst(prefix.count)) }
      }
      return "?"
    }
    let kb = Int(field("Maximum resident set size (kbytes): ")) ?? 0
    return (field("Elapsed (wall clock) time (h:mm:ss or m:ss): "), "\(kb / 1024) MB", (raw >> 8) & 0xFF)
  }
}

func ms(_ s: Double) -> String { "\(Int((s * 1000).rounded())) ms" }

func megabytes(_ bytes: Int) -> String { "\(bytes / 1_000_000)" }

func fail(_ message: String) -> Never { fail(message, program: "diff-bench") }

extension String {
  init(contentsOf path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw CancellationError() }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n <= 0 { break }
      bytes += chunk[..<n]
    }
    self = String(decoding: bytes, as: UTF8.self)
  }

  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s.removeFirst() }
    while let l = s.last, set.contains(l) { s.removeLast() }
    return String(s)
  }
}
