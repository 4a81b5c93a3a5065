/// A journal file that could not be opened, read or written: the path and the
/// system's reason (e.g. `No such file or directory`, `No space left on device`).
///
/// The command line reports it as unreadable input (exit status 2).
public struct JournalFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path as given (`-` for standard input).
  public var path: String
  /// What went wrong, e.g. `cannot open: Permission denied`.
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

extension JournalFileError {
  /// An error for `path` from a failed system call, e.g. `cannot open: Permission denied`.
  init(path: String, _ action: String, _ error: Errno) {
    self.init(path: path, message: "\(action): \(error.text)")
  }
}
