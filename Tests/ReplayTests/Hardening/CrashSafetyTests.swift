import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `spatial-replay append --echo --sync P` killed with SIGKILL at random
/// points, under each durability policy.
///
/// Each trial feeds a fresh journal a random stream of events (some of them
/// large, so that one append spans many pages and a kill can tear it) through
/// a pipe, and kills the writer after a random number of acknowledgements or a
/// random delay. Then:
/// - every acknowledged (echoed) event is in the journal, byte for byte, in order;
/// - every complete line decodes and `seq` is contiguous;
/// - reopening (another `append`) reports the torn tail, if any, and moves it
///   to `.torn`; the next event gets the next `seq`;
/// - `check` finds nothing.
///
/// Some trials that ended on a line boundary get a torn tail written by the
/// test (a prefix of a line, as a kill mid-write leaves it), so that the
/// repair runs under every policy. `SPATIAL_REPLAY_CRASH_TRIALS=N` runs N
/// trials per policy (default 70).
@Suite struct CrashSafetyTests {
  /// What the trials of one policy saw.
  struct Tally {
    var trials = 0
    var killed = 0
    var acknowledged = 0
    var lost = 0
    var naturalTornTails = 0
    var writtenTornTails = 0
  }

  @Test(arguments: Durability.allCases)
  func aKilledWriterLosesNoAcknowledgedEventAndItsJournalReopens(_ durability: Durability) throws {
    let directory = try TemporaryDirectory()
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0xC4A5 &* UInt64(durability.index + 1))
    var tally = Tally()
    for trial in 0..<FuzzSettings.crashTrials {
      try runTrial(trial, durability: durability, directory: directory, random: &random, tally: &tally)
    }
    #expect(tally.trials == FuzzSettings.crashTrials)
    #expect(tally.lost == 0, "acknowledged events lost under \(durability)")
    // The trials must exercise kills: many writers are killed before they finish. How many depends
    // on the machine's speed (a writer under `batch` may finish before a short delay is up), so
    // the bound is a quarter, not a majority (a loaded CI run once killed exactly half).
    #expect(tally.killed * 4 > tally.trials, "many writers are killed before they finish: \(tally)")
    #expect(tally.acknowledged > 0)
    #expect(tally.naturalTornTails + tally.writtenTornTails > 0, "the torn-tail repair ran: \(tally)")
    print(
      "hardening: crash safety under \(durability): \(tally.trials) trials, \(tally.killed) killed, "
        + "\(tally.acknowledged) acknowledged events, \(tally.lost) lost, torn tails: \(tally.naturalTornTails) "
        + "from kills, \(tally.writtenTornTails) written by the test")
  }

  /// One event line of the input: a mark with a label naming the trial and a padding of random size.
  static func inputLine(trial: Int, index: Int, random: inout FuzzRandom) -> [UInt8] {
    let roll = random.below(100)
    let padding =
      roll < 90 ? random.below(300) : roll < 99 ? 1_000 + random.below(20_000) : 100_000 + random.below(200_000)
    let pad = String(repeating: "x", count: padding)
    return Array(#"{"type":"mark","label":"t\#(trial)-\#(index)","pad":"\#(pad)"}"#.utf8) + [0x0A]
  }

  func runTrial(
    _ trial: Int, durability: Durability, directory: TemporaryDirectory, random: inout FuzzRandom, tally: inout Tally
  ) throws {
    let journal = directory.file("trial-\(trial).ndjson")
    defer {
      unlink(journal)
      unlink(journal + ".torn")
    }
    var existing =
      Record(
        seq: 0, time: Timestamp.modelEpoch, event: .session(SessionHeader(session: "crash-\(trial)"))
      ).ndjson + "\n"
    for seq in 1..<(1 + random.below(3)) {
      existing +=
        Record(seq: seq, time: Timestamp.modelEpoch, event: .mark(label: "before", fields: [])).ndjson + "\n"
    }
    try directory.write("trial-\(trial).ndjson", existing)
    let existingLines = existing.utf8.count(where: { $0 == 0x0A })

    var input: [UInt8] = []
    for index in 0..<(20 + random.below(400)) { input += Self.inputLine(trial: trial, index: index, random: &random) }

    // Feed and kill.
    let writer = try PipedChild(["append", "--echo", "--sync", durability.rawValue, journal], pipeSize: 1 << 20)
    let mode = random.below(3)
    let killAfterAcks = random.below(input.count(where: { $0 == 0x0A }) + 1)
    let killAfter = Duration.microseconds(random.below(mode == 1 ? 40_000 : 8_000))
    let start = ContinuousClock.now
    var fedUpTo = 0
    var echoed: [UInt8] = []
    var fedAllAt: ContinuousClock.Instant?
    var killed = false
    var acks = 0
    var counted = 0
    while true {
      if fedUpTo < input.count {
        let chunkEnd = min(input.count, fedUpTo + 1 + random.below(1 << 18))
        fedUpTo += writer.offer(input[fedUpTo..<chunkEnd])
        if fedUpTo == input.count {
          writer.closeStdin()
          fedAllAt = .now
        }
      }
      let open = writer.drain(into: &echoed)
      acks += echoed[counted...].count(where: { $0 == 0x0A })
      counted = echoed.count
      let due: Bool
      switch mode {
      case 0: due = acks >= killAfterAcks
      case 1: due = ContinuousClock.now - start >= killAfter
      default: due = fedAllAt.map { ContinuousClock.now - $0 >= killAfter } ?? false
      }
      if due {
        writer.send(SIGKILL)
        killed = true
        break
      }
      if !open { break }
      usleep(100)
    }
    writer.closeStdin()
    writer.drainToEnd(into: &echoed)
    let status = writer.wait()
    #expect(status == 0 || (killed && status == 128 + SIGKILL), "trial \(trial): status \(status)")
    if status == 128 + SIGKILL { tally.killed += 1 }
    tally.trials += 1

    // Every acknowledged event is in the journal.
    var acknowledged = echoed.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    acknowledged.removeLast()  // the part after the last line end: not a whole acknowledgement
    let bytes = try directory.read(journal)
    let lastNewline = bytes.lastIndex(of: 0x0A) ?? -1
    let complete = bytes[..<(lastNewline + 1)].split(separator: 0x0A).map { Array($0) }
    var tail = Array(bytes[(lastNewline + 1)...])
    let appended = Array(complete.dropFirst(existingLines))
    let kept = zip(acknowledged, appended).prefix(while: { $0 == $1 }).count
    tally.acknowledged += acknowledged.count
    tally.lost += acknowledged.count - kept
    #expect(kept == acknowledged.count, "trial \(trial): \(acknowledged.count - kept) acknowledged events lost")
    for (i, line) in complete.enumerated() {
      let record = try? RecordDecoder.decode(String(decoding: line, as: UTF8.self))
      #expect(record?.seq == i, "trial \(trial): line \(i + 1) is not the record with seq \(i)")
    }

    // A kill between writes leaves no tail; sometimes write one as a kill mid-write would.
    if !tail.isEmpty {
      tally.naturalTornTails += 1
    } else if random.percent(40), let model = appended.last ?? complete.last, model.count > 2 {
      tail = Array(model.prefix(1 + random.below(model.count - 1)))
      let fd = open(journal, O_WRONLY | O_APPEND)
      try #require(fd >= 0)
      _ = tail.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
      close(fd)
      tally.writtenTornTails += 1
    }
    let tailIsRecord = !tail.isEmpty && (try? RecordDecoder.decode(String(decoding: tail, as: UTF8.self))) != nil

    // Reopen: the torn tail is reported and moved aside, appends continue.
    let reopen = try Subprocess.run(
      ["append", "--sync", durability.rawValue, journal],
      stdin: Array(#"{"type":"mark","label":"after"}"#.utf8) + [0x0A],
      timeout: .seconds(60))
    #expect(reopen.exitStatus == 0, "trial \(trial): \(reopen)")
    if tail.isEmpty || tailIsRecord {
      #expect(reopen.stderr.isEmpty, "trial \(trial): \(reopen)")
      #expect(access(journal + ".torn", F_OK) != 0, "trial \(trial): no torn tail, no .torn file")
    } else {
      let warning = reopen.stderrText
      #expect(warning.hasPrefix("spatial-replay: warning: \(journal): torn tail: "), "trial \(trial): \(warning)")
      #expect(warning.contains("at offset \(lastNewline + 1) moved to \(journal).torn"), "trial \(trial): \(warning)")
      #expect(try directory.read(journal + ".torn") == tail + [0x0A], "trial \(trial): the .torn file holds the tail")
    }
    let reopened = try directory.read(journal).split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(reopened.last?.isEmpty == true, "trial \(trial): the journal ends with a line end")
    let records = reopened.dropLast().map { try? RecordDecoder.decode(String(decoding: $0, as: UTF8.self)) }
    #expect(records.map { $0?.seq } == Array(0..<records.count), "trial \(trial): seq contiguous after reopening")
    #expect(records.last??.event == .mark(label: "after", fields: []), "trial \(trial): the new event is last")
    let times = records.compactMap { $0?.time }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "trial \(trial): time never decreases")

    let check = try Subprocess.run(["check", journal], timeout: .seconds(60))
    #expect(check.exitStatus == 0, "trial \(trial): \(check)")
    #expect(check.stdoutText.hasSuffix(" 0 errors, 0 warnings\n"), "trial \(trial): \(check)")
  }
}

extension Durability {
  /// The policy's position in `allCases` (a distinct seed per policy).
  var index: Int { Durability.allCases.firstIndex(of: self) ?? 0 }
}
