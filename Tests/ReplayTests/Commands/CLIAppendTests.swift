import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `spatial-replay append`, run as processes: seq and time assignment, bad
/// input, two writers at once, and a writer killed with SIGKILL.
@Suite struct CLIAppendTests {
  /// The lines of a journal file (a final line without `\n` is left out).
  static func journalLines(_ dir: TemporaryDirectory, _ path: String) throws -> [String] {
    var lines = try dir.text(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeLast()
    return lines
  }

  @Test func appendsWithSeqAndTimeAssignedAndEchoes() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let input = """
      {"type":"session","v":1,"session":"S1"}
      {"seq":99,"type":"alloc","controller":"home","class":"HomeViewController","zz":[1,{"a":null}]}

      {"time":"2026-01-01T00:00:00Z","type":"mark","label":"early"}

      """
    let result = try Binary.run(["append", "--echo", path], stdin: input)
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr == "")
    let lines = try Self.journalLines(dir, path)
    #expect(result.stdout == JournalText.lines(lines))
    let records = try lines.map { try RecordDecoder.decode($0) }
    #expect(records.map(\.seq) == [0, 1, 2])
    #expect(records[1].extra == [Field(key: "zz", value: RawJSON(unchecked: #"[1,{"a":null}]"#))])
    #expect(records[2].time == records[1].time, "an earlier time is clamped to the last one")
    let check = try Binary.run(["check", path])
    #expect(check.status == 0, "\(check)")
  }

  @Test func badInputLineStopsWithItsPositionAndKeepsTheLinesBefore() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let bad = #"{"type":"alloc","controller":17,"class":"X"}"#
    var copy = bad
    let decoded = copy.withUTF8 { bytes in
      Result { () throws(DecodeError) in try RecordDecoder.decodeDraft(UnsafeRawBufferPointer(bytes)) }
    }
    guard case .failure(let error) = decoded else {
      Issue.record("expected \(bad) not to decode")
      return
    }
    let input = JournalText.lines([
      #"{"type":"session","v":1,"session":"S1"}"#, #"{"type":"mark","label":"one"}"#, bad,
      #"{"type":"mark","label":"never"}"#,
    ])
    let result = try Binary.run(["append", path], stdin: input)
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr == "<stdin>:3:\(error.offset + 1): error: \(error.message) [\(error.rule)]\n")
    #expect(try Self.journalLines(dir, path).count == 2)
  }

  @Test func tornTailIsRepairedWithAWarning() throws {
    let dir = try TemporaryDirectory()
    let complete = JournalText.lines([JournalText.header(), JournalText.alloc(1, "home")])
    let path = try dir.write("j.ndjson", complete + #"{"seq":2,"time":"20"#)
    let result = try Binary.run(["append", path], stdin: #"{"type":"mark","label":"after"}"# + "\n")
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr
        == "spatial-replay: warning: \(path): torn tail: 19 bytes at offset \(complete.utf8.count) moved to \(path).torn\n"
    )
    #expect(try dir.text(path + ".torn") == #"{"seq":2,"time":"20"# + "\n")
    let lines = try Self.journalLines(dir, path)
    #expect(lines.count == 3)
    #expect(try RecordDecoder.decode(lines[2]).seq == 2)
  }

  @Test(arguments: [
    (["append"], "append needs exactly one FILE"),
    (["append", "-"], "append reads events from standard input; FILE must be a path"),
    (["append", "--sync", "sometimes", "j.ndjson"], "--sync takes one of always, batch, none, got 'sometimes'"),
  ])
  func usageErrorsExitSixtyFour(arguments: [String], message: String) throws {
    let result = try Binary.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr == "spatial-replay: error: \(message)\nusage: see 'spatial-replay append --help'\n")
  }

  /// Two processes appending 10,000 events each to one journal at the same
  /// time: 20,000 lines, seq 0..19,999, every line valid, each writer's events in its order.
  @Test func twoProcessesAppendingAtOnceKeepSeqContiguous() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let perWriter = 10_000
    func input(_ writer: String) -> [UInt8] {
      Array((0..<perWriter).map { #"{"type":"mark","label":"\#(writer)-\#($0)"}"# + "\n" }.joined().utf8)
    }
    let results = try Binary.runAll([(["append", path], input("a")), (["append", path], input("b"))])
    for result in results { #expect(result.status == 0, "\(result)") }
    let lines = try Self.journalLines(dir, path)
    #expect(lines.count == 2 * perWriter)
    let records = try lines.map { try RecordDecoder.decode($0) }
    #expect(records.map(\.seq) == Array(0..<(2 * perWriter)))
    var labels: [String: [String]] = [:]
    for record in records {
      guard case .mark(let label, _) = record.event else {
        Issue.record("unexpected event \(record)")
        continue
      }
      labels[String(label.prefix(1)), default: []].append(label)
    }
    #expect(labels["a"] == (0..<perWriter).map { "a-\($0)" })
    #expect(labels["b"] == (0..<perWriter).map { "b-\($0)" })
  }

  /// A writer under `--sync always --echo` killed with SIGKILL mid-stream
  /// loses no event it echoed (acknowledged); the next `append` repairs the
  /// tail and the journal is valid.
  @Test func killedWriterLosesNoAcknowledgedEvent() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("j.ndjson")
    let seed = try Binary.run(["append", path], stdin: #"{"type":"session","v":1,"session":"kill"}"# + "\n")
    #expect(seed.status == 0, "\(seed)")
    let writer = try RunningProcess(arguments: ["append", "--sync", "always", "--echo", path])
    var echoed: [String] = []
    var next = 0
    func events(_ count: Int) -> [UInt8] {
      defer { next += count }
      return Array((next..<next + count).map { #"{"type":"mark","label":"e\#($0)"}"# + "\n" }.joined().utf8)
    }
    // Acknowledged one small batch at a time...
    for _ in 0..<20 {
      #expect(writer.write(events(10)))
      for _ in 0..<10 { echoed.append(try #require(writer.readLine())) }
    }
    // ...then killed while a burst is being appended.
    #expect(writer.write(events(500)))
    for _ in 0..<5 { echoed.append(try #require(writer.readLine())) }
    writer.send(SIGKILL)
    #expect(writer.wait() == 128 + SIGKILL)
    echoed += writer.remainingLines()
    let lines = try Self.journalLines(dir, path)
    for line in echoed {
      let record = try RecordDecoder.decode(line)
      #expect(record.seq < lines.count && lines[record.seq] == line, "acknowledged event lost: \(line)")
    }
    #expect(echoed.count >= 205)

    // The kill rarely lands inside a write(2); leave the torn line such a kill would.
    let torn = #"{"seq":\#(lines.count),"time":"2026-11-"#
    try dir.write("j.ndjson", try dir.read(path) + Array(torn.utf8))
    let repair = try Binary.run(
      ["append", "--sync", "always", path], stdin: #"{"type":"mark","label":"after"}"# + "\n")
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stderr.contains("torn tail"))
    #expect(try dir.text(path + ".torn").hasSuffix(torn + "\n"))
    let check = try Binary.run(["check", path])
    #expect(check.status == 0, "\(check)")
    #expect(check.stdout == "\(path): \(lines.count + 1) events, 0 errors, 0 warnings\n")
  }
}
