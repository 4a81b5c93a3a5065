#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows a file that grows, like `tail -f`: each ``poll(_:)`` hands out the
/// complete lines appended since the last one.
///
/// - Only lines ended by `\n` are handed out. A final line without one is
///   left in the file and read again at the next poll, so a writer that
///   finishes it, or cuts it off and appends again (a torn tail repaired by
///   `JournalWriter`), never produces garbage.
/// - A file rewritten in place (shorter than what was handed out, or whose bytes
///   just before that point changed: copytruncate rotation, a test harness that
///   reuses the path) is read again from its start (``Change/rewritten``).
/// - A file replaced by another (a new inode at the path) is followed from its
///   start (``Change/replaced``); a file that does not exist yet is waited for.
/// - A line longer than `maxLineLength` is skipped without being buffered
///   (``Change/overLong``).
///
/// It `stat`s the path at each poll and reads with `pread`, at most one chunk
/// of 1 MiB at a time.
final class JournalFollower {
  /// What a poll found.
  enum Change {
    /// A complete line: its bytes without `\n` (and without a `\r` before it, `crlf` then true),
    /// 1-based number, offset.
    case line([UInt8], number: Int, offset: Int64, crlf: Bool)
    /// A line longer than the limit, skipped.
    case overLong(number: Int, offset: Int64, length: Int)
    /// The file was rewritten in place (it shrank below what was read, or the bytes just before
    /// that point changed): reading starts again at its beginning; `size` is its size now.
    case rewritten(size: Int64, shrank: Bool)
    /// Another file appeared at the path (or the file appeared): reading starts at its beginning.
    case replaced
  }

  let path: String
  let maxLineLength: Int
  private var fd: Int32 = -1
  private var identity = FileIdentity(device: 0, inode: 0)
  private var opened = false
  /// Offset just after the last complete line handed out.
  private(set) var consumed: Int64 = 0
  /// Size of the file at the last poll.
  private(set) var size: Int64 = 0
  /// Lines handed out so far (the next line's number is one more).
  private(set) var lineNumber = 0
  private var chunk = [UInt8](repeating: 0, count: 1 << 20)
  /// The bytes just before ``consumed`` (up to ``fingerprintLength``) as they were handed out:
  /// other bytes there at a later poll mean that the file was rewritten.
  private var fingerprint: [UInt8] = []
  private static let fingerprintLength = 64

