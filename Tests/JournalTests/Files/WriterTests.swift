import Synchronization
import Testing

@testable import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

private let header = Draft(time: Sample.time(0), event: .session(SessionHeader(session: "S")))

private func mark(_ label: String, time: Timestamp? = nil, seq: Int? = nil) -> Draft {
  Draft(seq: seq, time: time, event: .mark(label: label, fields: []))
}

@Suite struct WriterTests {
  @Test func newJournalStartsAtSeqZero() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let writer = try JournalWriter(path: path)
    let first = try writer.append(header)
    let rest = try writer.append(contentsOf: [mark("a"), mark("b")])
    try writer.close()
    #expect(first.seq == 0)
    #expect(rest.map(\.seq) == [1, 2])
    #expect(writer.repairedTail == nil)
    let records = try cleanRecords(path)
    #expect(records == [first] + rest)
    #expect(try contents(path) == Array((([first] + rest).map { $0.ndjson + "\n" }.joined()).utf8))
  }

  @Test func seqContinuesFromAnExistingJournalAndADraftsSeqIsIgnored() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try write(Sample.text(Sample.journal(5)), to: path)
    let writer = try JournalWriter(path: path, durability: .always)
    let records = try writer.append(contentsOf: [mark("x", seq: 0), mark("y", seq: 99)])
    try writer.close()
    #expect(records.map(\.seq) == [5, 6])
    #expect(try cleanRecords(path).map(\.seq) == Array(0...6))
  }

  @Test func timeIsClampedToTheLastTimeAndDefaultsToNow() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try write(Sample.text([Sample.header(), Sample.alloc(1, time: 5000)]), to: path)
    let writer = try JournalWriter(path: path, durability: .none)
    let early = try writer.append(mark("early", time: Sample.time(1000)))
    let later = try writer.append(mark("later", time: Sample.time(6000)))
    let earlyAgain = try writer.append(mark("again", time: Sample.time(5500)))
    let now = try writer.append(mark("now"))
    try writer.close()
    #expect(early.time == Sample.time(5000))
    #expect(later.time == Sample.time(6000))
    #expect(earlyAgain.time == Sample.time(6000))
    // Without a time the writer takes the wall clock, clamped to the last time.
    #expect(now.time >= Sample.time(6000))
    #expect(
      try cleanRecords(path).map(\.time) == [Sample.time(0), Sample.time(5000)]
        + [early, later, earlyAgain, now].map(\.time))
  }

  @Test func tornTailIsMovedAsideAndTheJournalCut() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let complete = Sample.text(Sample.journal(3))
    let torn = Array(Sample.move(3).utf8.prefix(40))
    try write(complete + torn, to: path)
    let writer = try JournalWriter(path: path)
    #expect(writer.repairedTail == TornTail(offset: Int64(complete.count), length: torn.count, path: path + ".torn"))
    #expect(try contents(path + ".torn") == torn + [0x0A])
    #expect(try contents(path) == complete)
    let record = try writer.append(mark("after"))
    try writer.close()
    #expect(record.seq == 3)
    #expect(try cleanRecords(path).map(\.seq) == [0, 1, 2, 3])
  }

  @Test func tornTailsAccumulateInTheTornFile() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try write(Sample.text([Sample.header()]) + Array("{\"seq\":1,".utf8), to: path)
    try JournalWriter(path: path).close()
    try write(try contents(path) + Array("{\"se".utf8), to: path)
    let writer = try JournalWriter(path: path)
    try writer.close()
    #expect(try contents(path + ".torn") == Array("{\"seq\":1,\n{\"se\n".utf8))
    #expect(try contents(path) == Sample.text([Sample.header()]))
  }

  @Test func aJournalThatIsOnlyATornLineIsCutToEmpty() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try write(Array("{\"seq\":0,\"ti".utf8), to: path)
    let writer = try JournalWriter(path: path)
    #expect(writer.repairedTail == TornTail(offset: 0, length: 12, path: path + ".torn"))
    #expect(try writer.append(mark("first")).seq == 0)
    try writer.close()
  }

  @Test func completeLastLineWithoutLineEndGetsOne() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let lines = Sample.journal(2)
    try write(Sample.text([lines[0]]) + Array(lines[1].utf8), to: path)
    let writer = try JournalWriter(path: path)
    #expect(writer.repairedTail == nil)
    #expect(!exists(path + ".torn"))
    #expect(try contents(path) == Sample.text(lines))
    #expect(try writer.append(mark("next")).seq == 2)
    try writer.close()
    #expect(try cleanRecords(path).map(\.seq) == [0, 1, 2])
  }

  @Test func trailingBlankLinesAreSkippedWhenFindingTheLastRecord() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try write(Sample.text(Sample.journal(3) + ["", "  "]), to: path)
    let writer = try JournalWriter(path: path)
    #expect(try writer.append(mark("next")).seq == 3)
    try writer.close()
  }

  @Test func lastLineThatIsNotARecordRefusesToAppend() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let lines = [Sample.header(), "garbage"]
    try write(Sample.text(lines), to: path)
    let offset = offsets(lines)[1]
    #expect {
      _ = try JournalWriter(path: path)
    } throws: { error in
      let error = error as? JournalFileError
      return error?.path == path
        && error?.message.hasPrefix("cannot append: its last line (offset \(offset)) is not a valid record") == true
    }
    #expect(try contents(path) == Sample.text(lines))
  }

  @Test func anotherWritersAppendsAreSeen() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let a = try JournalWriter(path: path)
    let b = try JournalWriter(path: path)
    var seqs = [try a.append(header).seq]
    for i in 1..<10 {
      seqs.append(try (i % 3 == 0 ? b : a).append(mark("m\(i)")).seq)
    }
    try a.close()
    try b.close()
    #expect(seqs == Array(0..<10))
    #expect(try cleanRecords(path).map(\.seq) == Array(0..<10))
  }

  @Test func manyThreadsAppendingAtOnceGiveContiguousSeqAndValidLines() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let writer = try JournalWriter(path: path, batchSize: 64)
    try writer.append(header)
    let threads = 8
    let perThread = 250
    let seen = Mutex<[Int]>([])
    let failures = Mutex<[String]>([])
    var ids: [pthread_t] = []
    final class Job: Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    for t in 0..<threads {
      let job = Job {
        for i in 0..<perThread {
          do {
            let drafts = i % 5 == 0 ? [mark("t\(t)-\(i)a"), mark("t\(t)-\(i)b")] : [mark("t\(t)-\(i)")]
            let records = try writer.append(contentsOf: drafts)
            seen.withLock { $0 += records.map(\.seq) }
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
      }
      var thread = pthread_t()
      let context = Unmanaged.passRetained(job).toOpaque()
      let rc = pthread_create(
        &thread, nil,
        { raw in
          let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
          job.body()
          return nil
        }, context)
      try #require(rc == 0)
      ids.append(thread)
    }
    for thread in ids { pthread_join(thread, nil) }
    try writer.close()
    let total = 1 + threads * (perThread + perThread / 5)
    #expect(failures.withLock { $0 } == [])
    #expect(seen.withLock { $0.sorted() } == Array(1..<total))
    let records = try cleanRecords(path)
    #expect(records.map(\.seq) == Array(0..<total))
  }

  @Test(arguments: Durability.allCases)
  func everyDurabilityAppendsTheSameLines(durability: Durability) throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let writer = try JournalWriter(path: path, durability: durability, batchInterval: .milliseconds(1), batchSize: 2)
    try writer.append(header)
    for i in 1..<5 { try writer.append(mark("m\(i)", time: Sample.time(Int64(i)))) }
    try writer.sync()
    try writer.close()
    #expect(try cleanRecords(path).map(\.seq) == Array(0..<5))
  }

  @Test func diskFullIsAFileErrorWithTheSystemsReason() throws {
    let writer = try JournalWriter(path: "/dev/full", durability: .none)
    #expect(throws: JournalFileError(path: "/dev/full", message: "cannot write: No space left on device")) {
      try writer.append(header)
    }
  }

  @Test func newJournalIsCreatedWithMode0644() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    try JournalWriter(path: path).close()
    let status = String(decoding: try contents("/proc/self/status"), as: UTF8.self)
    let umaskLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    let mask = try #require(mode_t(umaskLine.dropFirst(6).trimmingPrefix(while: \.isWhitespace), radix: 8))
    var info = stat()
    try #require(stat(path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o644 & ~mask)
  }

  @Test func aQuietBatchWriterIsSyncedByItsTimer() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let writer = try JournalWriter(path: path, durability: .batch, batchInterval: .milliseconds(1), batchSize: 1000)
    try writer.append(header)
    // Let the background timer fire a few times with an unsynced event.
    var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
    nanosleep(&pause, nil)
    try writer.append(mark("after the timer"))
    try writer.close()
    #expect(try cleanRecords(path).map(\.seq) == [0, 1])
  }

  @Test func appendingAfterCloseFails() throws {
    let path = try temporaryDirectory() + "/j.ndjson"
    let writer = try JournalWriter(path: path)
    try writer.close()
    try writer.close()
    #expect(throws: JournalFileError(path: path, message: "cannot append: the journal is closed")) {
      try writer.append(mark("late"))
    }
  }

  @Test func unopenablePathIsAFileError() throws {
    let path = try temporaryDirectory() + "/missing/j.ndjson"
    #expect(throws: JournalFileError(path: path, message: "cannot open: No such file or directory")) {
      _ = try JournalWriter(path: path)
    }
  }

  @Test func directoryIsAFileError() throws {
    let path = try temporaryDirectory()
    #expect(throws: JournalFileError(path: path, message: "cannot open: Is a directory")) {
      _ = try JournalWriter(path: path)
    }
  }
}
