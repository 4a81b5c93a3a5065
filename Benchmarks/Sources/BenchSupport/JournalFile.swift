import Journal

#if canImport(Glibc)
  import Glibc
#endif

/// Why `writeJournal` could not write a file; its description names the file.
public struct JournalFileError: Error, CustomStringConvertible, Sendable {
  /// `cannot create PATH` or `cannot write PATH`.
  public var description: String
}

/// Writes `records` to `path` as a journal (see `Record.journal`), replacing
/// any file there, a megabyte at a time; the number of bytes written.
public func writeJournal(_ records: [Record], to path: String) throws(JournalFileError) -> Int {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard fd >= 0 else { throw JournalFileError(description: "cannot create \(path)") }
  defer { close(fd) }
  var buffer: [UInt8] = []
  var total = 0
  func drain() -> Bool {
    let complete = buffer.withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let n = write(fd, raw.baseAddress! + done, raw.count - done)
        guard n > 0 else { return false }
        done += n
      }
      return true
    }
    total += buffer.count
    buffer.removeAll(keepingCapacity: true)
    return complete
  }
  for record in records {
    record.encode(into: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count > 1 << 20, !drain() { throw JournalFileError(description: "cannot write \(path)") }
  }
  guard drain() else { throw JournalFileError(description: "cannot write \(path)") }
  return total
}
