#if canImport(Glibc)
  import Glibc
#endif

/// The process's resident memory now, in bytes (from `/proc/self/statm`; 0 where it is missing).
public func residentBytes() -> Int {
  guard let file = fopen("/proc/self/statm", "r") else { return 0 }
  defer { fclose(file) }
  var buffer = [CChar](repeating: 0, count: 256)
  guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
  let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  let parts = text.split(separator: " ")
  guard parts.count >= 2, let resident = Int(parts[1]) else { return 0 }
  return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The most resident memory the process has had so far, in bytes (`getrusage`'s `ru_maxrss`).
public func peakResidentBytes() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss * 1024
}
