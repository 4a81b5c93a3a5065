/// Reads a journal line by line with bounded memory, yielding its records and
/// the findings about it in file order.
///
/// The reader is liberal where the format allows it and reports everything
/// else: a UTF-8 BOM at the start (`bom`), `\r\n` line ends (`crlf`), blank
/// lines (`blank-line`), a final line without `\n` that does not decode
/// (`torn-tail`, with its offset and length), unknown event types
/// (`unknown-type`, once per type) and a header that declares a format version
/// other than 1 (`format-version`, read as version 1) are warnings; lines that do not decode
/// (`malformed`, `framing`), `seq` gaps and repeats (`seq-gap`, `seq-repeat`),
/// time going backwards (`time-backwards`) and a missing, misplaced or second
/// header (`no-header`) are errors. In strict mode every warning is an error.
///
/// ```swift
/// let reader = try JournalReader(path: "journal.ndjson")
/// while let item = reader.next() {
///   switch item {
///   case .record(let record, let line, _): print(line, record.event.typeName)
///   case .diagnostic(let d): print(d.line, d.rule, d.message)
///   }
/// }
/// ```
///
/// Memory stays constant whatever the journal's size: one chunk of 1 MiB and
/// one line (at most the line limit) are buffered; a reader that decodes ahead
/// on several threads (``init(path:options:decodingThreads:)``) adds one batch:
/// its lines copied (about 1 MiB) and their 4,096 records.
///
/// Implementation note: the mutable state read on every line is marked
/// `@exclusivity(unchecked)`: a reader is used by one thread at a time and
/// never hands out access to these properties, so the runtime's check of
/// each access (three per line, on every command's hot path)
/// proves nothing.
public final class JournalReader {
  private let lines: LineReader
  private let options: ReadOptions
  /// Lines decoded ahead on several threads (nil: each line is decoded when it is read).
  private var ahead: DecodeAhead?
  @exclusivity(unchecked) private var integrity: IntegrityTracker
  /// Items of the current line not yet returned (diagnostics, then its record).
  @exclusivity(unchecked) private var pending: [JournalItem] = []
  @exclusivity(unchecked) private var pendingIndex = 0
  /// The decoded bytes of the line last returned as a record.
  @exclusivity(unchecked) private var currentLine = UnsafeRawBufferPointer(start: nil, count: 0)
  /// The number and offset of the last line read, for the end-of-input check.
  @exclusivity(unchecked) private var lastLine = (number: 0, offset: Int64(0))
  /// The minute of the time decoded last on this thread (the decoder skips the date when it repeats).
  @exclusivity(unchecked) private var minute = CanonicalMinute()
  /// The ids and class names decoded lately on this thread (``IDCache``).
  private let ids = IDCache()
  private var ended = false

  /// Opens a journal; `-` reads standard input.
  /// - Throws: ``JournalFileError`` if the file does not exist, is a directory or cannot be read.
  public convenience init(path: String, options: ReadOptions = .init()) throws(JournalFileError) {
    try self.init(path: path, options: options, chunkSize: LineReader.defaultChunkSize)
  }

  /// Opens a journal and decodes its lines on `decodingThreads` threads (the
  /// calling one among them), in batches read ahead; the items come in file
  /// order as ever, with the same findings.
  ///
  /// ```swift
  /// let reader = try JournalReader(path: "big.ndjson", decodingThreads: JournalReader.availableThreads)
  /// ```
  ///
  /// Implementation note: decoding is most of the time of the commands that
  /// do little with each record (`cat`, `at`), and one line decodes without
  /// the others; only the checks across lines (seq, time, header) must go in
  /// order, and they run on the calling thread after each batch is decoded.
  /// - Throws: ``JournalFileError`` if the file does not exist, is a directory or cannot be read.
  public convenience init(path: String, options: ReadOptions = .init(), decodingThreads: Int) throws(JournalFileError) {
    try self.init(path: path, options: options, chunkSize: LineReader.defaultChunkSize)
    if decodingThreads > 1 { ahead = DecodeAhead(threads: decodingThreads, limits: options.limits) }
  }

  init(path: String, options: ReadOptions, chunkSize: Int) throws(JournalFileError) {
    self.lines = try LineReader(path: path, maxLineLength: options.limits.maxLineLength, chunkSize: chunkSize)
    self.options = options
    self.integrity = IntegrityTracker(strict: options.strict)
  }

