#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sizes of input files, for progress bars.
enum InputSize {
  /// The size of a regular file; nil for standard input, pipes and anything unreadable.
  static func of(_ path: String) -> Int64? {
    guard path != "-" else { return nil }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int64(info.st_size)
  }

  /// The sum of the sizes of `paths`; nil when one of them has no known size.
  static func total(_ paths: [String]) -> Int64? {
    var sum: Int64 = 0
    for path in paths {
      guard let size = of(path) else { return nil }
      sum += size
    }
    return sum
  }
}
