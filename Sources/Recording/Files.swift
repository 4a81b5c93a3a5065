import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few system calls the session recorder makes, with the reason of a failure as text.
enum Files {
  struct Failure: Error {
    var path: String
    var message: String
    var error: JournalFileError { JournalFileError(path: path, message: message) }
  }

  static func reason(_ what: String) -> String { "\(what): \(String(cString: strerror(errno)))" }

  static func wallClockMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
  }

  static func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  /// Creates `path` (failing if it exists) for appending.
  static func create(_ path: String) throws(Failure) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Failure(path: path, message: reason("cannot create")) }
    return fd
  }

  /// Writes all of `bytes` (looping over short writes).
  /// Opens an existing file to append to it.
  static func openForAppending(_ path: String) throws(Failure) -> Int32 {
    let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard fd >= 0 else { throw Failure(path: path, message: reason("cannot open")) }
    return fd
  }

  static func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        Glibc_write(fd, raw.baseAddress! + done, raw.count - done)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, message: reason("cannot write"))
      }
      done += n
    }
  }

  static func sync(_ fd: Int32, path: String) throws(Failure) {
    guard fsync(fd) == 0 else { throw Failure(path: path, message: reason("cannot sync")) }
  }

  /// Syncs the folder holding `path`, so that a name created, renamed or removed in it lasts.
  static func syncFolder(of path: String) {
    let fd = open(folder(of: path), O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  static func size(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  static func remove(_ path: String) { unlink(path) }

  static func readAll(_ path: String) throws(Failure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Failure(path: path, message: reason("cannot open")) }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, message: reason("cannot read"))
      }
      if n == 0 { return out }
      out.append(contentsOf: chunk[..<n])
    }
  }

  /// Writes `bytes` to `path` as a whole or not at all: into a hidden temporary file
  /// beside it, synced (unless `sync` is false), then renamed over `path`, its folder synced.
  static func writeAtomically(_ bytes: [UInt8], to path: String, sync: Bool) throws(Failure) {
    let temporary = folder(of: path) + "/." + name(of: path) + ".tmp"
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Failure(path: temporary, message: reason("cannot create")) }
    do throws(Failure) {
      try write(fd, bytes, path: temporary)
      if sync { try Files.sync(fd, path: temporary) }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let failure = Failure(path: path, message: reason("cannot rename \(temporary)"))
      unlink(temporary)
      throw failure
    }
    if sync { syncFolder(of: path) }
  }

  /// The names in `folder` (hidden ones included).
  static func names(in folder: String) -> [String] {
    guard let handle = opendir(folder) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

#if canImport(Glibc)
  private let Glibc_write = Glibc.write
#elseif canImport(Musl)
  private let Glibc_write = Musl.write
#elseif canImport(Darwin)
  private let Glibc_write = Darwin.write
#endif