  /// Reads a journal from an open descriptor, from where it stands; the reader
  /// does not close it, and numbers lines from 1 there.
  ///
  /// ```swift
  /// lseek(fd, blockOffset, SEEK_SET)
  /// let reader = JournalReader(fileDescriptor: fd, name: "journal.ndjson")
  /// ```
  ///
  /// The point index of `at` starts reading at a line in the middle of a file
  /// (the first line of one of its blocks).
  public convenience init(fileDescriptor: Int32, name: String, options: ReadOptions = .init()) {
    self.init(
      lines: LineReader(fileDescriptor: fileDescriptor, name: name, maxLineLength: options.limits.maxLineLength),
      options: options)
  }

  private init(lines: LineReader, options: ReadOptions) {
    self.lines = lines
    self.options = options
    self.integrity = IntegrityTracker(strict: options.strict)
  }

  /// Reads a journal held in memory; `name` is used in error messages.
  public convenience init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = .init()) {
    self.init(bytes: bytes, name: name, options: options, chunkSize: LineReader.defaultChunkSize)
  }

  /// Reads bytes in memory in reads of `chunkSize` bytes (tests cut lines across reads with it).
  init(bytes: [UInt8], name: String = "<memory>", options: ReadOptions = .init(), chunkSize: Int) {
    self.lines = LineReader(
      bytes: bytes, name: name, maxLineLength: options.limits.maxLineLength, chunkSize: chunkSize)
    self.options = options
    self.integrity = IntegrityTracker(strict: options.strict)
  }

  /// Reads bytes in memory, decoding on `decodingThreads` threads in batches of
  /// `batchLines` lines (tests compare it with the one-thread reader).
  convenience init(bytes: [UInt8], options: ReadOptions, chunkSize: Int, decodingThreads: Int, batchLines: Int) {
    self.init(bytes: bytes, options: options, chunkSize: chunkSize)
    ahead = DecodeAhead(threads: decodingThreads, limits: options.limits, batchLines: batchLines)
  }

  /// Bytes read from the input so far (for progress bars).
  public var bytesRead: Int64 { lines.bytesRead }

  /// Set when reading failed part way through (an I/O error); ``next()`` then returned `nil`.
  public var readError: JournalFileError? { lines.readError }

  /// The next record or finding, in file order; `nil` at the end of the journal.
  ///
  /// A line's findings come before its record. After the last item, check
  /// ``readError`` to tell the end of the input from a failed read.
  public func next() -> JournalItem? {
    if pendingIndex < pending.count { return popPending() }
    if let ahead { return next(from: ahead) }
    while let line = lines.next() {
      lastLine = (line.number, line.offset)
      // Implementation note: the item is returned as is, not unwrapped and
      // wrapped again: a JournalItem is ~150 bytes and every copy shows.
      let item = process(line)
      if case .some = item { return item }
    }
    return end()
  }

  /// Once, at the end of the input: a journal without a single record has no header.
  @inline(never)
  private func end() -> JournalItem? {
    guard !ended else { return nil }
    ended = true
    guard lines.readError == nil,
      let finding = integrity.missingHeaderAtEnd(lastLine: lastLine.number, lastOffset: lastLine.offset)
    else { return nil }
    return .diagnostic(finding)
  }

  /// Calls `body` with the raw bytes of the line last returned as a `.record`:
  /// exactly as in the file, without the line end (and without the BOM of the first line).
  ///
  /// `cat` copies records through with it, so unknown keys and the exact bytes survive.
  /// The bytes are only valid inside `body`.
  package func withCurrentLine<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(currentLine)
  }

  /// ``next()`` over lines decoded ahead, batch by batch.
  private func next(from ahead: DecodeAhead) -> JournalItem? {
    while true {
      while let (line, index) = ahead.nextLine() {
        lastLine = (line.number, line.offset)
        let item = process(line, ahead: ahead, index: index)
        if case .some = item { return item }
      }
      guard ahead.fill(from: lines) else { return end() }
    }
  }

  private func popPending() -> JournalItem {
    let item = pending[pendingIndex]
    pendingIndex += 1
    if pendingIndex == pending.count {
      pending.removeAll(keepingCapacity: true)
      pendingIndex = 0
    }
    return item
  }

  private func report(_ diagnostic: Diagnostic) {
    pending.append(.diagnostic(diagnostic))
  }

  /// Reports why a line that should be a record was not decoded.
  private func reportUndecoded(_ diagnostic: Diagnostic) {
    integrity.noteUndecodedLine()
    report(diagnostic)
  }

  /// Decodes one line and checks it; returns the first item it produced, queueing the rest.
  @inline(__always)
  /// - Parameters:
  ///   - ahead: where the line was decoded ahead, if it was (`index` is then its place in the batch).
  private func process(_ line: LineReader.Line, ahead: DecodeAhead? = nil, index: Int = 0) -> JournalItem? {
    if line.isOverLong {
      if line.terminated {
        reportUndecoded(
          Diagnostic(
            rule: .framing, severity: .error, line: line.number, column: options.limits.maxLineLength + 1,
            offset: line.offset,
            message: "line is longer than the limit of \(options.limits.maxLineLength) bytes"))
      } else {
        report(tornTail(line))
      }
      return popPending()
    }
    guard
      let (bytes, columnShift) = integrity.frame(
        line: line.number, offset: line.offset, bytes: line.bytes, terminated: line.terminated, crlf: line.crlf,
        report: report)
    else { return popPending() }
    let record: Record
    do throws(DecodeError) {
      // `DecodeAhead.decodable(_:)` hands its workers the same bytes.
      if let ahead {
        switch ahead.outcome(index) {
        case .decoded: record = ahead.takeRecord(index)
        case .failed: throw ahead.takeError(index)
        case .skipped: record = try RecordDecoder.decode(bytes, limits: options.limits, minute: &minute, ids: ids)
        }
      } else {
        record = try RecordDecoder.decode(bytes, limits: options.limits, minute: &minute, ids: ids)
      }
    } catch {
      if line.terminated {
        reportUndecoded(
          Diagnostic(
            rule: error.rule, severity: .error, line: line.number, column: error.offset + 1 + columnShift,
            offset: line.offset, message: error.message))
      } else {
        report(tornTail(line))
      }
      return popPending()
    }
    integrity.check(record, line: line.number, offset: line.offset, report: report)
    currentLine = bytes
    if pending.isEmpty { return .record(record, line: line.number, offset: line.offset) }
    pending.append(.record(record, line: line.number, offset: line.offset))
    return popPending()
  }

  private func tornTail(_ line: LineReader.Line) -> Diagnostic {
    Diagnostic(
      rule: .tornTail, severity: integrity.warningSeverity(), line: line.number, offset: line.offset,
      length: line.length,
      message:
        "torn tail: \(line.length) \(line.length == 1 ? "byte" : "bytes") at offset \(line.offset) without a line end")
  }
}

