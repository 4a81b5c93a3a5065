#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a file, standard input or a byte array into lines, with bounded memory.
///
/// It reads in large chunks (1 MiB), finds line ends with `memchr` and hands
/// out each line as a view into its buffer, valid until the next call. It
/// never holds more than one chunk and one line: a line longer than the limit
/// is reported as over-long (with its length) and skipped without being
/// buffered whole. ``JournalReader`` decodes journals on top of it; `append`
/// reads its input with it.
///
/// ```swift
/// let lines = try LineReader(path: "journal.ndjson")
/// while let line = lines.next() {
///   print(line.number, line.bytes.count)
/// }
/// ```
package final class LineReader {
  /// One line of the input.
  package struct Line {
    /// 1-based line number.
    package var number: Int
    /// Byte offset of the line's first byte in the input.
    package var offset: Int64
    /// The line without its `\n` and without the `\r` of a `\r\n`; valid until the
    /// next call to ``LineReader/next()``. Empty when the line is over-long.
    package var bytes: UnsafeRawBufferPointer
    /// The line's length in bytes, without its line end (also when over-long).
    package var length: Int
    /// Whether the line ended with `\n` (the last line of the input may not).
    package var terminated: Bool
    /// Whether the line ended with `\r\n`.
    package var crlf: Bool
    /// Whether the line is longer than the limit (its bytes were skipped).
    package var isOverLong: Bool
  }

  enum Source {
    case descriptor(Int32, owned: Bool)
    case memory([UInt8])
  }

  /// The name of the input, for error messages (`-` for standard input).
  package let name: String
  /// Longest line handed out, in bytes without the line end.
  package let maxLineLength: Int
  private let source: Source
  private var memoryPosition = 0
  private let chunkSize: Int
  private let maxCapacity: Int
  /// A partial line longer than this cannot be a line within the limit (the limit plus a `\r`).
  private let skipThreshold: Int
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  /// The unconsumed bytes are `buffer[start..<end]`.
  private var start = 0
  private var end = 0
  /// Input offset of `buffer[0]`.
  private var bufferOffset: Int64 = 0
  private var atEnd = false
  private var lineNumber = 0
  /// Decompresses the input when it starts with gzip's magic number (found at the first read).
  private var inflater: GzipInflater?

  /// Bytes read from the input so far (for progress).
  package private(set) var bytesRead: Int64 = 0
  /// Set when reading failed part way (e.g. an I/O error); ``next()`` then returns `nil`.
  package private(set) var readError: JournalFileError?

  /// The default size of one read.
  package static let defaultChunkSize = 1 << 20

  /// Opens a file for reading; `-` means standard input.
  /// - Throws: ``JournalFileError`` if the file cannot be opened or is a directory.
  package convenience init(path: String, maxLineLength: Int = DecodeLimits().maxLineLength) throws(JournalFileError) {
    try self.init(path: path, maxLineLength: maxLineLength, chunkSize: Self.defaultChunkSize)
  }

  convenience init(path: String, maxLineLength: Int, chunkSize: Int) throws(JournalFileError) {
    let source: Source
    if path == "-" {
      source = .descriptor(0, owned: false)
    } else {
      let fd: Int32
      do {
        fd = try POSIX.open(path, flags: O_RDONLY)
      } catch {
        throw JournalFileError(path: path, "cannot open", error)
      }
      do {
        if try POSIX.stat(fd).isDirectory {
          _ = try? POSIX.close(fd)
          throw JournalFileError(
            path: path, message: "is a directory with no journal below it (*.ndjson, *.jsonl, or either gzipped)")
        }
      } catch let error as Errno {
        _ = try? POSIX.close(fd)
        throw JournalFileError(path: path, "cannot read", error)
      } catch let error as JournalFileError {
        throw error
      } catch {
        preconditionFailure("unexpected error \(error)")
      }
      source = .descriptor(fd, owned: true)
    }
    self.init(source: source, name: path, maxLineLength: maxLineLength, chunkSize: chunkSize)
  }

  /// Reads lines from an open descriptor, which the reader does not close.
  package convenience init(fileDescriptor: Int32, name: String, maxLineLength: Int = DecodeLimits().maxLineLength) {
    self.init(
      source: .descriptor(fileDescriptor, owned: false), name: name, maxLineLength: maxLineLength,
      chunkSize: Self.defaultChunkSize)
  }

  /// Reads lines from bytes in memory.
  /// - Parameter chunkSize: how many bytes each internal read takes (tests use small
  ///   values to cut lines across reads).
  convenience init(
    bytes: [UInt8], name: String = "<memory>", maxLineLength: Int = DecodeLimits().maxLineLength,
    chunkSize: Int = LineReader.defaultChunkSize
  ) {
    self.init(source: .memory(bytes), name: name, maxLineLength: maxLineLength, chunkSize: chunkSize)
  }

  init(source: Source, name: String, maxLineLength: Int, chunkSize: Int) {
    precondition(maxLineLength >= 0 && chunkSize > 0, "line limit and chunk size must be positive")
    self.source = source
    self.name = name
    self.maxLineLength = maxLineLength
    self.chunkSize = chunkSize
    // A line of the limit plus `\r\n` must fit; the buffer never grows beyond that (or one chunk).
    let (lineCapacity, overflow) = maxLineLength.addingReportingOverflow(2)
    self.maxCapacity = max(chunkSize, overflow ? Int.max : lineCapacity)
    self.skipThreshold = overflow ? Int.max : maxLineLength + 1
    // At least 2 bytes: the first read must be able to hold gzip's magic number.
    self.capacity = max(chunkSize, 2)
    self.buffer = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    buffer.deallocate()
    if case .descriptor(let fd, owned: true) = source { _ = try? POSIX.close(fd) }
  }

  /// Whether a whole line is buffered, so ``next()`` returns without waiting for input.
  package var hasBufferedLine: Bool {
    start < end && (memchr(buffer + start, 0x0A, end - start) != nil || atEnd)
  }

  /// The next line, or `nil` at the end of the input (or after a read error, see ``readError``).
  ///
  /// - Complexity: amortised O(length of the line).
  package func next() -> Line? {
    if readError != nil { return nil }
    while true {
      if start < end, let found = memchr(buffer + start, 0x0A, end - start) {
        let newline = buffer.distance(to: found)
        let lineStart = start
        start = newline + 1
        return makeLine(from: lineStart, to: newline, terminated: true)
      }
      if atEnd {
        guard start < end, readError == nil else { return nil }
        let lineStart = start
        start = end
        return makeLine(from: lineStart, to: end, terminated: false)
      }
      // No line end buffered. Implementation note: once the partial line cannot fit
      // under the limit even with `\r\n`, it is skipped rather than buffered.
      if end - start > skipThreshold { return skipOverLongLine() }
      fill()
    }
  }

  private func makeLine(from lineStart: Int, to lineEnd: Int, terminated: Bool) -> Line {
    var contentEnd = lineEnd
    var crlf = false
    if terminated && contentEnd > lineStart && buffer.load(fromByteOffset: contentEnd - 1, as: UInt8.self) == 0x0D {
      contentEnd -= 1
      crlf = true
    }
    lineNumber += 1
    let length = contentEnd - lineStart
    let overLong = length > maxLineLength
    return Line(
      number: lineNumber, offset: bufferOffset + Int64(lineStart),
      bytes: overLong
        ? UnsafeRawBufferPointer(start: nil, count: 0)
        : UnsafeRawBufferPointer(start: buffer + lineStart, count: length),
      length: length, terminated: terminated, crlf: crlf, isOverLong: overLong)
  }

  /// Consumes the over-long line that starts at `start`, chunk by chunk, up to its line end.
  @inline(never)
  private func skipOverLongLine() -> Line? {
    lineNumber += 1
    let offset = bufferOffset + Int64(start)
    var length = end - start
    var lastByte = buffer.load(fromByteOffset: end - 1, as: UInt8.self)
    bufferOffset += Int64(end)
    start = 0
    end = 0
    while true {
      if atEnd {
        if readError != nil { return nil }
        return Line(
          number: lineNumber, offset: offset, bytes: UnsafeRawBufferPointer(start: nil, count: 0), length: length,
          terminated: false, crlf: false, isOverLong: true)
      }
      if let hole = skipHole() {
        length += hole
        lastByte = 0
      }
      fill()
      guard end > 0 else { continue }
      if let found = memchr(buffer, 0x0A, end) {
        let newline = buffer.distance(to: found)
        if newline > 0 { lastByte = buffer.load(fromByteOffset: newline - 1, as: UInt8.self) }
        length += newline
        start = newline + 1
        let crlf = lastByte == 0x0D
        if crlf { length -= 1 }
        return Line(
          number: lineNumber, offset: offset, bytes: UnsafeRawBufferPointer(start: nil, count: 0), length: length,
          terminated: true, crlf: crlf, isOverLong: true)
      }
      length += end
      lastByte = buffer.load(fromByteOffset: end - 1, as: UInt8.self)
      bufferOffset += Int64(end)
      end = 0
    }
  }

  /// While an over-long line is skipped (the buffer empty): jumps over a hole of a
  /// sparse file, which holds only zero bytes and so no line end, without reading it.
  ///
  /// Implementation note: a 10 GB file made by `truncate -s 10G` is one hole; reading
  /// it makes the kernel zero-fill 10 GB of page cache (tens of seconds), while
  /// `lseek(SEEK_DATA)` finds its end at once. Pipes and file systems without
  /// holes answer with an error or the current position: nothing is skipped.
  /// - Returns: the bytes skipped, or nil.
  private func skipHole() -> Int? {
    guard case .descriptor(let fd, _) = source, start == end, inflater == nil else { return nil }
    let here = lseek(fd, 0, SEEK_CUR)
    guard here >= 0 else { return nil }
    #if canImport(Darwin)
      let seekData = SEEK_DATA
    #else
      let seekData: Int32 = 3  // SEEK_DATA on Linux, which the Glibc module does not export
    #endif
    var next = lseek(fd, here, seekData)
    if next < 0 {
      // ENXIO: no data after `here`, the hole runs to the end of the file.
      guard errno == ENXIO else {
        _ = lseek(fd, here, SEEK_SET)
        return nil
      }
      next = lseek(fd, 0, SEEK_END)
      guard next >= here else {
        _ = lseek(fd, here, SEEK_SET)
        return nil
      }
    }
    guard next > here else { return nil }
    let skipped = Int(next - here)
    bufferOffset += Int64(skipped)
    bytesRead += Int64(skipped)
    return skipped
  }

  /// Reads the next chunk after the unconsumed bytes, moving or growing the buffer when it is full.
  private func fill() {
    if start > 0 && (start == end || end == capacity || capacity - end < capacity / 4) {
      let pending = end - start
      if pending > 0 { buffer.copyMemory(from: buffer + start, byteCount: pending) }
      bufferOffset += Int64(start)
      start = 0
      end = pending
    }
    if end == capacity {
      precondition(capacity < maxCapacity, "a full buffer holds an over-long line, which is skipped")
      let newCapacity = capacity > maxCapacity / 2 ? maxCapacity : capacity * 2
      let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
      grown.copyMemory(from: buffer, byteCount: end)
      buffer.deallocate()
      buffer = grown
      capacity = newCapacity
    }
    let wanted = min(capacity - end, chunkSize)
    var count: Int
    do throws(GzipInflater.Failure) {
      if let inflater {
        count = try inflater.read(into: buffer + end, count: wanted, source: readSource)
      } else {
        do throws(Errno) {
          count = try readSource(into: buffer + end, count: wanted)
        } catch {
          throw .read(error)
        }
        if bufferOffset == 0 && end == 0 && count > 0 { count = try inflateIfGzip(count, wanted: wanted) }
      }
    } catch {
      switch error {
      case .read(let errno): readError = JournalFileError(path: name, "cannot read", errno)
      case .data(let reason): readError = JournalFileError(path: name, message: "cannot read: \(reason)")
      }
      atEnd = true
      return
    }
    if count == 0 { atEnd = true }
    end += count
  }

  /// Reads up to `count` bytes of the input as it is (compressed or not).
  private func readSource(into destination: UnsafeMutableRawPointer, count wanted: Int) throws(Errno) -> Int {
    let count: Int
    switch source {
    case .memory(let bytes):
      count = min(wanted, bytes.count - memoryPosition)
      if count > 0 {
        bytes.withUnsafeBytes { all in
          destination.copyMemory(from: all.baseAddress! + memoryPosition, byteCount: count)
        }
      }
      memoryPosition += count
    case .descriptor(let fd, _):
      count = try POSIX.read(fd, into: destination, count: wanted)
    }
    bytesRead += Int64(count)
    return count
  }

  /// At the start of the input: when its first bytes are gzip's magic number, the
  /// bytes read so far become the inflater's first input and from then on every
  /// chunk is decompressed. Line numbers and offsets are those of the decompressed text.
  /// - Returns: the bytes now in the buffer (decompressed ones when the input is gzip).
  @inline(never)
  private func inflateIfGzip(_ count: Int, wanted: Int) throws(GzipInflater.Failure) -> Int {
    var count = count
    // A pipe may hand out the magic number's first byte alone.
    while count == 1 && buffer.load(as: UInt8.self) == 0x1F {
      let more: Int
      do {
        more = try readSource(into: buffer + 1, count: capacity - 1)
      } catch {
        throw .read(error)
      }
      if more == 0 { break }
      count += more
    }
    guard GzipInflater.isGzip(UnsafeRawBufferPointer(start: buffer, count: count)) else { return count }
    let inflater = GzipInflater(initial: UnsafeRawBufferPointer(start: buffer, count: count))
    self.inflater = inflater
    return try inflater.read(into: buffer, count: wanted, source: readSource)
  }
}
