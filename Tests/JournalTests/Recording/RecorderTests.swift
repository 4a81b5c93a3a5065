import Dispatch
import Synchronization
import Testing

@testable import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Holds the journal's exclusive `flock` from another descriptor: every writer
/// of the file waits until `release()` (the recorder's writer stalls, its callers must not).
private final class JournalLock {
  let fd: Int32

  init(_ path: String) throws {
    fd = open(path, O_RDWR | O_CREAT, 0o644)
    try #require(fd >= 0)
    try #require(flock(fd, LOCK_EX) == 0)
  }

  func release() {
    flock(fd, LOCK_UN)
    close(fd)
  }
}

/// The labels of a journal's marks, in order.
private func markLabels(_ records: [Record]) -> [String] {
  records.compactMap { if case .mark(let label, _) = $0.event { label } else { nil } }
}

private let sessionHeader = SessionHeader(session: "recorder-test", app: "Tests")

@Suite struct RecorderTests {
  @Test func eightThreadsOfAHundredThousandEventsMakeOneContiguousJournal() throws {
    let path = try temporaryDirectory() + "/threads.ndjson"
    let threads = 8
    let perThread = 100_000
    let recorder = Recorder(
      path: path, header: sessionHeader,
      options: RecorderOptions(capacity: 10_000, overflow: .block, durability: .none))
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for i in 0..<perThread { recorder.mark("t\(thread)-\(i)") }
    }
    let status = recorder.close()
    #expect(status.accepted == threads * perThread)
    #expect(status.written == threads * perThread)
    #expect(status.dropped == 0 && status.lost == 0 && status.faults == 0)
    #expect(status.state == .closed)

