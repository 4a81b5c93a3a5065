#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The C library's calls under names of their own, for types whose own methods
// (`open`, `write`, `close`) hide them: a `Glibc.` prefix would build on glibc only.

func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

@discardableResult
func systemClose(_ fd: Int32) -> Int32 { close(fd) }

/// Installs a signal handler (`signal(2)`); the previous one is returned.
@discardableResult
func systemSignal(_ number: Int32, _ handler: (@convention(c) (Int32) -> Void)?) -> (@convention(c) (Int32) -> Void)? {
  signal(number, handler)
}

/// Writes all of `bytes` to `fd`, going on after an interrupted or short write.
/// - Returns: 0, or the `errno` of the write that failed.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
  var done = 0
  while done < bytes.count {
    let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
    if n < 0 {
      if errno == EINTR { continue }
      return errno
    }
    done += n
  }
  return 0
}
