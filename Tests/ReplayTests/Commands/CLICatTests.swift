import Journal
import Testing

@testable import TestSupport

/// `spatial-replay cat`, run as a process: lines copied byte for byte, filters, exit status.
@Suite struct CLICatTests {
  static let unknown = #"{"seq":3,"time":"2026-01-01T00:00:00.003000Z","type":"swipe","fingers":3,"path":[{"x":1.5}]}"#
  static let lines = [
    JournalText.header(),
    JournalText.alloc(1, "home", extra: [Field(key: "zz", value: RawJSON(unchecked: #"[1,{"a":null},"\u00e9"]"#))]),
    JournalText.alloc(2, "notes"),
    unknown,
    JournalText.lifecycle(4, "home", .didLoad),
    JournalText.mark(5, "step 1"),
  ]

  @Test func copiesAWholeJournalByteForByte() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines(Self.lines))
    let result = try Binary.run(["cat", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdoutBytes == (try dir.read(path)))
    #expect(
      result.stderr
        == "\(path):4: warning: unknown event type \"swipe\" (kept as is; reported once per type) [unknown-type]\n")
  }

  @Test func filtersBySeqRange() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines(Self.lines))
    let result = try Binary.run(["cat", "--from", "1", "--to", "3", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == JournalText.lines(Array(Self.lines[1...3])))
    let tail = try Binary.run(["cat", "--from=4", path])
    #expect(tail.stdout == JournalText.lines(Array(Self.lines[4...])))
  }

  @Test func filtersByTypeIncludingUnknownTypes() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines(Self.lines))
    let result = try Binary.run(["cat", "--type", "alloc", "--type", "swipe", path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == JournalText.lines(Array(Self.lines[1...3])))
    #expect(
      result.stderr
        == "\(path):4: warning: unknown event type \"swipe\" (kept as is; reported once per type) [unknown-type]\n")
  }

  @Test func concatenatesFilesAndReadsStandardInput() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("a.ndjson", JournalText.lines(Array(Self.lines[0...1])))
    let result = try Binary.run(
      ["cat", "--type", "alloc", path, "-"], stdin: JournalText.lines([JournalText.alloc(0, "x")]))
    #expect(result.stdout == JournalText.lines([Self.lines[1], JournalText.alloc(0, "x")]))
    #expect(result.status == 2, "the journal on stdin has no header")
  }

  @Test func dropsLinesThatDoNotDecodeAndExitsOne() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", JournalText.lines([Self.lines[0], "{oops", Self.lines[1]]))
    let result = try Binary.run(["cat", path])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout == JournalText.lines([Self.lines[0], Self.lines[1]]))
    #expect(result.stderr.hasPrefix("\(path):2:2: error: "))
    #expect(result.stderr.hasSuffix(" [malformed]\n"))
  }

  @Test func unreadableFileExitsTwo() throws {
    let dir = try TemporaryDirectory()
    let result = try Binary.run(["cat", dir.file("none.ndjson")])
    #expect(result.status == 2)
    #expect(
      result.stderr == "spatial-replay: error: \(dir.file("none.ndjson")): cannot open: No such file or directory\n")
  }

  @Test func fromAfterToIsAUsageError() throws {
    let result = try Binary.run(["cat", "--from", "5", "--to", "2", "j.ndjson"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("spatial-replay: error: --from 5 is after --to 2\n"))
  }
}
