import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written under a temporary name beside its target and renamed over it
/// once complete: readers see the old file or the whole new one, never a part.
///
/// The temporary file is `.NAME.tmp-PID` in the target's directory. It may be
/// closed between writes (``suspend()``) and reopened by the next write, so that
/// many files can be in progress with few descriptors open. A target that exists
/// and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written
/// directly instead: it is never replaced.
///
/// ```swift
/// let file = try AtomicFile(path: "out/visits.csv")
/// try file.write(bytes)
/// try file.commit()  // fsync, close, rename over out/visits.csv
/// ```
final class AtomicFile {
  let path: String
  let temporaryPath: String
  /// The target is a device or a FIFO: written in place, not replaced.
  let isDirect: Bool
  private var fd: Int32 = -1
  private var finished = false

  /// Creates the temporary file (replacing a stale one), or opens a non-regular target.
  /// - Throws: ``CommandFailure`` if it cannot be created, or the target is a directory.
  init(path: String) throws(CommandFailure) {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    temporaryPath = directory + "." + name + ".tmp-\(getpid())"
    var info = stat()
    let exists = stat(path, &info) == 0
    if exists && info.st_mode & S_IFMT == S_IFDIR {
      throw CommandFailure("\(displayText(path, limit: .max)): is a directory")
    }
    isDirect = exists && info.st_mode & S_IFMT != S_IFREG
    if isDirect {
      let descriptor = Glibc.open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure("cannot open", path) }
      fd = descriptor
    } else {
      try open(flags: O_WRONLY | O_CREAT | O_TRUNC)
    }
  }

  deinit {
    if !finished { abandon() }
  }

  private func open(flags: Int32) throws(CommandFailure) {
    let descriptor = Glibc.open(temporaryPath, flags | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Self.failure("cannot create", temporaryPath) }
    fd = descriptor
  }

  /// Appends bytes, reopening the file if it was suspended.
  func write(_ bytes: [UInt8]) throws(CommandFailure) {
    precondition(!finished, "write after commit or abandon")
    if fd < 0 { try open(flags: O_WRONLY | O_APPEND) }
    let target = isDirect ? path : temporaryPath
    var failure: Int32 = 0
    bytes.withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        done += n
      }
    }
    if failure != 0 {
      errno = failure
      throw Self.failure("cannot write", target)
    }
  }

  /// Closes the descriptor; the next write reopens the file for appending.
  func suspend() {
    if fd >= 0 && !isDirect {
      Glibc.close(fd)
      fd = -1
    }
  }

  /// Syncs, closes and renames the file over its target (a direct target is only closed).
  /// - Throws: ``CommandFailure``; the temporary file is removed then.
  func commit() throws(CommandFailure) {
    if isDirect {
      Glibc.close(fd)
      fd = -1
      finished = true
      return
    }
    if fd < 0 { try open(flags: O_WRONLY | O_APPEND) }
    if fdatasync(fd) != 0 {
      let failure = Self.failure("cannot sync", temporaryPath)
      abandon()
      throw failure
    }
    Glibc.close(fd)
    fd = -1
    if rename(temporaryPath, path) != 0 {
      let failure = Self.failure("cannot rename to \(path)", temporaryPath)
      abandon()
      throw failure
    }
    finished = true
  }

  /// Closes and removes the temporary file; the target is left as it was.
  func abandon() {
    if fd >= 0 {
      Glibc.close(fd)
      fd = -1
    }
    if !isDirect { unlink(temporaryPath) }
    finished = true
  }

  private static func failure(_ what: String, _ path: String) -> CommandFailure {
    CommandFailure("\(displayText(path, limit: .max)): \(what): \(String(cString: strerror(errno)))")
  }
}

/// Creates a directory and its missing parents (`mkdir -p`).
/// - Throws: ``CommandFailure`` if one cannot be created or is not a directory.
func makeDirectories(_ path: String) throws(CommandFailure) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for component in path.split(separator: "/", omittingEmptySubsequences: true) {
    prefix += component
    if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
      throw CommandFailure(
        "\(displayText(prefix, limit: .max)): cannot create directory: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    if stat(prefix, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
      throw CommandFailure("\(displayText(prefix, limit: .max)): not a directory")
    }
    prefix += "/"
  }
}
