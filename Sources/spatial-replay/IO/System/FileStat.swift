#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path leads to, whatever the path (a link, a hard link, another spelling of it):
/// its device and inode.
struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
}

extension FileIdentity {
  /// The file `stat(2)` described.
  init(_ info: stat) {
    self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The file `path` leads to now; nil when it cannot be reached.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }
}

/// A regular file as `stat(2)` describes it: which file it is, and what changes when it is
/// written to or touched (its size, its modification and change times).
struct FileStamp: Equatable, Sendable {
  var size: Int64
  /// Nanoseconds since the epoch.
  var modified: Int64
  /// Nanoseconds since the epoch.
  var changed: Int64
  var identity: FileIdentity
}

extension FileStamp {
  /// The regular file `path` leads to now; nil when it leads to anything else, or nowhere.
  init?(regularFile path: String) {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    self.init(
      size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
      identity: FileIdentity(info))
  }
}
