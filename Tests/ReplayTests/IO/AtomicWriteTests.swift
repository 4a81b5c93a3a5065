import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Failures leave every input as it was, and the commands that write a file
/// (`record -o`, `export -o`, `simulate -o`) write it atomically: a reader sees
/// no file, the old file or the whole new one, never a part, whether the write
/// fails (the rename refused, the file size limit hit) or the process is killed midway.
@Suite struct AtomicWriteTests {
  /// A journal with errors (a malformed line, a seq gap) and a torn tail.
  static let broken =
    JournalText.lines([
      JournalText.header(), JournalText.alloc(1, "home"),
      #"{"seq":2,"time":"2026-01-01T00:00:00.002000Z","type":"root"}"#,
      JournalText.mark(5, "after a gap"),
    ]) + #"{"seq":6,"ti"#

  /// Every command over inputs it refuses or finds wrong (exit 1 or 2): the inputs do not change.
  @Test(arguments: [
    ["check", "B"], ["check", "--model", "--strict", "B", "D"], ["cat", "B"], ["log", "B"], ["at", "B", "1"],
    ["at", "B", "99"], ["map", "B"], ["stats", "B", "D"], ["export", "--table", "events", "B"], ["diff", "G", "B"],
    ["bisect", "G", "B"], ["bisect", "--check", "G", "B"], ["tail", "D"], ["append", "D"], ["append", "G"],
    ["append", "B"], ["append", "M"],
  ])
  func aFailingCommandLeavesItsInputsUntouched(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let good = try directory.write("good.ndjson", JournalText.lines([JournalText.header(), JournalText.mark(1, "x")]))
    let broken = try directory.write("broken.ndjson", Self.broken)
    try #require(mkdir(directory.file("dir.ndjson"), 0o755) == 0)
    defer { removeTree(directory.file("dir.ndjson")) }
    // M: a journal that does not exist (append must not create it for a bad first line).
    let paths = ["B": broken, "G": good, "D": directory.file("dir.ndjson"), "M": directory.file("missing.ndjson")]
    let before = try [good, broken].map { try checksum(directory.read($0)) }
    let listing = directoryEntries(directory.path)
    // `append` fails on its first input line: nothing is appended, and the torn
    // tail of B is not moved aside.
    let outcome = try Subprocess.run(
      commandLine.map { paths[$0] ?? $0 }, stdin: Array("not json\n".utf8), timeout: .seconds(60))
    #expect(outcome.endedCleanly && outcome.exitStatus != 0, "\(outcome)")
    #expect(try [good, broken].map { try checksum(directory.read($0)) } == before, "\(commandLine) changed an input")
    #expect(directoryEntries(directory.path) == listing, "\(commandLine) wrote a file")
    #expect(directoryEntries(directory.file("dir.ndjson")) == [])
  }

  /// An output that cannot be renamed into place (a directory is in the way):
  /// an error, the directory untouched, no temporary file left.
  @Test(arguments: [
    ["simulate", "--events", "2000", "-o", "OUT"], ["export", "--table", "events", "-o", "OUT", "G"],
    ["record", "S", "-o", "OUT"],
  ])
  func anOutputThatCannotBeRenamedIntoPlaceLeavesNothing(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let good = try directory.write("good.ndjson", JournalText.lines([JournalText.header(), JournalText.mark(1, "x")]))
    let script = try directory.write("s.scenario", "controller home HomeViewController\nroot home\n")
    try #require(mkdir(directory.file("out"), 0o755) == 0)
    defer { removeTree(directory.file("out")) }
    try directory.write("out/keep", "kept")
    let listing = directoryEntries(directory.path)
    let paths = ["G": good, "S": script, "OUT": directory.file("out")]
    let outcome = try Subprocess.run(commandLine.map { paths[$0] ?? $0 }, timeout: .seconds(60))
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(directoryEntries(directory.path) == listing, "no temporary file left: \(directoryEntries(directory.path))")
    #expect(directoryEntries(directory.file("out")) == ["keep"])
  }

