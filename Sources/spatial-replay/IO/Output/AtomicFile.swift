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
/// The file is first created without a name (`O_TMPFILE`) in the target's
/// directory, so a process killed while writing (even by SIGKILL) leaves
/// nothing behind. It gets its temporary name `.NAME.tmp-PID` only when it is
/// complete (``commit()``: linked, then renamed over the target) or when it is
/// closed between writes (``suspend()``, reopened by the next write, so that
/// many files can be in progress with few descriptors open). Where the file
/// system has no `O_TMPFILE` (or `/proc` is not mounted), the file is created
/// under its temporary name.
/// A target that exists and is not a regular file (`/dev/null`,
/// `/dev/stdout`, a FIFO) is written directly instead: it is never replaced.
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
  /// The directory the target is in (`.` for a bare name).
  private let directory: String
  private var fd: Int32 = -1
  /// The open file has no name yet (`O_TMPFILE`).
  private var anonymous = false
  private var finished = false

  /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), a macro Swift does not import.
  private static let openTemporary: Int32 = 0o20_000_000 | O_DIRECTORY

  /// Creates the temporary file (replacing a stale one), or opens a non-regular target.
  /// - Throws: ``CommandFailure`` if it cannot be created, or the target is a directory.
  init(path: String) throws(CommandFailure) {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    temporaryPath = directory + "." + name + ".tmp-\(getpid())"
    self.directory = directory.isEmpty ? "." : directory
    var info = stat()
    let exists = stat(path, &info) == 0
    if exists && info.st_mode & S_IFMT == S_IFDIR {
      throw CommandFailure("\(displayText(path, limit: .max)): is a directory")
    }
    isDirect = exists && info.st_mode & S_IFMT != S_IFREG
    if isDirect {
      let descriptor = systemOpen(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure("cannot open", path) }
      fd = descriptor
    } else {
      // The file is named later through /proc/self/fd (linkat): without /proc, a named file from the start.
      let descriptor =
        access("/proc/self/fd", X_OK) == 0
        ? systemOpen(self.directory, Self.openTemporary | O_WRONLY | O_CLOEXEC, 0o666) : -1
      if descriptor >= 0 {
        fd = descriptor
        anonymous = true
      } else {
        try open(flags: O_WRONLY | O_CREAT | O_TRUNC)
      }
    }
  }

  deinit {
    if !finished { abandon() }
  }

  private func open(flags: Int32) throws(CommandFailure) {
    let descriptor = systemOpen(temporaryPath, flags | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw Self.failure("cannot create", path) }
    fd = descriptor
  }

  /// Gives the anonymous file its temporary name (replacing a stale file of that name).
  private func name() throws(CommandFailure) {
    guard anonymous else { return }
    unlink(temporaryPath)
    guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temporaryPath, AT_SYMLINK_FOLLOW) == 0 else {
      throw Self.failure("cannot create", path)
    }
    anonymous = false
  }

  /// Appends bytes, reopening the file if it was suspended.
  func write(_ bytes: [UInt8]) throws(CommandFailure) {
    precondition(!finished, "write after commit or abandon")
    if fd < 0 { try open(flags: O_WRONLY | O_APPEND) }
    let target = isDirect ? path : temporaryPath
    let failure = bytes.withUnsafeBytes { writeAll(fd, $0) }
    if failure != 0 {
      errno = failure
      throw Self.failure("cannot write", target)
    }
  }

  /// Writes what was written so far to the disk (`fdatasync`), so that ``commit()``'s sync has less
  /// to wait for; a failure is left for the commit to report. It may run on another thread while
  /// ``write(_:)`` runs (``FileWriterThread``): it only reads the descriptor, which a write changes
  /// only when the file was suspended.
  func sync() {
    guard fd >= 0 && !isDirect else { return }
    _ = fdatasync(fd)
  }

  /// Closes the descriptor (naming the file first); the next write reopens it for appending.
  /// - Throws: ``CommandFailure`` if the file cannot be named; it stays open then.
  func suspend() throws(CommandFailure) {
    guard fd >= 0 && !isDirect else { return }
    try name()
    systemClose(fd)
    fd = -1
  }

  /// Syncs (unless `sync` is false), closes and renames the file over its target (a direct target
  /// is only closed). Unsynced, the rename is as atomic for every reader and for a killed process;
  /// only a power cut soon after may leave the target empty or old, as the file system orders it.
  /// - Throws: ``CommandFailure``; the temporary file is removed then.
  func commit(sync: Bool = true) throws(CommandFailure) {
    if isDirect {
      systemClose(fd)
      fd = -1
      finished = true
      return
    }
    if fd < 0 { try open(flags: O_WRONLY | O_APPEND) }
    if sync && fdatasync(fd) != 0 {
      let failure = Self.failure("cannot sync", path)
      abandon()
      throw failure
    }
    do {
      try name()
    } catch {
      abandon()
      throw error
    }
    systemClose(fd)
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
      systemClose(fd)
      fd = -1
    }
    if !isDirect && !anonymous { unlink(temporaryPath) }
    finished = true
  }

  private static func failure(_ what: String, _ path: String) -> CommandFailure {
    CommandFailure("\(displayText(path, limit: .max)): \(what): \(String(cString: strerror(errno)))")
  }
}

/// Creates a directory and its missing parents (`mkdir -p`).
/// - Throws: ``CommandFailure`` if one cannot be created or is not a directory.
func makeDirectories(_ path: String) throws(CommandFailure) {
  var created: [String] = []
  try makeDirectories(path, created: &created)
}

/// Creates a directory and its missing parents (`mkdir -p`), appending to `created`
/// those it made, parents first.
/// - Throws: ``CommandFailure`` if one cannot be created or is not a directory.
func makeDirectories(_ path: String, created: inout [String]) throws(CommandFailure) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for component in path.split(separator: "/", omittingEmptySubsequences: true) {
    prefix += component
    if mkdir(prefix, 0o755) == 0 {
      created.append(prefix)
    } else if errno != EEXIST {
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

extension AtomicFile {
  /// Writes `bytes` as the whole file at `path`, atomically: readers see the
  /// old file or the whole new one; a failure or a killed process leaves no temporary file.
  static func replace(_ path: String, with bytes: [UInt8]) throws(CommandFailure) {
    let file = try AtomicFile(path: path)
    do {
      try file.write(bytes)
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
  }
}
