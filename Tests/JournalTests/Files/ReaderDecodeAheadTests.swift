import Testing

@testable import Journal

/// A reader that decodes ahead on several threads yields exactly what the
/// one-thread reader yields: the same records, findings, lines, offsets and
/// current-line bytes, whatever the batch size.
@Suite struct ReaderDecodeAheadTests {
  /// Everything a reader yields, with each record whole and the line `withCurrentLine` shows for it.
  enum Item: Equatable {
    case record(Record, line: Int, offset: Int64, bytes: [UInt8])
    case finding(Diagnostic)
  }

  static func items(_ reader: JournalReader) -> [Item] {
    var items: [Item] = []
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, let offset):
        items.append(.record(record, line: line, offset: offset, bytes: reader.withCurrentLine { Array($0) }))
      case .diagnostic(let diagnostic):
        items.append(.finding(diagnostic))
      }
    }
    return items
  }

  /// A journal with every kind of line the reader treats apart: a byte order
  /// mark, CRLF, blank lines, a malformed line, a line over the limit, a seq
  /// gap, time going backwards, an unknown type, a second header, a BOM past
  /// the first line and a torn tail.
  static let mixed: [UInt8] = {
    var lines = Sample.journal(300)
    lines[3] = lines[3] + "\r"
    lines[10] = ""
    lines[20] = "not json"
    lines[30] = Sample.mark(30, label: String(repeating: "x", count: 400))
    lines[40] = Sample.alloc(45, "c40")
    lines[50] = Sample.alloc(50, "c50", time: 1)
    lines[60] = Sample.unknown(60, type: "future")
    lines[70] = Sample.header(seq: 70, time: 70)
    lines[80] = "\u{FEFF}" + lines[80]
    lines[90] = "   \t"
    var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Sample.text(lines)
    bytes += Array(#"{"seq":300,"time":"2026-01-01T00:00:00.3"#.utf8)
    return bytes
  }()

  static let options = ReadOptions(limits: DecodeLimits(maxLineLength: 256))

  @Test(arguments: [1, 2, 7, 64, 150, 4096])
  func sameItemsAsTheOneThreadReader(batchLines: Int) {
    let expected = Self.items(JournalReader(bytes: Self.mixed, options: Self.options, chunkSize: 1 << 20))
    #expect(expected.count > 300)
    for threads in [2, 3] {
      let ahead = JournalReader(
        bytes: Self.mixed, options: Self.options, chunkSize: 97, decodingThreads: threads, batchLines: batchLines)
      let items = Self.items(ahead)
      #expect(items == expected, "threads \(threads), batches of \(batchLines) lines")
      #expect(ahead.bytesRead == Int64(Self.mixed.count))
    }
  }

  @Test func strictModeAndJournalsWithoutARecordAgree() {
    let strict = ReadOptions(limits: DecodeLimits(maxLineLength: 256), strict: true)
    let expected = Self.items(JournalReader(bytes: Self.mixed, options: strict, chunkSize: 1 << 20))
    let ahead = JournalReader(bytes: Self.mixed, options: strict, chunkSize: 4096, decodingThreads: 2, batchLines: 100)
    #expect(Self.items(ahead) == expected)
    for bytes in [[], Array("\n  \n\n".utf8), Array("not json\n".utf8)] {
      let expected = Self.items(JournalReader(bytes: bytes, options: strict, chunkSize: 1 << 20))
      #expect(!expected.isEmpty, "a journal without a record has no header")
      let ahead = JournalReader(bytes: bytes, options: strict, chunkSize: 16, decodingThreads: 2, batchLines: 8)
      #expect(Self.items(ahead) == expected)
    }
  }

  /// A reader dropped part way through a batch releases the records it decoded (no leak, no crash).
  @Test func readerDroppedMidBatch() {
    let bytes = Sample.text(Sample.journal(500))
    var reader: JournalReader? = JournalReader(
      bytes: bytes, options: .init(), chunkSize: 1 << 20, decodingThreads: 2, batchLines: 200)
    var seen = 0
    while seen < 250, reader?.next() != nil { seen += 1 }
    #expect(seen == 250)
    reader = nil
  }
}
