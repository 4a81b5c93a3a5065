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
