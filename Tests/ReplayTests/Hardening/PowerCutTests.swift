import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Power cuts, in the spirit of LazyFS and ALICE: a run of `append` processes
/// (under each `--sync` policy) or of a program recording through a `Recorder`
/// (`recorder-probe`) is recorded by an `LD_PRELOAD` library
/// (`FaultInjection/powercut.c`: every write, truncation, sync, directory sync,
/// creation, rename and removal in the journal's directory, and what the program
/// printed), then cut after every record of the log. For each cut the directory
/// is rebuilt as the device would hold it (``SimulatedDirectory``), three ways:
/// only what was synced (a file created since its directory's last sync is
/// gone), the names kept but the data only as synced, and some unsynced data
/// written back too. Each result must pass `check` with at most a torn tail,
/// reopen with `append` to a journal with no finding, hold the events of the
/// run in order (a prefix of them), keep a torn tail that was moved aside, and
/// hold every acknowledged event:
///
/// - `append`, `always`: every event echoed, and every event of a process that
///   exited 0; `batch`: every event of a process that exited 0 (close syncs);
///   `none`: nothing is promised.
/// - `Recorder`, `always` and `batch`: every event recorded before a `flush()`
///   that returned true, and all of them once `close()` returned; `none`: nothing.
@Suite(.enabled(if: PowerCutLibrary.path != nil, "needs a C compiler (cc) and LD_PRELOAD (Linux)"))
struct PowerCutTests {
  /// Runs recorded per program, policy and starting point (a new journal, a torn one).
  static let runs = FuzzSettings.environment("SPATIAL_REPLAY_POWERCUT_RUNS").flatMap { Int($0) } ?? 2
  static let journalName = "journal.ndjson"

  enum Program: String { case append, recorder }

  /// One recorded run.
  struct Run {
    var program: Program
    var durability: Durability
    var log: PowerCutLog
    var initial: SimulatedDirectory
    /// The marks of the journal as the run left it (no cut).
    var finalLabels: [String]
    /// The marks each `append` process was given.
    var labelsByProcess: [Int: [String]] = [:]
    /// The torn line the journal started with, which the first writer moves aside.
    var tornFragment: [UInt8]?
  }

  /// What the cuts of one program under one policy found.
  struct Tally: CustomStringConvertible {
    var runs = 0
    var cuts = 0
    var states = 0
    var distinct = 0
    var acknowledged = 0
    var acknowledgedLost = 0
    /// Events written (a process kill keeps them) but absent after the cut.
    var unsyncedLost = 0
    var mostUnsyncedLost = 0
    var vanished = 0
    var tornTails = 0
    var problems: [String] = []

    var description: String {
      "\(runs) runs, \(cuts) cuts, \(states) crash states (\(distinct) distinct, each checked, reopened, checked), "
        + "\(vanished) with no journal, \(tornTails) with a torn tail; \(acknowledged) acknowledged events over the cuts, "
        + "\(acknowledgedLost) lost; unacknowledged events lost: \(unsyncedLost) in all, at most \(mostUnsyncedLost) at one cut"
    }
  }

