import Testing

@testable import Journal

private func warning(
  _ rule: FormatRule, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64?, length: Int? = nil,
  _ message: String
) -> Seen {
  .finding(
    Diagnostic(
      rule: rule, severity: .warning, line: line, column: column, seq: seq, offset: offset, length: length,
      message: message))
}

private func error(
  _ rule: FormatRule, line: Int, column: Int? = nil, seq: Int? = nil, offset: Int64?, _ message: String
) -> Seen {
  .finding(
    Diagnostic(rule: rule, severity: .error, line: line, column: column, seq: seq, offset: offset, message: message))
}

/// The decoder's verdict on a line (the reader must report exactly this).
private func decodeError(_ line: String) throws -> DecodeError {
  do {
    _ = try RecordDecoder.decode(line)
  } catch {
    return error
  }
  Issue.record("expected \(line) not to decode")
  throw CancellationError()
}

@Suite struct ReaderTests {
  @Test func cleanJournalYieldsEveryRecordWithLineAndOffset() {
    let lines = Sample.journal(5)
    let at = offsets(lines)
    #expect(read(Sample.text(lines)) == (0..<5).map { .record(seq: $0, line: $0 + 1, offset: at[$0]) })
  }

  @Test func crlfLineEndsAreAcceptedWithAWarningEach() {
    let lines = Sample.journal(3)
    let at = offsets(lines, ending: "\r\n")
    let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
    var expected: [Seen] = []
    for i in 0..<3 {
      expected.append(warning(.crlf, line: i + 1, offset: at[i], "line ends with \\r\\n instead of \\n"))
      expected.append(.record(seq: i, line: i + 1, offset: at[i]))
    }
    #expect(read(bytes) == expected)
  }