/// Whether a line starts with the UTF-8 byte order mark `EF BB BF`: every reader of journal
/// lines asks it here, so that the mark is spelled once.
@inline(__always)
package func startsWithByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
  bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
}

/// Whether a line holds nothing but spaces and tabs.
func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
  for byte in bytes where byte != 0x20 && byte != 0x09 { return false }
  return true
}

extension JournalReader {
  /// Reads a whole journal into memory: every record and every finding.
  ///
  /// ```swift
  /// let (records, diagnostics) = try JournalReader.readAll(path: "journal.ndjson")
  /// ```
  /// - Throws: ``JournalFileError`` if the file cannot be opened or read.
  public static func readAll(
    path: String, options: ReadOptions = .init()
  ) throws(JournalFileError) -> (records: [Record], diagnostics: [Diagnostic]) {
    let reader = try JournalReader(path: path, options: options)
    let result = reader.collect()
    if let error = reader.readError { throw error }
    return result
  }

  /// Reads a whole journal held in memory: every record and every finding.
  public static func readAll(
    bytes: [UInt8], options: ReadOptions = .init()
  ) -> (records: [Record], diagnostics: [Diagnostic]) {
    JournalReader(bytes: bytes, options: options).collect()
  }

  private func collect() -> (records: [Record], diagnostics: [Diagnostic]) {
    var records: [Record] = []
    var diagnostics: [Diagnostic] = []
    while let item = next() {
      switch item {
      case .record(let record, _, _): records.append(record)
      case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
      }
    }
    return (records, diagnostics)
  }
}