  /// Writes that fail midway (`ulimit -f`, with SIGXFSZ ignored so that `write` fails
  /// with EFBIG): an error, and no output file, old or partial, is replaced.
  @Test(arguments: [
    ["simulate", "--events", "50000", "-o", "OUT"], ["export", "--table", "events", "-o", "OUT", "BIG"],
  ])
  func aWriteThatFailsMidwayReplacesNothing(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let big = directory.file("big.ndjson")
    let simulated = try Subprocess.run(["simulate", "--events", "20000", "--seed", "5", "-o", big])
    try #require(simulated.exitStatus == 0, "\(simulated)")
    let out = try directory.write("out.ndjson", "the old output\n")
    let listing = directoryEntries(directory.path)
    let arguments = commandLine.map { $0 == "OUT" ? out : $0 == "BIG" ? big : $0 }
    let outcome = try Subprocess.run(
      ["-c", #"ulimit -f 256 && trap '' XFSZ && exec "$@""#, "sh", Binary.path] + arguments, executable: "/bin/sh",
      timeout: .seconds(120))
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(outcome.stderrText.contains("File too large"), "\(outcome)")
    #expect(try directory.text(out) == "the old output\n", "the old output is intact")
    #expect(directoryEntries(directory.path) == listing, "no temporary file left")
  }

  /// Results that cannot be written to standard output (a full disk: `/dev/full`) are an
  /// error, not a success with the output silently lost.
  @Test(arguments: [
    ["cat", "G"], ["log", "G"], ["check", "G"], ["at", "G", "1"], ["map", "G"], ["stats", "G"],
    ["export", "--table", "events", "G"], ["simulate", "--events", "20000"], ["diff", "G", "G2"],
  ])
  func aFullStandardOutputIsAnError(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let good = try directory.write("good.ndjson", JournalText.lines([JournalText.header(), JournalText.mark(1, "x")]))
    let other = try directory.write(
      "other.ndjson", JournalText.lines([JournalText.header(), JournalText.alloc(1, "a")]))
    let arguments = commandLine.map { $0 == "G" ? good : $0 == "G2" ? other : $0 }
    let outcome = try Subprocess.run(
      ["-c", #"exec "$@" > /dev/full"#, "sh", Binary.path] + arguments, executable: "/bin/sh", timeout: .seconds(60))
    #expect(outcome.exitStatus == 2, "\(outcome)")
    #expect(
      outcome.stderrText.hasSuffix("spatial-replay: error: cannot write to standard output: No space left on device\n"),
      "\(outcome)")
  }

  /// `export --partition` killed at random points: no temporary file anywhere in the
  /// layout, and every partition file there is complete.
  @Test func aPartitionedExportKilledMidwayLeavesNoTemporaryFile() throws {
    let directory = try TemporaryDirectory()
    var inputs: [String] = []
    for seed in 1...3 {
      let path = directory.file("in-\(seed).ndjson")
      let simulated = try Subprocess.run(["simulate", "--events", "60000", "--seed", "\(seed)", "-o", path])
      try #require(simulated.exitStatus == 0, "\(simulated)")
      inputs.append(path)
    }
    let whole = directory.file("whole")
    defer { removeTree(whole) }
    let complete = try Subprocess.run(["export", "--table", "events", "-o", whole, "--partition", "session"] + inputs)
    try #require(complete.exitStatus == 0, "\(complete)")
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x9A27)
    for trial in 0..<6 {
      let lake = directory.file("lake-\(trial)")
      defer { removeTree(lake) }
      let child = try Subprocess.start(["export", "--table", "events", "-o", lake, "--partition", "session"] + inputs)
      // Past the first session, so that a partition has been set aside for the next one.
      for _ in 0..<20_000 where directoryEntries(lake).count < 2 { usleep(500) }
      usleep(UInt32(random.below(100_000)))
      kill(child.pid, SIGKILL)
      _ = try child.finish()
      for partition in directoryEntries(lake) {
        let files = directoryEntries(lake + "/" + partition)
        #expect(files.allSatisfy { !$0.hasPrefix(".") }, "trial \(trial): \(partition) holds \(files)")
        for file in files {
          #expect(
            readWholeFile(lake + "/" + partition + "/" + file) == readWholeFile(whole + "/" + partition + "/" + file),
            "trial \(trial): \(partition)/\(file) is partial")
        }
      }
    }
  }

  /// A writer killed at random points: the target is absent (or the old file) or complete, never
  /// partial, and no temporary file is left behind.
  @Test(arguments: [["simulate", "--events", "200000", "--seed", "9", "-o", "OUT"]])
  func aWriterKilledMidwayLeavesTheOldFileOrTheWholeNewOne(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0xA7)
    let reference = try Subprocess.run(Array(commandLine.dropLast(2)), timeout: .seconds(300)).stdout
    try #require(reference.count > 1 << 20)
    var outcomes: [String: Int] = [:]
    for trial in 0..<12 {
      let out = directory.file("out-\(trial).ndjson")
      let old = trial % 2 == 0 ? nil : "the old output \(trial)\n"
      if let old { try directory.write("out-\(trial).ndjson", old) }
      let child = try Subprocess.start(commandLine.map { $0 == "OUT" ? out : $0 })
      usleep(UInt32(20_000 + random.below(400_000)))
      kill(child.pid, SIGKILL)
      let outcome = try child.finish()
      let now = readWholeFile(out)
      if now == nil {
        #expect(old == nil, "trial \(trial): the old file vanished")
        outcomes["absent", default: 0] += 1
      } else if let now, let old, now == Array(old.utf8) {
        outcomes["old", default: 0] += 1
      } else {
        #expect(now == reference, "trial \(trial): a partial file (\(now?.count ?? 0) of \(reference.count) bytes)")
        outcomes["complete", default: 0] += 1
      }
      #expect(outcome.signal == SIGKILL || outcome.exitStatus == 0, "\(outcome)")
      // The file being written has no name until it is complete (O_TMPFILE): a kill leaves nothing.
      let left = directoryEntries(directory.path).filter { $0.hasPrefix(".") }
      #expect(left.isEmpty, "trial \(trial): a killed writer left \(left)")
    }
    #expect(
      outcomes["absent", default: 0] + outcomes["old", default: 0] > 0, "some kills landed mid-write: \(outcomes)")
  }
}