    let records = try cleanRecords(path)
    #expect(records.count == 1 + threads * perThread)
    #expect(records.first?.event == .session(sessionHeader))
    #expect(records.map(\.seq) == Array(0..<records.count), "seq contiguous")
    // Every event once, and each thread's events in the order it recorded them.
    var next = [Int](repeating: 0, count: threads)
    var misplaced = 0
    for label in markLabels(records) {
      let parts = label.dropFirst().split(separator: "-").compactMap { Int($0) }
      guard parts.count == 2, parts[0] < threads, parts[1] == next[parts[0]] else {
        misplaced += 1
        continue
      }
      next[parts[0]] += 1
    }
    #expect(misplaced == 0)
    #expect(next == [Int](repeating: perThread, count: threads))
  }

  @Test func aCallTakesItsTimeWhenItIsMadeNotWhenTheEventIsWritten() throws {
    let path = try temporaryDirectory() + "/time.ndjson"
    let recorder = Recorder(path: path, header: sessionHeader, options: RecorderOptions(durability: .none))
    let lock = try JournalLock(path)
    let before = Timestamp(microseconds: POSIX.wallClockMicroseconds())
    recorder.alloc("home", className: "HomeViewController")
    recorder.didLoad("home")
    usleep(200_000)
    let stalled = recorder.status
    lock.release()
    recorder.close()
    #expect(stalled.written == 0, "the writer waited for the lock")
    let records = try cleanRecords(path).dropFirst()
    #expect(
      records.map(\.event) == [
        .alloc(controller: "home", className: "HomeViewController"), .lifecycle(controller: "home", callback: .didLoad),
      ])
    for record in records {
      #expect(record.time >= before && before.milliseconds(to: record.time) < 100, "\(record.time) vs \(before)")
    }
  }

  @Test func aFullQueueDropsAndJournalsTheCountWhereTheLossHappened() throws {
    let path = try temporaryDirectory() + "/drops.ndjson"
    let capacity = 16
    let recorder = Recorder(
      path: path, header: sessionHeader, options: RecorderOptions(capacity: capacity, durability: .none))
    recorder.flush()  // the header is written; the journal's lock is free again
    let lock = try JournalLock(path)
    // The writer takes at most one batch before it waits for the lock; the queue holds `capacity` more.
    for i in 0..<(3 * capacity) { recorder.mark("before-\(i)") }
    let stalled = recorder.status
    lock.release()
    recorder.flush()
    recorder.mark("after")
    let status = recorder.close()

    #expect(stalled.dropped >= capacity, "\(stalled)")
    #expect(status.accepted + status.dropped == 3 * capacity + 1)
    #expect(status.written == status.accepted && status.lost == 0)
    let records = try cleanRecords(path)
    let marks = records.compactMap { record -> (String, [Field])? in
      if case .mark(let label, let fields) = record.event { (label, fields) } else { nil }
    }
    // Each `recorder.dropped` mark stands where its events would be: right before the
    // next accepted event, with the count of those missing in between.
    var next = 0
    var announced = 0
    var total = 0
    for (label, fields) in marks {
      if label == "recorder.dropped" {
        let count = try #require(fields.first.flatMap { $0.key == "count" ? Int($0.value.text) : nil })
        announced += count
        total += count
        continue
      }
      let index = label == "after" ? 3 * capacity : try #require(Int(label.dropFirst("before-".count)))
      #expect(index - next == announced, "before \(label): \(index - next) missing, \(announced) announced")
      next = index + 1
      announced = 0
    }
    #expect(total == status.dropped)
    #expect(marks.count(where: { $0.0 != "recorder.dropped" }) == status.accepted)
  }

  @Test func blockingCallersLoseNothingWhenTheQueueIsFull() throws {
    let path = try temporaryDirectory() + "/block.ndjson"
    let recorder = Recorder(
      path: path, header: sessionHeader, options: RecorderOptions(capacity: 2, overflow: .block, durability: .none))
    for i in 0..<5_000 { recorder.mark("m\(i)") }
    let status = recorder.close()
    #expect(status.dropped == 0 && status.written == 5_000)
    #expect(markLabels(try cleanRecords(path)) == (0..<5_000).map { "m\($0)" })
  }

  @Test func blockingFlushWritesWhatWasRecordedBeforeIt() throws {
    let path = try temporaryDirectory() + "/blocking-flush.ndjson"
    let recorder = Recorder(path: path, header: sessionHeader, options: RecorderOptions(durability: .always))
    recorder.root("home")
    #expect(recorder.flush())
    #expect(try cleanRecords(path).map(\.event) == [.session(sessionHeader), .root(controller: "home")])
    recorder.close()
  }

  @Test func flushWritesAndSyncsWhatWasRecordedBeforeIt() async throws {
    let path = try temporaryDirectory() + "/flush.ndjson"
    let recorder = Recorder(path: path, header: sessionHeader, options: RecorderOptions(durability: .batch))
    recorder.root("home")
    #expect(await recorder.flush())
    #expect(try cleanRecords(path).count == 2)
    recorder.dealloc("home")
    #expect(await recorder.flush())
    #expect(try cleanRecords(path).count == 3)
    recorder.close()
    recorder.mark("late")
    #expect(recorder.status.dropped == 1 && recorder.status.state == .closed)
    #expect(try cleanRecords(path).count == 3)
  }

  @Test func theTypedCallsJournalTheirEvents() throws {
    let path = try temporaryDirectory() + "/typed.ndjson"
    let recorder = Recorder(path: path, header: sessionHeader, options: RecorderOptions(overflow: .block))
    recorder.alloc("a", className: "A")
    recorder.root("a")
    recorder.didLoad("a")
    recorder.willAppear("a")
    recorder.didAppear("a")
    recorder.link("a", .left, to: "b")
    recorder.touches("a", .left, minimum: 2)
    recorder.pan("a", direction: .left, touches: 2, distance: 120.5, velocity: 300, outcome: .committed)
    recorder.move(from: "a", to: "b", direction: .left, trigger: .pan, animated: true)
    recorder.willDisappear("a")
    recorder.didDisappear("a")
    recorder.modal("m", presenter: "b")
    recorder.unlink("a", .left)
    recorder.dealloc("a")
    recorder.mark("done", fields: [.string("user", "anna")])
    recorder.close()
    let expected: [Event] = [
      .alloc(controller: "a", className: "A"), .root(controller: "a"),
      .lifecycle(controller: "a", callback: .didLoad), .lifecycle(controller: "a", callback: .willAppear),
      .lifecycle(controller: "a", callback: .didAppear), .link(from: "a", direction: .left, to: "b"),
      .touches(controller: "a", direction: .left, min: 2),
      .pan(Pan(controller: "a", direction: .left, touches: 2, distance: 120.5, velocity: 300, outcome: .committed)),
      .move(Move(from: "a", to: "b", direction: .left, trigger: .pan, animated: true)),
      .lifecycle(controller: "a", callback: .willDisappear), .lifecycle(controller: "a", callback: .didDisappear),
      .modal(controller: "m", presenter: "b"), .unlink(from: "a", direction: .left), .dealloc(controller: "a"),
      .mark(label: "done", fields: [.string("user", "anna")]),
    ]
    #expect(try cleanRecords(path).map(\.event) == [.session(sessionHeader)] + expected)
  }

  @Test func aRemovedJournalIsRecreatedWithItsHeaderAndTheFaultReported() throws {
    let path = try temporaryDirectory() + "/removed.ndjson"
    let reported = Mutex<[String]>([])
    let recorder = Recorder(
      path: path, header: sessionHeader,
      options: RecorderOptions(onFault: .retry(every: .milliseconds(10)), durability: .none),
      onFault: { error in reported.withLock { $0.append(error.message) } })
    recorder.mark("first")
    #expect(recorder.flush())
    unlink(path)
    recorder.mark("lost-with-the-old-file")
    recorder.flush()
    recorder.mark("second")
    #expect(recorder.flush())
    let status = recorder.close()
    #expect(reported.withLock { $0 } == ["the journal was removed while recording"])
    #expect(status.faults == 1 && status.lastFault?.message == "the journal was removed while recording")
    let records = try cleanRecords(path)
    #expect(records.first?.event == .session(sessionHeader))
    #expect(markLabels(records) == ["second"])
  }

  @Test func aFullDiskStopsTheRecorderWithoutReachingTheCaller() throws {
    // /dev/full takes the open and fails every write with ENOSPC.
    try #require(access("/dev/full", W_OK) == 0)
    let reported = Mutex(0)
    let recorder = Recorder(
      path: "/dev/full", header: sessionHeader, options: RecorderOptions(onFault: .stop),
      onFault: { _ in reported.withLock { $0 += 1 } })
    for i in 0..<100 { recorder.mark("m\(i)") }
    #expect(!recorder.flush())
    let status = recorder.close()
    #expect(status.state == .closed)
    #expect(status.written == 0 && status.accepted + status.dropped == 100)
    #expect(status.lastFault?.description == "/dev/full: cannot write: No space left on device")
    #expect(reported.withLock { $0 } >= 1)
  }

  @Test func closeGivesUpOnAFaultThatOutlastsTheRetries() throws {
    let recorder = Recorder(
      path: "/dev/full", header: sessionHeader, options: RecorderOptions(onFault: .retry(every: .seconds(60))))
    recorder.mark("never")
    let started = ContinuousClock.now
    let status = recorder.close()
    #expect(ContinuousClock.now - started < .seconds(30), "close does not wait out the retry interval")
    #expect(status.written == 0 && status.lost == 1 && status.queued == 0)
  }
}