  @Test(arguments: Durability.allCases)
  func appendLosesNoAcknowledgedEventAtAPowerCut(_ durability: Durability) throws {
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 7_001 &+ UInt64(Durability.allCases.firstIndex(of: durability)!))
    var tally = Tally()
    for k in 0..<(2 * Self.runs) {
      let run = try recordAppend(durability, torn: k % 2 == 1, random: &random)
      try cutEverywhere(run, random: &random, tally: &tally)
    }
    report(.append, durability, tally)
  }

  @Test(arguments: Durability.allCases)
  func theRecorderLosesNoFlushedEventAtAPowerCut(_ durability: Durability) throws {
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 7_101 &+ UInt64(Durability.allCases.firstIndex(of: durability)!))
    var tally = Tally()
    for k in 0..<(2 * Self.runs) {
      let run = try recordRecorder(durability, torn: k % 2 == 1, events: 7 + random.below(6))
      try cutEverywhere(run, random: &random, tally: &tally)
    }
    report(.recorder, durability, tally)
  }

  private func report(_ program: Program, _ durability: Durability, _ tally: Tally) {
    #expect(tally.problems.isEmpty, "\(program) \(durability): \(tally.problems.prefix(8).joined(separator: "\n"))")
    #expect(tally.acknowledgedLost == 0)
    #expect(tally.cuts >= 2 * Self.runs * 4, "every run has records to cut after")
    if durability != .none { #expect(tally.acknowledged > 0, "some events were acknowledged") }
    print("hardening: power cuts, \(program) under \(durability): \(tally)")
  }

  // MARK: Recording a run

  /// The files of a directory with their inodes.
  private func snapshot(_ directory: TemporaryDirectory) throws -> [(name: String, inode: UInt64, bytes: [UInt8])] {
    var files: [(name: String, inode: UInt64, bytes: [UInt8])] = []
    for name in [Self.journalName, Self.journalName + ".torn"] {
      var info = stat()
      guard stat(directory.file(name), &info) == 0 else { continue }
      files.append((name, UInt64(info.st_ino), try directory.read(directory.file(name))))
    }
    return files
  }

  /// A journal with a header, two marks and a torn last line, as a writer killed mid-append leaves it.
  private func tornJournal(_ directory: TemporaryDirectory) throws -> [UInt8] {
    let journal = directory.file(Self.journalName)
    let lines = #"{"type":"session","v":1,"session":"p"}"# + "\n" + Self.mark("old-0") + Self.mark("old-1")
    let made = try Subprocess.run(["append", journal], stdin: Array(lines.utf8))
    try #require(made.exitStatus == 0, "\(made)")
    let fragment = Array(#"{"seq":3,"time":"2026-12-01T10:00:00.000000Z","type":"mark","label":"cut"#.utf8)
    try directory.write(Self.journalName, try directory.read(journal) + fragment)
    return fragment
  }

  private static func mark(_ label: String) -> String { #"{"type":"mark","label":"\#(label)"}"# + "\n" }

  private func recordAppend(_ durability: Durability, torn: Bool, random: inout FuzzRandom) throws -> Run {
    let directory = try TemporaryDirectory()
    let scratch = try TemporaryDirectory()
    let journal = directory.file(Self.journalName)
    let fragment = torn ? try tornJournal(directory) : nil
    let initial = SimulatedDirectory(existing: try snapshot(directory))
    let log = scratch.file("log")
    let environment = PowerCutLibrary.environment(directory: directory.path, log: log)
    var labels: [Int: [String]] = [:]
    for process in 0..<6 {
      let names = (0..<(1 + random.below(3))).map { "p\(process)-\($0)" }
      var input = names.map(Self.mark).joined()
      if process == 0 && !torn { input = #"{"type":"session","v":1,"session":"p"}"# + "\n" + input }
      let outcome = try Subprocess.run(
        ["append", "--echo", "--sync", durability.rawValue, journal], stdin: Array(input.utf8),
        environment: environment, timeout: .seconds(60))
      try #require(outcome.exitStatus == 0, "\(outcome)")
      labels[process] = names
      PowerCutLog.noteExit(log, process: process, status: outcome.exitStatus ?? -1)
    }
    return Run(
      program: .append, durability: durability, log: try PowerCutLog(try scratch.read(log)), initial: initial,
      finalLabels: Self.labels(try directory.read(journal)).labels, labelsByProcess: labels, tornFragment: fragment)
  }

  private func recordRecorder(_ durability: Durability, torn: Bool, events: Int) throws -> Run {
    let directory = try TemporaryDirectory()
    let scratch = try TemporaryDirectory()
    let journal = directory.file(Self.journalName)
    let fragment = torn ? try tornJournal(directory) : nil
    let initial = SimulatedDirectory(existing: try snapshot(directory))
    let log = scratch.file("log")
    let probe = String(Binary.path[..<Binary.path.lastIndex(of: "/")!]) + "/recorder-probe"
    let outcome = try Subprocess.run(
      [journal, durability.rawValue, String(events)], executable: probe,
      environment: PowerCutLibrary.environment(directory: directory.path, log: log), timeout: .seconds(60))
    try #require(outcome.exitStatus == 0, "\(outcome)")
    try #require(outcome.stdoutText.hasSuffix("written=\(events) dropped=0 lost=0 faults=0\n"), "\(outcome)")
    PowerCutLog.noteExit(log, process: 0, status: outcome.exitStatus ?? -1)
    return Run(
      program: .recorder, durability: durability, log: try PowerCutLog(try scratch.read(log)), initial: initial,
      finalLabels: Self.labels(try directory.read(journal)).labels, tornFragment: fragment)
  }

  // MARK: Cutting

  /// The events acknowledged by the records before `count`, as the policy promises them.
  private func acknowledged(_ run: Run, before count: Int) -> Set<String> {
    var acknowledged: Set<String> = []
    var output: [UInt8] = []
    for operation in run.log.operations.prefix(count) {
      switch operation {
      case .exited(let process, let status):
        if run.program == .append && run.durability != .none && status == 0 {
          acknowledged.formUnion(run.labelsByProcess[process] ?? [])
        }
      case .output(let bytes): output += bytes
      default: break
      }
    }
    // Only whole lines of what was printed.
    let lines = output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    for line in lines.map({ String(decoding: $0, as: UTF8.self) }) {
      switch (run.program, run.durability) {
      case (.append, .always):
        if let record = try? RecordDecoder.decode(line), case .mark(let label, _) = record.event {
          acknowledged.insert(label)
        }
      case (.recorder, .always), (.recorder, .batch):
        let words = line.split(separator: " ")
        if words.count == 3, words[0] == "flush", words[2] == "ok", let n = Int(words[1]) {
          acknowledged.formUnion((0..<n).map { "e\($0)" })
        } else if words.first == "status" {
          acknowledged.formUnion(run.finalLabels)
        }
      default: break
      }
    }
    return acknowledged
  }

  /// The marks of a journal's lines, and how many complete lines it has. A last line
  /// without its line end counts when it decodes: a writer opening the journal gives it its `\n`.
  static func labels(_ bytes: [UInt8]) -> (labels: [String], lines: Int) {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    let complete = lines.count - 1
    if lines.last?.isEmpty == true { lines.removeLast() }
    let labels = lines.compactMap { line -> String? in
      guard let record = try? RecordDecoder.decode(String(decoding: line, as: UTF8.self)),
        case .mark(let label, _) = record.event
      else { return nil }
      return label
    }
    return (labels, complete)
  }

  /// Cuts the run after each of its records, each cut in each ``SimulatedDirectory/Cut``.
  private func cutEverywhere(_ run: Run, random: inout FuzzRandom, tally: inout Tally) throws {
    tally.runs += 1
    var disk = run.initial
    var checked: [[UInt8]: String?] = [:]
    for count in 0...run.log.operations.count {
      if count > 0 { disk.apply(run.log.operations[count - 1]) }
      tally.cuts += 1
      let acknowledged = acknowledged(run, before: count)
      tally.acknowledged += acknowledged.count
      let written = Self.labels(disk.names[Self.journalName].flatMap { disk.files[$0]?.content } ?? []).labels
      for cut in SimulatedDirectory.Cut.allCases {
        tally.states += 1
        let files = disk.afterPowerCut(cut, random: &random)
        let context = "\(run.program) \(run.durability) run \(tally.runs), cut after record \(count), \(cut)"
        let journal = files[Self.journalName]
        let (present, lines) = Self.labels(journal ?? [])
        let lost = acknowledged.subtracting(present)
        tally.acknowledgedLost += lost.count
        if !lost.isEmpty {
          tally.problems.append("\(context): \(lost.count) acknowledged events lost: \(lost.sorted().prefix(4))")
        }
        if journal == nil { tally.vanished += 1 }
        if !run.finalLabels.starts(with: present) {
          tally.problems.append("\(context): the events are not a prefix of the run's: \(present)")
        }
        let unsyncedLost = max(0, written.count - present.count)
        tally.unsyncedLost += unsyncedLost
        tally.mostUnsyncedLost = max(tally.mostUnsyncedLost, unsyncedLost)
        if let fragment = run.tornFragment, let journal,
          !(journal.suffix(fragment.count).elementsEqual(fragment)
            || (files[Self.journalName + ".torn"] ?? []).firstRange(of: fragment) != nil)
        {
          tally.problems.append("\(context): the torn tail moved aside is gone")
        }
        if let journal, journal.last != 0x0A && !journal.isEmpty { tally.tornTails += 1 }
        guard let journal, lines > 0 else { continue }
        let key = journal + [0xFF] + (files[Self.journalName + ".torn"] ?? [])
        if checked[key] == nil {
          tally.distinct += 1
          checked.updateValue(try checkAndReopen(files, expected: present), forKey: key)
        }
        if let problem = checked[key]!, !tally.problems.contains(where: { $0.hasSuffix(problem) }) {
          tally.problems.append("\(context): \(problem)")
        }
      }
    }
  }

  /// Writes the files of a crash state into a new directory, checks the journal (at most a
  /// torn tail), reopens it with `append` and checks it again (no finding). Nil when all is well.
  private func checkAndReopen(_ files: [String: [UInt8]], expected: [String]) throws -> String? {
    let directory = try TemporaryDirectory()
    for (name, bytes) in files { try directory.write(name, bytes) }
    let journal = directory.file(Self.journalName)
    let check = try Subprocess.run(["check", journal])
    let summary = check.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
    guard check.exitStatus == 0,
      summary.hasSuffix(" 0 errors, 0 warnings") || summary.hasSuffix(" 0 errors, 1 warning (torn-tail 1)")
    else { return "check before reopening: \(check.stdoutText)\(check.stderrText)" }
    let reopen = try Subprocess.run(["append", journal], stdin: [])
    guard reopen.exitStatus == 0 else { return "reopening: \(reopen)" }
    let again = try Subprocess.run(["check", journal])
    guard again.exitStatus == 0, again.stdoutText.hasSuffix(" 0 errors, 0 warnings\n") else {
      return "check after reopening: \(again.stdoutText)\(again.stderrText)"
    }
    let after = Self.labels(try directory.read(journal)).labels
    return after == expected ? nil : "reopening changed the events: \(after) for \(expected)"
  }
}
