#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: the `errno` it set.
struct Errno: Error, Sendable, Hashable {
  var code: Int32

  /// The C library's text for the error, e.g. `No such file or directory`.
  var text: String { String(cString: strerror(code)) }

  /// The error of the call that just failed.
  static var current: Errno { Errno(code: errno) }
}

// The C library's calls under names of their own: inside `POSIX` the wrappers'
// names hide them, and a `Glibc.` prefix would not build on Darwin or Musl.
private typealias SystemStat = stat
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}
private func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t) -> Int {
  pread(fd, buffer, count, offset)
}
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout SystemStat) -> Int32 { stat(path, &info) }

/// Which file a descriptor or a path leads to: its device and inode.
struct FileIdentity: Sendable, Hashable {
  var device: UInt64
  var inode: UInt64
}

/// Thin wrappers around the POSIX calls the reader and the writer make:
/// `EINTR` is retried everywhere, failures come back as ``Errno``.
enum POSIX {
  /// Opens a file (`open(2)`), retrying on `EINTR`.
  static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(Errno) -> Int32 {
    while true {
      let fd = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) }
      if fd >= 0 { return fd }
      if errno != EINTR { throw .current }
    }
  }

  /// Opens a file, creating it (mode 0644) when it is missing, and says whether this call created it.
  static func openCreating(_ path: String, flags: Int32) throws(Errno) -> (fd: Int32, created: Bool) {
    while true {
      do throws(Errno) {
        return (try open(path, flags: flags), false)
      } catch {
        guard error.code == ENOENT else { throw error }
      }
      do throws(Errno) {
        return (try open(path, flags: flags | O_CREAT | O_EXCL), true)
      } catch {
        // Another process created it meanwhile: open that one.
        guard error.code == EEXIST else { throw error }
      }
    }
  }

  /// Syncs the directory that holds `path` (`fsync(2)` of the directory), so that a
  /// name just made in it survives a power cut: syncing a new file does not sync its name.
  static func syncDirectory(of path: String) throws(Errno) {
    let directory: String
    if let slash = path.lastIndex(of: "/") {
      directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      directory = "."
    }
    let fd = try open(directory, flags: O_RDONLY | O_DIRECTORY)
    defer { _ = try? close(fd) }
    try sync(fd)
  }

  /// Reads up to `count` bytes; returns 0 at the end of the file.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
    while true {
      let n = systemRead(fd, buffer, count)
      if n >= 0 { return n }
      if errno != EINTR { throw .current }
    }
  }

  /// Reads exactly `count` bytes at `offset` (fewer only at the end of the file).
  static func pread(
    _ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, offset: Int64
  ) throws(Errno) -> Int {
    var done = 0
    while done < count {
      let n = systemPread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
      if n < 0 {
        if errno == EINTR { continue }
        throw .current
      }
      if n == 0 { break }
      done += n
    }
    return done
  }

  /// Writes every byte, looping over short writes and `EINTR`.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let n = systemWrite(fd, base, remaining)
      if n < 0 {
        if errno == EINTR { continue }
        throw .current
      }
      if n == 0 { throw Errno(code: EIO) }
      base += n
      remaining -= n
    }
  }

  /// Writes every byte of an array.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(fd, raw) } }
    try result.get()
  }

  /// Reads up to `count` bytes at `offset` into a new array (shorter only at the end of the file).
  static func pread(_ fd: Int32, count: Int, offset: Int64) throws(Errno) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBytes { raw in
      Result { () throws(Errno) in try pread(fd, into: raw.baseAddress!, count: count, offset: offset) }
    }
    bytes.removeLast(count - (try result.get()))
    return bytes
  }

  /// The file's size and whether it is a directory (`fstat(2)`).
  static func stat(_ fd: Int32) throws(Errno) -> (size: Int64, isDirectory: Bool) {
    var info = SystemStat()
    guard fstat(fd, &info) == 0 else { throw .current }
    return (Int64(info.st_size), (info.st_mode & S_IFMT) == S_IFDIR)
  }

  /// The file's identity (device and inode) behind a descriptor.
  static func identity(_ fd: Int32) throws(Errno) -> FileIdentity {
    var info = SystemStat()
    guard fstat(fd, &info) == 0 else { throw .current }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The identity of the file a path names now (`stat(2)`); `ENOENT` when it is gone.
  static func identity(path: String) throws(Errno) -> FileIdentity {
    var info = SystemStat()
    guard path.withCString({ systemStat($0, &info) }) == 0 else { throw .current }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// Takes (`LOCK_EX`) or releases (`LOCK_UN`) an advisory lock on the whole file.
  static func lockFile(_ fd: Int32, _ operation: Int32) throws(Errno) {
    while flock(fd, operation) != 0 {
      if errno != EINTR { throw .current }
    }
  }

  /// Flushes the file's data (and the metadata needed to read it back) to the device.
  static func syncData(_ fd: Int32) throws(Errno) {
    #if os(Linux)
      while fdatasync(fd) != 0 {
        if errno != EINTR { throw .current }
      }
    #else
      while fsync(fd) != 0 {
        if errno != EINTR { throw .current }
      }
    #endif
  }

  /// Flushes the file's data and metadata (`fsync(2)`).
  static func sync(_ fd: Int32) throws(Errno) {
    while fsync(fd) != 0 {
      if errno != EINTR { throw .current }
    }
  }

  /// Cuts the file to `length` bytes.
  static func truncate(_ fd: Int32, to length: Int64) throws(Errno) {
    while ftruncate(fd, off_t(length)) != 0 {
      if errno != EINTR { throw .current }
    }
  }

  /// Closes a descriptor (`EINTR` is not retried: on Linux the descriptor is gone either way).
  static func close(_ fd: Int32) throws(Errno) {
    if systemClose(fd) != 0 && errno != EINTR { throw .current }
  }

  /// The wall-clock time in microseconds since 1970.
  static func wallClockMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
  }
}
