#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output kept for later: what a journal's worker writes while an earlier
/// journal is still being reported (``FleetRunner``).
///
/// A spool keeps its first MiB in memory and flushes the rest to an unnamed
/// temporary file in `$TMPDIR`, so a journal with a large output costs disk,
/// not memory. ``drain(into:)`` copies it, in order, to the real output.
///
/// ```swift
/// var spool = FileOutput.spool()
/// spool.write("a.ndjson: 40 events, 0 errors, 0 warnings\n")
/// try spool.drain(into: &context.stdout)
/// ```
extension FileOutput {
  /// Bytes a spool keeps in memory before it flushes to its file.
  ///
  /// Implementation note: a journal's `check` findings or `visits` rows are typically a few
  /// hundred KB; keeping them in memory saves writing them to disk and reading them back,
  /// while the window of journals in
  /// flight (``FleetRunner/window``) keeps the total bounded.
  static let spoolMemory = 1 << 20

  /// An empty spool.
  static func spool() -> FileOutput {
    FileOutput(fd: -1, capacity: spoolMemory, isSpool: true)
  }

  /// Copies what the spool holds to `output` (its temporary file, then its buffer) and empties it.
  /// - Throws: ``CommandFailure`` (status 2) if its temporary file could not be written or read back.
  mutating func drain(into output: inout FileOutput) throws(CommandFailure) {
    try drain { (chunk: ArraySlice<UInt8>) throws(CommandFailure) in output.write(bytes: chunk) }
  }

  /// Hands what the spool holds to `body`, in order, in chunks of up to 64 KiB, and empties it.
  /// - Throws: what `body` throws, or ``CommandFailure`` (status 2) if its temporary file could
  ///   not be written or read back.
  mutating func drain(_ body: (ArraySlice<UInt8>) throws(CommandFailure) -> Void) throws(CommandFailure) {
    precondition(isSpool, "only a spool drains")
    defer { discard() }
    guard !failed else {
      throw CommandFailure("cannot spool output in \(Context.temporaryDirectory): \(failureText)")
    }
    if fd >= 0 {
      guard lseek(fd, 0, SEEK_SET) == 0 else {
        throw CommandFailure("cannot read spooled output back: \(errorText())")
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { throw CommandFailure("cannot read spooled output back: \(errorText())") }
        if n == 0 { break }
        try body(chunk[..<n])
      }
    }
    if !buffer.isEmpty { try body(buffer[...]) }
  }

  /// Forgets what the spool holds and closes its temporary file.
  mutating func discard() {
    if fd >= 0 { systemClose(fd) }
    self = .spool()
  }

  /// An unnamed temporary file (created, then unlinked), open for reading and writing; -1 on failure.
  static func temporaryFile() -> Int32 {
    var template = Array((Context.temporaryDirectory + "/spatial-replay-spool.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return -1 }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return fd
  }
}
