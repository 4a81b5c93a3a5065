import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import TestSupport

/// Memory bounded by bytes, not by counts: long lines, long class names and a long build
/// in the header must not make a command hold a copy per record (issue 44, round three).
///
/// The journals are a few hundred megabytes of text: each command's peak must stay far
/// below what one copy per record (the figures before the fix) took.
@Suite(.serialized) struct MemoryBoundTests {
  static let header = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"M"}"#

  static func time(_ i: Int) -> String {
    "2026-01-01T00:00:\(String(format: "%02d", i / 1_000_000 % 60)).\(String(format: "%06d", i % 1_000_000))Z"
  }

  /// Writes `lines` (each `\n`-terminated) to `name` in `dir`, line by line.
  static func write(
    _ dir: TemporaryDirectory, _ name: String, header: String = header, _ lines: Int,
    _ line: (Int) -> String
  ) throws -> String {
    var text = header + "\n"
    for i in 1...lines { text += line(i) + "\n" }
    return try dir.write(name, text)
  }

  /// 150 marks of 1 MB labels: a batch of 4,096 records held all 150 MB at once.
  @Test func longLinesAreQueuedByBytes() throws {
    let dir = try TemporaryDirectory()
    let label = String(repeating: "x", count: 1_000_000)
    let path = try Self.write(dir, "marks.ndjson", 150) {
      #"{"seq":\#($0),"time":"\#(Self.time($0))","type":"mark","label":"\#(label)"}"#
    }
    for command in [["check"], ["stats"], ["export", "--table", "events", "-o", dir.file("e.ndjson")], ["paths"]] {
      let outcome = try Subprocess.run(command + [path])
      #expect(outcome.exitStatus == 0, "\(outcome)")
      #expect(outcome.peakMemoryKiB < 100 * 1024, "\(outcome)")
    }
    let report = try Subprocess.run(["report", "-o", dir.file("r.html"), path])
    #expect(report.exitStatus == 0, "\(report)")
    #expect(report.peakMemoryKiB < 140 * 1024, "\(report)")
  }

  /// 300 allocs of one 500 kB class: each kept its own copy for the whole session.
  @Test func classNamesAreKeptOnce() throws {
    let dir = try TemporaryDirectory()
    let className = String(repeating: "C", count: 500_000)
    let path = try Self.write(dir, "classes.ndjson", 600) { i in
      i % 2 == 1
        ? #"{"seq":\#(i),"time":"\#(Self.time(i))","type":"alloc","controller":"c\#(i)","class":"\#(className)"}"#
        : #"{"seq":\#(i),"time":"\#(Self.time(i))","type":"dealloc","controller":"c\#(i - 1)"}"#
    }
    for command in [["check"], ["stats"], ["paths"], ["latency"], ["trace", "--format", "chrome"]] {
      let outcome = try Subprocess.run(command + [path])
      #expect(outcome.exitStatus == 0, "\(outcome)")
      #expect(outcome.peakMemoryKiB < 100 * 1024, "\(outcome)")
    }
  }

  /// A thread's name holds a long class shortened in the middle (they were all made at the end, whole).
  @Test func aTracesThreadNamesShortenALongClass() throws {
    let long = "Start" + String(repeating: "é", count: 1000) + "End"
    let label = ChromeTraceEncoder.threadLabel(long)
    #expect(label.unicodeScalars.count == ChromeTraceEncoder.threadLabelLimit + 1)
    #expect(label.hasPrefix("Start") && label.hasSuffix("End") && label.contains("\u{2026}"))
    #expect(ChromeTraceEncoder.threadLabel("HomeViewController") == "HomeViewController")
  }

  /// A 100 kB build in the header of 2,000 events: a batch's rows were encoded whole
  /// before being written (200 MB), the output is now written block by block.
  @Test func aLongBuildIsWrittenBlockByBlock() throws {
    let dir = try TemporaryDirectory()
    let build = String(repeating: "b", count: 100_000)
    let header =
      #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"M","build":"\#(build)"}"#
    let path = try Self.write(dir, "build.ndjson", header: header, 2000) {
      #"{"seq":\#($0),"time":"\#(Self.time($0))","type":"mark","label":"m"}"#
    }
    let out = dir.file("events.ndjson")
    let outcome = try Subprocess.run(["export", "--table", "events", "-o", out, path])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.peakMemoryKiB < 100 * 1024, "\(outcome)")
    // Every row still carries the build: the header's columns are on each row, as DuckDB reads them.
    let text = try dir.text(out)
    #expect(text.split(separator: "\n").count == 2001)
    #expect(text.utf8.count > 2001 * 100_000)
  }

  /// 256 rows of 1 MB texts made a 256 MB row group: the sizes are now added up as texts come.
  @Test func parquetRowGroupsAreSizedByBytes() {
    let context = RowContext(session: "s", file: "f")
    var writer = ParquetWriter(table: .visits, rowGroupBytes: 4 << 20, context: context)
    let className = String(repeating: "C", count: 1 << 20)
    var rows = 0
    while !writer.isRowGroupFull && rows < 256 {
      writer.append(
        TableRow([
          .string("c\(rows)"), .string(className), .integer(1), .integer(rows), .timestamp(Timestamp(microseconds: 0)),
          .integer(rows + 1), .timestamp(Timestamp(microseconds: 1000)), .number(1), .boolean(false), .boolean(true),
        ]))
      rows += 1
    }
    #expect(writer.isRowGroupFull)
    #expect(rows <= 8, "a 4 MiB row group full after \(rows) rows of 1 MiB")
  }
}

