#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the end of a journal says: its size and the `seq` and `time` of its last record.
struct JournalTail: Sendable, Hashable {
  var size: Int64
  var lastSeq: Int?
  var lastTime: Timestamp?
}

/// Reads (and, if it is torn, repairs) the end of a journal open for writing.
///
/// Every function here runs while the caller holds the journal's exclusive
/// `flock`, so no other writer changes the file meanwhile.
struct TailInspector {
  let fd: Int32
  let path: String
  let limits: DecodeLimits

  /// Makes the journal end with a complete line and reads its last record.
  ///
  /// A final line without `\n` that decodes gets its `\n`; one that does not is
  /// a torn tail: its bytes are appended (with a `\n`) to `<path>.torn`, which is
  /// synced (and its directory, when the file is new), then the journal is cut
  /// back to its last `\n` and synced.
  /// - Returns: the tail after the repair, and what was cut off, if anything.
  /// - Throws: ``JournalFileError`` on an I/O error, or when the last complete
  ///   line is not a valid record (its `seq` cannot be known).
  func inspect() throws(JournalFileError) -> (JournalTail, TornTail?) {
    var size = try stat().size
    guard size > 0 else { return (JournalTail(size: 0), nil) }
    var torn: TornTail? = nil
    if try byte(at: size - 1) != 0x0A {
      // A torn append is at most one line: past the line limit without a `\n` it is not
      // one (e.g. 10 GB of zeros), and it is neither searched through nor copied aside.
      let searchFrom = max(0, size - Int64(limits.maxLineLength) - 4)
      let newline = try lastNewline(before: size, notBefore: searchFrom)
      guard newline >= 0 || searchFrom == 0 else {
        throw JournalFileError(
          path: path,
          message:
            "cannot append: it ends with more than \(limits.maxLineLength) bytes without a line end, too long for a torn append"
        )
      }
      let start = newline + 1
      let length = size - start
      if length <= Int64(limits.maxLineLength) + 3, let record = decode(try read(from: start, to: size), at: start) {
        try call("cannot write") { () throws(Errno) in try POSIX.writeAll(fd, [0x0A]) }
        return (JournalTail(size: size + 1, lastSeq: record.seq, lastTime: record.time), nil)
      }
      torn = try moveAside(from: start, to: size)
      size = start
    }
    // The journal now ends with `\n`: find its last line that is not blank.
    var lineEnd = size - 1
    while lineEnd >= 0 {
      let lineStart = try lastNewline(before: lineEnd) + 1
      if lineEnd - lineStart > Int64(limits.maxLineLength) + 4 {
        throw JournalFileError(
          path: path,
          message:
            "cannot append: its last line (offset \(lineStart)) is longer than the limit of \(limits.maxLineLength) bytes"
        )
      }
      let line = try read(from: lineStart, to: lineEnd)
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        lineEnd = lineStart - 1
        continue
      }
      var content = line[...]
      if content.last == 0x0D { content = content.dropLast() }
      var failure: DecodeError? = nil
      if let record = decode(Array(content), at: lineStart, failure: &failure) {
        return (JournalTail(size: size, lastSeq: record.seq, lastTime: record.time), torn)
      }
      let reason = failure.map { "column \($0.offset + 1): \($0.message)" } ?? "not a record"
      throw JournalFileError(
        path: path,
        message: "cannot append: its last line (offset \(lineStart)) is not a valid record (\(reason))")
    }
    return (JournalTail(size: size), torn)
  }

  /// The file's size.
  func stat() throws(JournalFileError) -> (size: Int64, isDirectory: Bool) {
    try call("cannot read") { () throws(Errno) in try POSIX.stat(fd) }
  }

  private func decode(_ bytes: [UInt8], at offset: Int64) -> Record? {
    var failure: DecodeError? = nil
    return decode(bytes, at: offset, failure: &failure)
  }

  /// Decodes a line (dropping a BOM if the line starts the file).
  private func decode(_ bytes: [UInt8], at offset: Int64, failure: inout DecodeError?) -> Record? {
    var line = bytes[...]
    if offset == 0 && bytes.withUnsafeBytes(startsWithByteOrderMark) { line = line.dropFirst(3) }
    let result = line.withUnsafeBytes { bytes in
      Result { () throws(DecodeError) in try RecordDecoder.decode(bytes, limits: limits) }
    }
    switch result {
    case .success(let record): return record
    case .failure(let error):
      failure = error
      return nil
    }
  }

  /// Appends `[start, end)` of the journal to `<path>.torn`, then cuts the journal at `start`.
  private func moveAside(from start: Int64, to end: Int64) throws(JournalFileError) -> TornTail {
    let tornPath = path + ".torn"
    let tornFD: Int32
    let created: Bool
    do {
      (tornFD, created) = try POSIX.openCreating(tornPath, flags: O_WRONLY | O_APPEND)
    } catch {
      throw JournalFileError(path: tornPath, "cannot open", error)
    }
    defer { _ = try? POSIX.close(tornFD) }
    // A write that fails (a full disk) takes back what it began: a `.torn` it created is
    // removed, one that was there gets its old length back, so that no empty `.torn` is left
    // beside a journal whose tail is still in place.
    let before = (try? POSIX.stat(tornFD).size) ?? 0
    func undo() {
      if created {
        _ = unlink(tornPath)
      } else {
        _ = try? POSIX.truncate(tornFD, to: before)
      }
    }
    var offset = start
    while offset < end {
      let chunk: [UInt8]
      do {
        chunk = try read(from: offset, to: min(end, offset + (1 << 20)))
      } catch {
        undo()
        throw error
      }
      do {
        try POSIX.writeAll(tornFD, chunk)
      } catch {
        undo()
        throw JournalFileError(path: tornPath, "cannot write", error)
      }
      offset += Int64(chunk.count)
    }
    do {
      try POSIX.writeAll(tornFD, [0x0A])
      try POSIX.sync(tornFD)
    } catch {
      undo()
      throw JournalFileError(path: tornPath, "cannot write", error)
    }
    // The bytes are kept only if the new file's name is too: sync it before cutting them off.
    if created {
      do {
        try POSIX.syncDirectory(of: tornPath)
      } catch {
        throw JournalFileError(path: tornPath, "cannot sync the directory of", error)
      }
    }
    try call("cannot cut off the torn tail") { () throws(Errno) in
      try POSIX.truncate(fd, to: start)
      try POSIX.sync(fd)
    }
    return TornTail(offset: start, length: Int(end - start), path: tornPath)
  }

  private func byte(at offset: Int64) throws(JournalFileError) -> UInt8 {
    try read(from: offset, to: offset + 1).first ?? 0
  }

  /// The bytes `[start, end)` of the journal.
  private func read(from start: Int64, to end: Int64) throws(JournalFileError) -> [UInt8] {
    let count = Int(end - start)
    guard count > 0 else { return [] }
    return try call("cannot read") { () throws(Errno) in try POSIX.pread(fd, count: count, offset: start) }
  }

  /// The offset of the last `\n` before `position` (and at or after `floor`), or -1 if there is none.
  ///
  /// Reads backwards in blocks growing from 4 KiB, so the usual short last line costs one read.
  private func lastNewline(before position: Int64, notBefore floor: Int64 = 0) throws(JournalFileError) -> Int64 {
    var blockEnd = position
    var blockSize: Int64 = 4096
    while blockEnd > floor {
      let blockStart = max(floor, blockEnd - blockSize)
      let block = try read(from: blockStart, to: blockEnd)
      if let index = block.lastIndex(of: 0x0A) { return blockStart + Int64(index) }
      blockEnd = blockStart
      blockSize = min(blockSize * 4, 1 << 20)
    }
    return -1
  }

  private func call<R>(_ action: String, _ body: () throws(Errno) -> R) throws(JournalFileError) -> R {
    do {
      return try body()
    } catch {
      throw JournalFileError(path: path, action, error)
    }
  }
}
