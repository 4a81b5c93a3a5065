import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fault-injection library (`FaultInjection/faultinject.c`), built once with
/// the system's C compiler; `nil` where there is none or no `LD_PRELOAD` (not Linux).
enum FaultLibrary {
  static let path: String? = {
    #if os(Linux)
      guard system("command -v cc >/dev/null 2>&1") == 0 else { return nil }
      let source = Repository.tests + "/FaultInjection/faultinject.c"
      let library = TemporaryFiles.directory() + "/faultinject.so"
      let status = system("cc -shared -fPIC -O1 -o '\(library)' '\(source)' -ldl")
      return status == 0 ? library : nil
    #else
      return nil
    #endif
  }()

  /// How an I/O call is made to fail.
  enum Fault: String, CaseIterable {
    case noSpace = "ENOSPC"
    case ioError = "EIO"
    /// A write that writes half its bytes, then a write that fails with ENOSPC.
    case shortWrite = "short"
  }

  /// The environment that arms call `at` (0: none, only counting) of the watched calls under `directory`.
  static func environment(directory: String, state: String, at: Int, fault: Fault) -> [String] {
    [
      "LD_PRELOAD=\(path ?? "")", "FAULT_DIR=\(directory)/", "FAULT_STATE=\(state)", "FAULT_AT=\(at)",
      "FAULT_KIND=\(fault.rawValue)",
    ]
  }

  /// The watched calls made so far in a run and whether the fault fired.
  static func state(_ path: String) -> (calls: Int, fired: Bool) {
    let text = String(decoding: readWholeFile(path) ?? [], as: UTF8.self)
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    return fields.count == 2 ? (fields[0], fields[1] == 1) : (0, false)
  }
}

/// SQLite's practice applied to the journal's writers: make every I/O call of
/// a run fail in turn (ENOSPC, EIO, a short write then ENOSPC), under each
/// durability policy, through an `LD_PRELOAD` library that fails the Nth
/// `write`, `pwrite`, `fsync`, `fdatasync` or `rename` on the journal's directory.
///
/// After each run the journal passes `check`, every acknowledged event is in it
/// exactly once, and the fault was reported: `append` exits 2 with the file and
/// the system's reason, the recorder's status and callback name it (and, retrying,
/// it still writes every event once).
@Suite(.enabled(if: FaultLibrary.path != nil, "needs a C compiler (cc) and LD_PRELOAD (Linux)"))
struct FaultInjectionTests {
  /// Appends in one run: processes one after the other, each appending this many events.
  static let appendProcesses = 6
  static let eventsPerAppend = 2

  /// What the runs of one policy saw.
  struct Tally {
    var points = 0
    var runs = 0
    var fired = 0
    var reported = 0
    var acknowledged = 0
    var lost = 0
    var duplicated = 0
  }

  @Test(arguments: Durability.allCases)
  func appendSurvivesEveryFailedIOCall(_ durability: Durability) throws {
    let tally = try everyFaultPoint { at, fault, directory, tally in
      try appendRun(durability, at: at, fault: fault, directory: directory, tally: &tally)
    }
    #expect(tally.points >= Self.appendProcesses, "every append writes")
    #expect(tally.runs == 1 + 3 * tally.points)
    #expect(tally.fired >= 3 * tally.points - 3, "the faults fired: \(tally)")
    #expect(tally.reported == tally.fired, "every fault was reported: \(tally)")
    #expect(tally.lost == 0 && tally.duplicated == 0)
    print(
      "hardening: fault injection, append under \(durability): \(tally.points) I/O calls per run, "
        + "\(tally.runs - 1) runs with a fault (ENOSPC, EIO, short write at each call), \(tally.fired) fired, "
        + "\(tally.reported) reported with exit 2, \(tally.acknowledged) acknowledged events, \(tally.lost) lost, "
        + "\(tally.duplicated) duplicated")
  }

