/// Sizes of input files, for progress bars and for the room their records take.
enum InputSize {
  /// The size of a regular file; nil for standard input, pipes and anything unreadable.
  static func of(_ path: String) -> Int64? {
    guard path != "-" else { return nil }
    return FileStamp(regularFile: path)?.size
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
