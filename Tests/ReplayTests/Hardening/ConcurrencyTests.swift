import Foundation
import Journal
import Synchronization
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Four `spatial-replay append` processes and eight threads of this process
/// (four sharing one ``JournalWriter``, four with their own) appending to one
/// journal at the same time.
///
/// Afterwards every line decodes (no two appends interleaved), `seq` runs
/// 0, 1, 2, ... without a gap or a repeat, `time` never decreases, every event
/// is there exactly once and each writer's events are in the order it appended them.
@Suite struct ConcurrencyTests {
  static let processes = 4
  static let threads = 8
  static let eventsPerWriter = 1_000

  /// What the threads report, shared with them.
  final class Failures: Sendable {
    let list = Mutex<[String]>([])
  }

  /// The mark event a writer appends as its `index`-th.
  static func label(_ writer: String, _ index: Int) -> String { "\(writer)-\(index)" }

  @Test func fourProcessesAndEightThreadsAppendWithoutLosingOrInterleavingALine() throws {
    let directory = try TemporaryDirectory()
    let journal = directory.file("shared.ndjson")
    try directory.write(
      "shared.ndjson", Record(seq: 0, time: .modelEpoch, event: .session(SessionHeader(session: "many"))).ndjson + "\n")

    // The processes read their events through pipes fed a few lines at a time, so that
    // each makes many small appends while the threads run.
    var inputs: [[UInt8]] = []
    var children: [PipedChild] = []
    for p in 0..<Self.processes {
      var input: [UInt8] = []
      for k in 0..<Self.eventsPerWriter {
        input += Array(#"{"type":"mark","label":"\#(Self.label("p\(p)", k))","writer":"process"}"#.utf8) + [0x0A]
      }
      inputs.append(input)
      children.append(try PipedChild(["append", "--sync", p % 2 == 0 ? "batch" : "none", journal]))
    }

    let failures = Failures()
    let shared = try JournalWriter(path: journal, durability: .none)
    let done = DispatchGroup()
    for t in 0..<Self.threads {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        do {
          let writer =
            t < Self.threads / 2 ? shared : try JournalWriter(path: journal, durability: t % 2 == 0 ? .batch : .always)
          var k = 0
          while k < Self.eventsPerWriter {
            // Single appends and batches of up to four, interleaved.
            let batch = min(Self.eventsPerWriter - k, 1 + (k * 7 + t) % 4)
            let drafts = (k..<(k + batch)).map {
              Draft(event: .mark(label: Self.label("t\(t)", $0), fields: []), extra: [])
            }
            try writer.append(contentsOf: drafts)
            k += batch
          }
          if writer !== shared { try writer.close() }
        } catch {
          failures.list.withLock { $0.append("thread \(t): \(error)") }
        }
      }
      thread.start()
    }

    var offsets = [Int](repeating: 0, count: Self.processes)
    var sink: [UInt8] = []
    while offsets.enumerated().contains(where: { $0.element < inputs[$0.offset].count }) {
      for p in 0..<Self.processes where offsets[p] < inputs[p].count {
        let end = min(inputs[p].count, offsets[p] + 200)
        offsets[p] += children[p].offer(inputs[p][offsets[p]..<end])
        if offsets[p] == inputs[p].count { children[p].closeStdin() }
      }
      for child in children { child.drain(into: &sink) }
      usleep(200)
    }
    for (p, child) in children.enumerated() {
      child.drainToEnd(into: &sink)
      #expect(
        child.wait() == 0, "process \(p): \(String(decoding: (try? child.errors.contents()) ?? [], as: UTF8.self))")
    }
    done.wait()
    try shared.close()
    #expect(failures.list.withLock { $0 } == [])

    let bytes = try directory.read(journal)
    #expect(bytes.last == 0x0A)
    let lines = bytes.split(separator: 0x0A)
    let writers = (0..<Self.processes).map { "p\($0)" } + (0..<Self.threads).map { "t\($0)" }
    #expect(lines.count == 1 + writers.count * Self.eventsPerWriter, "every event is there")
    var next: [String: Int] = [:]
    var lastTime: Timestamp?
    var previousWriter = ""
    var switches = 0
    for (i, line) in lines.enumerated() {
      let text = String(decoding: line, as: UTF8.self)
      guard let record = try? RecordDecoder.decode(text) else {
        Issue.record("line \(i + 1) does not decode (interleaved?): \(text.prefix(200))")
        continue
      }
      #expect(record.seq == i, "line \(i + 1) has seq \(record.seq)")
      if let lastTime { #expect(record.time >= lastTime, "time goes backwards on line \(i + 1)") }
      lastTime = record.time
      guard case .mark(let label, _) = record.event else { continue }
      let parts = label.split(separator: "-")
      let writer = String(parts[0])
      let index = Int(parts[1]) ?? -1
      if writer != previousWriter { switches += 1 }
      previousWriter = writer
      #expect(index == next[writer, default: 0], "line \(i + 1): \(label) out of its writer's order")
      next[writer] = index + 1
    }
    #expect(next == Dictionary(uniqueKeysWithValues: writers.map { ($0, Self.eventsPerWriter) }))
    #expect(switches > 4 * writers.count, "the writers really ran at the same time (\(switches) switches)")
    print(
      "hardening: concurrency: \(Self.processes) processes and \(Self.threads) threads, "
        + "\(writers.count * Self.eventsPerWriter) events appended, \(lines.count) lines, seq contiguous, "
        + "time non-decreasing, \(switches) switches between writers")
  }
}