  init(path: String, maxLineLength: Int = 1 << 20) {
    self.path = path
    self.maxLineLength = maxLineLength
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Whether the file exists and is open.
  var isOpen: Bool { fd >= 0 }

  /// Bytes after the last complete line (a line being written, or a torn tail).
  var unterminatedBytes: Int64 { max(0, size - consumed) }

  /// Reads what was appended since the last poll and calls `body` for each change, in order.
  ///
  /// - Returns: whether anything was handed out.
  /// - Throws: ``CommandFailure`` if the file exists but cannot be opened or read.
  @discardableResult
  func poll(_ body: (Change) -> Void) throws(CommandFailure) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return false }
      throw failure("cannot read")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else { throw CommandFailure("\(path): is a directory, not a journal") }
    var changed = false
    if !isOpen || FileIdentity(info) != identity {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        if errno == ENOENT { return false }
        throw failure("cannot open")
      }
      if fd >= 0 { close(fd) }
      var opened = stat()
      fstat(descriptor, &opened)
      fd = descriptor
      identity = FileIdentity(opened)
      info = opened
      if self.opened {
        body(.replaced)
        changed = true
      }
      self.opened = true
      consumed = 0
      lineNumber = 0
      fingerprint = []
    }
    size = Int64(info.st_size)
    let shrank = size < consumed
    var rewritten = shrank
    if !rewritten { rewritten = try !fingerprintHolds() }
    if rewritten {
      consumed = 0
      lineNumber = 0
      fingerprint = []
      body(.rewritten(size: size, shrank: shrank))
      changed = true
    }
    if consumed == 0 && size >= 2 { try refuseGzip() }
    let read = try readLines(body)
    if read { try takeFingerprint() }
    return read || changed
  }

  /// Whether the bytes before ``consumed`` are still those handed out.
  private func fingerprintHolds() throws(CommandFailure) -> Bool {
    guard !fingerprint.isEmpty else { return true }
    var now = [UInt8](repeating: 0, count: fingerprint.count)
    let start = consumed - Int64(fingerprint.count)
    let n = try readFully(&now, at: start)
    return n == now.count && now == fingerprint
  }

  /// Keeps the bytes before ``consumed``, read back from the file.
  private func takeFingerprint() throws(CommandFailure) {
    let length = Int(min(Int64(Self.fingerprintLength), consumed))
    var bytes = [UInt8](repeating: 0, count: length)
    let n = try readFully(&bytes, at: consumed - Int64(length))
    fingerprint = Array(bytes.prefix(n))
  }

  /// `pread` of `bytes.count` bytes at `offset` (fewer at the end of the file); the count read.
  private func readFully(_ bytes: inout [UInt8], at offset: Int64) throws(CommandFailure) -> Int {
    var total = 0
    while total < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + total, $0.count - total, off_t(offset) + off_t(total))
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read")
      }
      if n == 0 { break }
      total += n
    }
    return total
  }

  /// Hands out the complete lines in `consumed..<size`.
  private func readLines(_ body: (Change) -> Void) throws(CommandFailure) -> Bool {
    var any = false
    var line: [UInt8] = []
    var lineStart = consumed
    var overLongLength = -1
    var offset = consumed
    while offset < size {
      let wanted = Int(min(Int64(chunk.count), size - offset))
      let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, wanted, off_t(offset)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read")
      }
      if n == 0 { break }
      var start = 0
      while start < n {
        let newline = chunk[start..<n].firstIndex(of: 0x0A)
        let end = newline ?? n
        if overLongLength >= 0 {
          overLongLength += end - start
        } else if line.count + (end - start) > maxLineLength + 1 {
          overLongLength = line.count + (end - start)
          line.removeAll()
        } else {
          line.append(contentsOf: chunk[start..<end])
        }
        guard newline != nil else { break }
        lineNumber += 1
        if overLongLength >= 0 {
          body(.overLong(number: lineNumber, offset: lineStart, length: overLongLength))
          overLongLength = -1
        } else {
          let crlf = line.last == 0x0D
          if crlf { line.removeLast() }
          body(.line(line, number: lineNumber, offset: lineStart, crlf: crlf))
          line.removeAll(keepingCapacity: true)
        }
        any = true
        consumed = offset + Int64(end + 1)
        lineStart = consumed
        start = end + 1
      }
      offset += Int64(n)
      if overLongLength >= 0 { offset = skipHole(from: offset, &overLongLength) }
    }
    return any
  }

  /// Inside an over-long line, jumps over a hole of a sparse file (zeros, no line end),
  /// counting it in the line's length: `truncate -s 10G` makes one hole, which reading
  /// would zero-fill page by page for minutes. Returns where reading goes on.
  private func skipHole(from offset: Int64, _ overLongLength: inout Int) -> Int64 {
    let seekData: Int32 = 3  // SEEK_DATA on Linux, which the Glibc module does not export
    let next = Int64(lseek(fd, off_t(offset), seekData))
    if next > offset {
      overLongLength += Int(next - offset)
      return next
    }
    if next < 0 && errno == ENXIO && size > offset {
      // No data after `offset`: the hole runs to the end of the file.
      overLongLength += Int(size - offset)
      return size
    }
    return offset
  }

  /// A gzip-compressed file does not grow line by line: following it makes no sense.
  private func refuseGzip() throws(CommandFailure) {
    var magic: [UInt8] = [0, 0]
    let n = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 2, 0) }
    if n == 2 && magic == [0x1F, 0x8B] {
      throw CommandFailure(
        "\(path): is gzip-compressed; tail follows plain journals (check, cat, log and the other commands read gzip)")
    }
  }

  private func failure(_ what: String) -> CommandFailure {
    CommandFailure("\(path): \(what): \(String(cString: strerror(errno)))")
  }
}
