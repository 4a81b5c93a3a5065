import Journal
import Projection
import Recording
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `SessionRecorder` killed (SIGKILL) at random points while it rotates and compresses
/// segments every KiB: every segment left behind reads without an error, no half-compressed
/// file shows under a segment's name, and every acknowledged event is in the segments.
@Suite struct SegmentKillTests {
  static let probe = String(Binary.path[..<Binary.path.lastIndex(of: "/")!]) + "/recorder-probe"

  @Test(arguments: [Durability.batch, .none])
  func aKilledRecorderLeavesSegmentsThatReadAndLosesNoAcknowledgedEvent(_ durability: Durability) throws {
    var random = FuzzRandom(seed: durability == .batch ? 47 : 4747)
    var tornTails = 0
    var joined = 0
    for round in 0..<60 {
      let folder = try TemporaryDirectory()
      let kill = random.below(120)
      let outcome = try Subprocess.run(
        ["--segments", folder.file("s"), durability.rawValue, "200", String(kill)], executable: Self.probe)
      try #require(outcome.signal == SIGKILL, "round \(round): \(outcome)")
      let acknowledged =
        outcome.stdoutText.split(separator: "\n").compactMap { line in
          line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
        }.last ?? 0

      // Each segment alone: no error; the session's seqs it holds (after a rebuilt state, its `sourceSeq`).
      var seqs: [Int: Int] = [:]
      var indexes = Set<Int>()
      var torn = false
      for name in directoryEntries(folder.path) where name.hasSuffix(".ndjson") || name.hasSuffix(".ndjson.gz") {
        let path = folder.path + "/" + name
        let index = try #require(SegmentName.parse(path)?.index, "round \(round): \(path) is not a segment's name")
        let reader = try JournalReader(path: path)
        var afterPrefix = true
        var first = true
        var held: [Int] = []
        while let item = reader.next() {
          switch item {
          case .diagnostic(let d):
            #expect(d.severity != .error, "round \(round): \(path):\(d.line): \(d.message) [\(d.rule)]")
            #expect(d.rule == .tornTail, "round \(round): \(path): \(d.message)")
            torn = true
          case .record(let record, _, _):
            if first {
              first = false
              guard case .session = record.event else {
                Issue.record("round \(round): \(path) does not start with its header")
                break
              }
              afterPrefix = record.extra.contains { $0.key == "segment" && $0.value.text == "1" }
              continue
            }
            if !afterPrefix {
              if case .mark(let label, _) = record.event, label == ReplayableSlice.markLabel { afterPrefix = true }
              continue
            }
            let source = record.extra.first { $0.key == ReplayableSlice.sourceSeqKey }.flatMap { Int($0.value.text) }
            held.append(source ?? record.seq)
          }
        }
        #expect(reader.readError == nil)
        // A segment both compressed and not (killed between the rename and the removal) counts once.
        guard indexes.insert(index).inserted else { continue }
        for seq in held {
          #expect(seqs[seq] == nil, "round \(round): seq \(seq) in two segments")
          seqs[seq] = index
        }
      }
      for name in Self.names(in: folder.path) where !name.hasPrefix(".") {
        #expect(SegmentName.parse(name) != nil, "round \(round): \(name) left behind")
      }
      let missing = (1...max(1, acknowledged)).filter { acknowledged > 0 && seqs[$0] == nil }
      #expect(missing.isEmpty, "round \(round): acknowledged up to \(acknowledged), missing \(missing.prefix(10))")
      if torn {
        tornTails += 1
      } else if !seqs.isEmpty {
        // Read together as one session: no format error (a move cut off by the kill is a finding
        // of the lifecycle rules, status 1), every event in order.
        let check = try Binary.run(["check", "--format", "json", folder.path])
        #expect(check.status == 0 || check.status == 1, "round \(round): \(check)")
        #expect(check.stdout.contains("\"formatErrors\":0,\"rules\""), "round \(round): \(check)")
        #expect(!check.stdout.contains("\"formatErrors\":1"), "round \(round): \(check)")
        let cat = try Binary.run(["cat", folder.path])
        #expect(cat.stdout.split(separator: "\n").count == seqs.count + 1, "round \(round): \(cat)")
        joined += 1
      }
    }
    #expect(joined > 30, "only \(joined) rounds were read together (\(tornTails) torn tails)")
  }

  static func names(in folder: String) -> [String] {
    var names: [String] = []
    if let handle = opendir(folder) {
      while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      closedir(handle)
    }
    return names
  }
}