  /// Runs once without a fault (counting the calls), then with each kind of fault at every call.
  /// - Parameter run: one run; returns the calls it made.
  func everyFaultPoint(
    _ run: (Int, FaultLibrary.Fault, TemporaryDirectory, inout Tally) throws -> Int
  ) throws -> Tally {
    let directory = try TemporaryDirectory()
    var tally = Tally()
    tally.points = try run(0, .noSpace, directory, &tally)
    for fault in FaultLibrary.Fault.allCases {
      for at in 1...max(1, tally.points) { _ = try run(at, fault, directory, &tally) }
    }
    return tally
  }

  /// A run: a journal with its header, then `appendProcesses` appends under the
  /// library, then the checks. Returns the watched calls the run made.
  func appendRun(
    _ durability: Durability, at: Int, fault: FaultLibrary.Fault, directory: TemporaryDirectory, tally: inout Tally
  ) throws -> Int {
    let journal = directory.file("append-\(durability)-\(fault)-\(at).ndjson")
    let state = directory.file("state")
    unlink(state)
    defer {
      unlink(journal)
      unlink(journal + ".torn")
    }
    let header = try Subprocess.run(["append", journal], stdin: Array(#"{"type":"session","v":1,"session":"f"}"#.utf8))
    try #require(header.exitStatus == 0, "\(header)")
    var acknowledged: [String] = []
    var reported = 0
    let environment = FaultLibrary.environment(directory: directory.path, state: state, at: at, fault: fault)
    for process in 0..<Self.appendProcesses {
      let input = (0..<Self.eventsPerAppend).map { #"{"type":"mark","label":"p\#(process)-\#($0)"}"# + "\n" }.joined()
      let outcome = try Subprocess.run(
        ["append", "--echo", "--sync", durability.rawValue, journal], stdin: Array(input.utf8),
        environment: environment, timeout: .seconds(60))
      for line in outcome.stdoutText.split(separator: "\n") {
        if let record = try? RecordDecoder.decode(String(line)), case .mark(let label, _) = record.event {
          acknowledged.append(label)
        }
      }
      if outcome.exitStatus == 2 {
        reported += 1
        let message = outcome.stderrText
        let reason = message.hasSuffix(": No space left on device\n") || message.hasSuffix(": Input/output error\n")
        #expect(
          message.hasPrefix("spatial-replay: error: \(journal): cannot ") && reason,
          "\(durability) \(fault) at \(at): \(message)")
      } else {
        #expect(outcome.exitStatus == 0, "\(durability) \(fault) at \(at): \(outcome)")
      }
    }
    let (calls, fired) = FaultLibrary.state(state)
    tally.runs += 1
    if fired { tally.fired += 1 }
    tally.reported += reported
    #expect(reported == (fired ? 1 : 0), "\(durability) \(fault) at \(at): a fault, one failed append")
    try verify(journal, acknowledged: acknowledged, context: "\(durability) \(fault) at \(at)", tally: &tally)
    return calls
  }

  @Test(arguments: Durability.allCases)
  func theRecorderReportsEveryFailedIOCallAndStillWritesEveryEventOnce(_ durability: Durability) throws {
    let tally = try everyFaultPoint { at, fault, directory, tally in
      try recorderRun(durability, at: at, fault: fault, directory: directory, tally: &tally)
    }
    #expect(tally.points >= 4, "the recorder writes its header and batches")
    // How many events each write takes depends on the threads' timing, and so does
    // the number of calls: a fault point past the end of a run does not fire.
    #expect(tally.fired * 2 >= tally.runs - 1, "most faults fired: \(tally)")
    #expect(tally.reported == tally.fired, "every fault was reported: \(tally)")
    #expect(tally.lost == 0 && tally.duplicated == 0)
    print(
      "hardening: fault injection, recorder under \(durability): \(tally.points) I/O calls per run, "
        + "\(tally.runs - 1) runs with a fault (ENOSPC, EIO, short write at each call), \(tally.fired) fired, "
        + "\(tally.reported) reported to the app, \(tally.acknowledged) events written, \(tally.lost) lost, "
        + "\(tally.duplicated) duplicated")
  }

  /// The events the probe records in one run.
  static let probeEvents = 10

  func recorderRun(
    _ durability: Durability, at: Int, fault: FaultLibrary.Fault, directory: TemporaryDirectory, tally: inout Tally
  ) throws -> Int {
    let journal = directory.file("recorder-\(durability)-\(fault)-\(at).ndjson")
    let state = directory.file("state")
    unlink(state)
    defer { unlink(journal) }
    let probe = String(Binary.path[..<Binary.path.lastIndex(of: "/")!]) + "/recorder-probe"
    let outcome = try Subprocess.run(
      [journal, durability.rawValue, String(Self.probeEvents)], executable: probe,
      environment: FaultLibrary.environment(directory: directory.path, state: state, at: at, fault: fault),
      timeout: .seconds(60))
    let context = "\(durability) \(fault) at \(at)"
    #expect(outcome.exitStatus == 0, "\(context): \(outcome)")
    let lines = outcome.stdoutText.split(separator: "\n").map(String.init)
    let (calls, fired) = FaultLibrary.state(state)
    let faults = lines.filter { $0.hasPrefix("fault ") }
    tally.runs += 1
    if fired {
      tally.fired += 1
      if !faults.isEmpty { tally.reported += 1 }
      for line in faults {
        #expect(
          line.hasSuffix(": No space left on device") || line.hasSuffix(": Input/output error"), "\(context): \(line)")
      }
    } else {
      #expect(faults.isEmpty, "\(context): \(outcome)")
    }
    let expected = Self.probeEvents
    #expect(
      lines.last == "status accepted=\(expected) written=\(expected) dropped=0 lost=0 faults=\(faults.count)",
      "\(context): \(outcome)")
    // Retrying, every event is written: all of them count as acknowledged.
    try verify(journal, acknowledged: (0..<expected).map { "e\($0)" }, context: context, tally: &tally)
    return calls
  }