/// The analyses of navigation in time linear in their input, whatever their options.
@Suite struct NavigationScaleTests {
  static func steps(_ screens: [String], gap: Int64 = 1000) -> [ScreenStep] {
    screens.enumerated().map { i, screen in
      ScreenStep(
        seq: i, time: Timestamp(microseconds: 1_000_000_000 + Int64(i) * gap), controller: ControllerID(screen + "#1"),
        className: screen, previous: nil, previousClass: nil, trigger: nil)
    }
  }

  /// The walk from every S1 (the old one) and the cursors agree on random sessions.
  @Test func aFunnelWithinAWindowMatchesTheWalkFromEveryStart() {
    var random = SplitMix64(seed: 44)
    let screens = ["A", "B", "C", "D"]
    for trial in 0..<300 {
      let sequence = (0..<(5 + random.below(60))).map { _ in screens[random.below(screens.count)] }
      let funnel = (0..<(2 + random.below(3))).map { _ in screens[random.below(screens.count)] }
      let window = Int64(1000 * (1 + random.below(20)))
      var matcher = FunnelMatcher(steps: funnel, key: .class, window: window)
      for step in Self.steps(sequence) { matcher.add(step) }
      // The reference: from each S1, each later step at its first occurrence after the one before.
      var best: [Int64] = []
      let times = Self.steps(sequence).map(\.time.microseconds)
      for start in sequence.indices where sequence[start] == funnel[0] {
        var reached = [times[start]]
        var next = start + 1
        while reached.count < funnel.count, next < sequence.count, times[next] - times[start] <= window {
          if sequence[next] == funnel[reached.count] { reached.append(times[next]) }
          next += 1
        }
        if reached.count > best.count { best = reached }
        if best.count == funnel.count { break }
      }
      #expect(matcher.reached() == best, "trial \(trial): \(sequence) \(funnel) within \(window)")
    }
  }

  /// Paths of 1,000 steps over a long session: one entry per distinct path, each compared
  /// by its screens, the counts those of every run of K.
  @Test func longPathsAreCountedWithoutACopyEach() {
    var random = SplitMix64(seed: 7)
    let sequence = (0..<6000).map { _ in ["A", "B", "C"][random.below(3)] }
    for k in [1, 3, 1000] {
      var counter = PathCounter(steps: k, key: .class)
      for step in Self.steps(sequence) { counter.add(step) }
      var expected: [[String]: Int] = [:]
      for start in 0...(sequence.count - k) { expected[Array(sequence[start..<start + k]), default: 0] += 1 }
      let counted = Dictionary(uniqueKeysWithValues: counter.paths.map { ($0.path, $0.count) })
      #expect(counted == expected, "K = \(k)")
      var totals = PathTotals()
      totals.add(counter, session: "s1")
      totals.add(counter, session: "s2")
      let top = totals.ranked(top: 5)
      let all = totals.ranked(top: nil)
      #expect(top == Array(all.prefix(5)))
      #expect(all.allSatisfy { $0.count == 2 * expected[$0.path]! && $0.sessions == 2 })
    }
  }
}
