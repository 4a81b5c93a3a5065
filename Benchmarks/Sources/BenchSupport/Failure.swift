#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` as it is (add the `\n` yourself) to standard error, unbuffered,
/// e.g. a progress line ending in `\r` that the printed figures do not contain.
public func writeToStandardError(_ text: String) {
  var copy = text
  copy.withUTF8 { bytes in
    var done = 0
    while done < bytes.count {
      let written = write(2, bytes.baseAddress! + done, bytes.count - done)
      if written <= 0 { return }
      done += written
    }
  }
}

/// Where `fail` writes its message.
public enum FailureOutput: Sendable {
  /// Standard output, among the figures.
  case standardOutput
  /// Standard error.
  case standardError
}

/// Writes `program: message` on a line of its own to `output` and ends the
/// process with exit status `status` (64, `EX_USAGE`, unless told).
public func fail(
  _ message: String, program: String, status: Int32 = 64, output: FailureOutput = .standardError
) -> Never {
  switch output {
  case .standardOutput: print("\(program): \(message)")
  case .standardError: writeToStandardError("\(program): \(message)\n")
  }
  exit(status)
}