  /// The journal passes `check` (after a reopen, which repairs a torn tail), holds every
  /// acknowledged event and no event twice.
  func verify(_ journal: String, acknowledged: [String], context: String, tally: inout Tally) throws {
    let reopen = try Subprocess.run(["append", journal], stdin: [])
    #expect(reopen.exitStatus == 0, "\(context): \(reopen)")
    let check = try Subprocess.run(["check", journal])
    #expect(check.exitStatus == 0 && check.stdoutText.hasSuffix(" 0 errors, 0 warnings\n"), "\(context): \(check)")
    let (records, _) = try JournalReader.readAll(path: journal)
    let labels = records.compactMap { record -> String? in
      if case .mark(let label, _) = record.event { label } else { nil }
    }
    let present = Set(labels)
    let lost = acknowledged.filter { !present.contains($0) }.count
    let duplicated = labels.count - present.count
    #expect(lost == 0, "\(context): acknowledged events lost")
    #expect(duplicated == 0, "\(context): events duplicated")
    tally.acknowledged += acknowledged.count
    tally.lost += lost
    tally.duplicated += duplicated
  }
}

/// A full disk while a torn tail is moved aside takes back what it began.
@Suite struct TornTailFaultTests {
  /// The first write of `append` on a torn journal is the `.torn` copy: failed, it used to
  /// leave an empty `.torn` beside the journal, whose tail was still in place.
  @Test func aFullDiskLeavesNoEmptyTornFile() throws {
    guard FaultLibrary.path != nil else { return }
    let header = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"T"}"#
    let torn = #"{"seq":1,"time":"2026-01-01T00:00:00.000000Z","type":"mark","lab"#
    var fired = 0
    for at in 1...4 {
      for fault in FaultLibrary.Fault.allCases {
        let dir = try TemporaryDirectory()
        let journal = try dir.write("j.ndjson", header + "\n" + torn)
        let state = dir.file("faults")
        let outcome = try Subprocess.run(
          ["append", journal], stdin: Array((#"{"type":"mark","label":"m"}"# + "\n").utf8),
          environment: FaultLibrary.environment(directory: dir.path, state: state, at: at, fault: fault))
        guard FaultLibrary.state(state).fired else { continue }
        fired += 1
        #expect(outcome.endedCleanly, "\(outcome)")
        if let kept = readWholeFile(journal + ".torn") {
          #expect(kept == Array((torn + "\n").utf8), "call \(at), \(fault): .torn holds \(kept.count) bytes")
        }
      }
    }
    #expect(fired > 0, "some fault fired")
  }
}