  @Test func byteOrderMarkAtTheStartIsAWarning() {
    let lines = Sample.journal(2)
    let at = offsets(lines, start: 3)
    #expect(
      read([0xEF, 0xBB, 0xBF] + Sample.text(lines)) == [
        warning(.bom, line: 1, column: 1, offset: 0, "UTF-8 byte order mark at the start of the file"),
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
      ])
  }

  @Test func columnsOnTheFirstLineCountTheByteOrderMark() throws {
    let bad = #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":17}"#
    let failure = try decodeError(bad)
    #expect(
      read([0xEF, 0xBB, 0xBF] + Array((bad + "\n").utf8)) == [
        warning(.bom, line: 1, column: 1, offset: 0, "UTF-8 byte order mark at the start of the file"),
        error(failure.rule, line: 1, column: failure.offset + 4, offset: 0, failure.message),
        error(.noHeader, line: 1, offset: 0, "the journal has no session header: none of its lines is an event"),
      ])
  }

  @Test func aJournalWithoutARecordHasNoHeader() {
    #expect(
      read([]) == [
        error(.noHeader, line: 1, offset: 0, "the journal is empty: it must start with a session header at seq 0")
      ])
    #expect(
      read(Array("\n \n".utf8)) == [
        warning(.blankLine, line: 1, offset: 0, "blank line"),
        warning(.blankLine, line: 2, offset: 1, "blank line"),
        error(.noHeader, line: 2, offset: 1, "the journal has no session header: none of its lines is an event"),
      ])
  }

  @Test func byteOrderMarkNotAtTheStartIsAFramingError() {
    let lines = [Sample.header(), "\u{FEFF}" + Sample.alloc(1), Sample.alloc(2)]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        error(.framing, line: 2, column: 1, offset: at[1], "byte order mark (U+FEFF) not at the start of the file"),
        .record(seq: 2, line: 3, offset: at[2]),
      ])
  }

  @Test func blankLinesAreWarnings() {
    let lines = [Sample.header(), "", Sample.alloc(1), "   ", "\t", Sample.alloc(2)]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        warning(.blankLine, line: 2, offset: at[1], "blank line"),
        .record(seq: 1, line: 3, offset: at[2]),
        warning(.blankLine, line: 4, offset: at[3], "blank line"),
        warning(.blankLine, line: 5, offset: at[4], "blank line"),
        .record(seq: 2, line: 6, offset: at[5]),
      ])
  }

  @Test func seqGapIsReportedAndCountingResumes() {
    let lines = [Sample.header(), Sample.alloc(1), Sample.alloc(4), Sample.alloc(5), Sample.alloc(7)]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
        error(.seqGap, line: 3, seq: 4, offset: at[2], "seq jumps from 1 to 4 (2 events missing)"),
        .record(seq: 4, line: 3, offset: at[2]),
        .record(seq: 5, line: 4, offset: at[3]),
        error(.seqGap, line: 5, seq: 7, offset: at[4], "seq jumps from 5 to 7 (1 event missing)"),
        .record(seq: 7, line: 5, offset: at[4]),
      ])
  }

  @Test func seqRepeatIsReportedAndCountingResumesFromTheHighest() {
    let lines = [
      Sample.header(), Sample.alloc(1), Sample.alloc(2), Sample.alloc(2), Sample.alloc(3), Sample.alloc(1, time: 3),
      Sample.alloc(4),
    ]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
        .record(seq: 2, line: 3, offset: at[2]),
        error(.seqRepeat, line: 4, seq: 2, offset: at[3], "seq 2 repeats"),
        .record(seq: 2, line: 4, offset: at[3]),
        .record(seq: 3, line: 5, offset: at[4]),
        error(.seqRepeat, line: 6, seq: 1, offset: at[5], "seq 1 repeats (after seq 3)"),
        .record(seq: 1, line: 6, offset: at[5]),
        .record(seq: 4, line: 7, offset: at[6]),
      ])
  }

  @Test func timeGoingBackwardsIsAnError() {
    let lines = [Sample.header(), Sample.alloc(1, time: 10), Sample.alloc(2, time: 5), Sample.alloc(3, time: 6)]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
        error(
          .timeBackwards, line: 3, seq: 2, offset: at[2],
          "time goes backwards from 2026-01-01T00:00:00.010000Z to 2026-01-01T00:00:00.005000Z"),
        .record(seq: 2, line: 3, offset: at[2]),
        .record(seq: 3, line: 4, offset: at[3]),
      ])
  }

  @Test func journalWithoutHeaderIsAnError() {
    let lines = [Sample.alloc(0), Sample.alloc(1)]
    #expect(
      read(Sample.text(lines)) == [
        error(
          .noHeader, line: 1, seq: 0, offset: 0,
          "the journal does not start with a session header (the first event is \"alloc\" at seq 0)"),
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: offsets(lines)[1]),
      ])
  }

  @Test func headerNotAtSeqZeroIsAnError() {
    #expect(
      read(Sample.text([Sample.header(seq: 5)])) == [
        error(.noHeader, line: 1, seq: 5, offset: 0, "the session header has seq 5; it must be at seq 0"),
        .record(seq: 5, line: 1, offset: 0),
      ])
  }

  @Test func secondHeaderIsAnError() {
    let lines = [Sample.header(), Sample.alloc(1), Sample.header(seq: 2, time: 2)]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
        error(.noHeader, line: 3, seq: 2, offset: at[2], "a second session header (the first is on line 1)"),
        .record(seq: 2, line: 3, offset: at[2]),
      ])
  }

  @Test func unknownTypesAreReportedOncePerType() {
    let lines = [
      Sample.header(), Sample.unknown(1, type: "swipe"), Sample.unknown(2, type: "swipe"),
      Sample.unknown(3, type: "zoom"), Sample.unknown(4, type: "swipe"),
    ]
    let at = offsets(lines)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        warning(
          .unknownType, line: 2, seq: 1, offset: at[1],
          "unknown event type \"swipe\" (kept as is; reported once per type)"),
        .record(seq: 1, line: 2, offset: at[1]),
        .record(seq: 2, line: 3, offset: at[2]),
        warning(
          .unknownType, line: 4, seq: 3, offset: at[3],
          "unknown event type \"zoom\" (kept as is; reported once per type)"),
        .record(seq: 3, line: 4, offset: at[3]),
        .record(seq: 4, line: 5, offset: at[4]),
      ])
  }

  @Test func malformedLineIsReportedWithTheDecodersColumnAndMessage() throws {
    let bad = #"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":17,"class":"X"}"#
    let failure = try decodeError(bad)
    let lines = [Sample.header(), bad, Sample.alloc(2)]
    let at = offsets(lines)
    #expect(failure.rule == .malformed)
    #expect(
      read(Sample.text(lines)) == [
        .record(seq: 0, line: 1, offset: 0),
        error(.malformed, line: 2, column: failure.offset + 1, offset: at[1], failure.message),
        // No seq-gap: the malformed line accounts for seq 1.
        .record(seq: 2, line: 3, offset: at[2]),
      ])
  }

  @Test func gapLargerThanTheUndecodedLinesIsStillReported() {
    let lines = [Sample.header(), "not json", Sample.alloc(5)]
    let seen = read(Sample.text(lines))
    #expect(
      seen.contains(
        error(.seqGap, line: 3, seq: 5, offset: offsets(lines)[2], "seq jumps from 0 to 5 (4 events missing)")))
  }

  @Test(arguments: [1 << 20, 16, 1])
  func overLongLineIsSkippedAndLaterLinesAreRead(chunkSize: Int) {
    let long = Sample.mark(2, label: String(repeating: "x", count: 400))
    let lines = [Sample.header(), Sample.alloc(1), long, Sample.alloc(3), Sample.alloc(4)]
    let at = offsets(lines)
    let options = ReadOptions(limits: DecodeLimits(maxLineLength: 150))
    #expect(
      read(Sample.text(lines), options: options, chunkSize: chunkSize) == [
        .record(seq: 0, line: 1, offset: 0),
        .record(seq: 1, line: 2, offset: at[1]),
        error(.framing, line: 3, column: 151, offset: at[2], "line is longer than the limit of 150 bytes"),
        .record(seq: 3, line: 4, offset: at[3]),
        .record(seq: 4, line: 5, offset: at[4]),
      ])
  }

  @Test(arguments: [1 << 20, 16])
  func overLongLastLineWithoutLineEndIsATornTail(chunkSize: Int) {
    let long = Sample.mark(1, label: String(repeating: "y", count: 400))
    let bytes = Sample.text([Sample.header()]) + Array(long.utf8)
    let options = ReadOptions(limits: DecodeLimits(maxLineLength: 150))
    let start = Int64(Sample.header().utf8.count + 1)
    #expect(
      read(bytes, options: options, chunkSize: chunkSize) == [
        .record(seq: 0, line: 1, offset: 0),
        warning(
          .tornTail, line: 2, offset: start, length: long.utf8.count,
          "torn tail: \(long.utf8.count) bytes at offset \(start) without a line end"),
      ])
  }

  @Test func lineExactlyAtTheLimitIsRead() {
    let lines = [Sample.header()]
    let limit = lines[0].utf8.count
    #expect(
      read(Sample.text(lines), options: ReadOptions(limits: DecodeLimits(maxLineLength: limit)), chunkSize: 8) == [
        .record(seq: 0, line: 1, offset: 0)
      ])
  }

  /// A header of another format version is read as version 1, and the reader says so, once.
  @Test func aHeaderOfAnotherFormatVersionIsAWarningOnce() {
    func header(_ version: Int, seq: Int = 0) -> String {
      Record(seq: seq, time: Sample.time(Int64(seq)), event: .session(SessionHeader(version: version, session: "S")))
        .ndjson
    }
    for options in [ReadOptions(), ReadOptions(strict: true)] {
      let lines = [header(2), Sample.alloc(1), header(3, seq: 2)]
      let findings = read(Sample.text(lines), options: options).compactMap {
        if case .finding(let d) = $0 { d } else { nil }
      }
      #expect(
        findings.map(\.rule.rawValue) == ["format-version", "no-header"], "the second header is no second warning")
      #expect(findings.first?.severity == (options.strict ? .error : .warning))
      #expect((findings.first?.line, findings.first?.seq, findings.first?.offset) == (1, 0, 0))
      #expect(
        findings.first?.message
          == "the header declares format version 2: a newer format than this version of spatial-replay knows; "
          + "it is read as version 1 (types and keys it does not know are kept as they are)")
    }
    let zero = read(Sample.text([header(0)])).compactMap { if case .finding(let d) = $0 { d } else { nil } }
    #expect(
      zero.map(\.message) == [
        "the header declares format version 0: there is no such version; the journal is read as version 1"
      ])
    #expect(read(Sample.text([header(1)])) == [.record(seq: 0, line: 1, offset: 0)])
  }

  @Test func strictModeTurnsEveryWarningIntoAnError() {
    let lines = [Sample.header() + "\r", "", Sample.unknown(1, type: "swipe")]
    let at = offsets(lines)
    let bytes = [0xEF, 0xBB, 0xBF] + Sample.text(lines) + Array(#"{"seq":2"#.utf8)
    let seen = read(bytes, options: ReadOptions(strict: true))
    let findings = seen.compactMap { if case .finding(let d) = $0 { d } else { nil } }
    #expect(findings.map(\.rule.rawValue) == ["bom", "crlf", "blank-line", "unknown-type", "torn-tail"])
    #expect(findings.allSatisfy { $0.severity == .error })
    #expect(findings.last?.offset == 3 + at[2] + Int64(lines[2].utf8.count + 1))
  }

  /// A journal with every kind of finding, read whole and in chunks of every small size.
  @Test func chunksSmallerThanALineGiveTheSameItems() {
    let lines = [
      Sample.header() + "\r", Sample.alloc(1), "", Sample.unknown(2, type: "swipe"), Sample.alloc(5),
      Sample.mark(6, label: String(repeating: "z", count: 300)), "\u{FEFF}x", Sample.move(7),
    ]
    let bytes = [0xEF, 0xBB, 0xBF] + Sample.text(lines) + Array(Sample.alloc(8).utf8.dropLast(3))
    let options = ReadOptions(limits: DecodeLimits(maxLineLength: 200))
    let whole = read(bytes, options: options)
    #expect(whole.count == 13)
    for chunkSize in [1, 2, 3, 5, 7, 13, 64, 199, 200, 201, 202, 203, 256] {
      #expect(read(bytes, options: options, chunkSize: chunkSize) == whole, "chunk size \(chunkSize)")
    }
  }

  @Test func currentLineIsTheExactBytesWithoutBomAndLineEnd() throws {
    let unknown = Sample.unknown(1, type: "swipe")
    let bytes = [0xEF, 0xBB, 0xBF] + Array((Sample.header() + "\r\n" + unknown + "\n").utf8)
    let reader = JournalReader(bytes: bytes, name: "j", chunkSize: 5)
    var lines: [String] = []
    while let item = reader.next() {
      if case .record = item { lines.append(reader.withCurrentLine { String(decoding: $0, as: UTF8.self) }) }
    }
    #expect(lines == [Sample.header(), unknown])
  }

  @Test func bytesReadCountsTheWholeInput() {
    let bytes = Sample.text(Sample.journal(20))
    let reader = JournalReader(bytes: bytes, chunkSize: 64)
    _ = reader.drain()
    #expect(reader.bytesRead == Int64(bytes.count))
  }

  @Test func missingFileIsAFileError() {
    #expect(
      throws: JournalFileError(path: "/no/such/journal.ndjson", message: "cannot open: No such file or directory")
    ) {
      _ = try JournalReader.readAll(path: "/no/such/journal.ndjson")
    }
  }

  @Test func directoryIsAFileError() {
    #expect(
      throws: JournalFileError(
        path: "/", message: "is a directory with no journal below it (*.ndjson, *.jsonl, or either gzipped)")
    ) {
      _ = try JournalReader(path: "/")
    }
  }

  @Test func readAllReturnsRecordsAndFindings() {
    let lines = [Sample.header(), Sample.alloc(2)]
    let (records, diagnostics) = JournalReader.readAll(bytes: Sample.text(lines))
    #expect(records.map(\.seq) == [0, 2])
    #expect(diagnostics.map(\.rule.rawValue) == ["seq-gap"])
  }
}
