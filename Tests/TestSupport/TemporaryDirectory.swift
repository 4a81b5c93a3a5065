import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The temporary files of every test target: one folder per test process under /tmp, a fresh
// directory in it per test (``TemporaryDirectory``, ``TemporaryFiles``), removed at the end.

/// The folder under /tmp of this test process's temporary directories, removed with everything
/// in it when the process exits.
private let processDirectory: String = {
  var template = Array("/tmp/sr-test-XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    fatalError("mkdtemp failed")
  }
  atexit { removeTree(processDirectory) }
  return String(cString: made)
}()

/// Files for end-to-end tests, in a fresh directory (removed at the end of the run at the latest).
enum TemporaryFiles {
  /// A new empty directory.
  static func directory() -> String {
    var template = Array("\(processDirectory)/XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed")
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Writes `bytes` to `path` (created or truncated); false on failure.
  @discardableResult
  static func write(_ bytes: [UInt8], to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + done, $0.count - done) }
      guard n > 0 else { return false }
      done += n
    }
    return true
  }

  /// The bytes of `path`, nil if it cannot be read.
  static func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if n < 0 { return nil }
      if n == 0 { return bytes }
      bytes += chunk[..<n]
    }
  }

  /// Writes a journal into a new directory; returns its path.
  static func journal(_ bytes: [UInt8], name: String = "journal.ndjson") -> String {
    let path = directory() + "/" + name
    precondition(write(bytes, to: path), "cannot write \(path)")
    return path
  }
}

/// A fresh directory (in the process's folder), removed with everything in it when the value
/// is released.
final class TemporaryDirectory {
  let path: String

  init() throws { path = TemporaryFiles.directory() }

  deinit { removeTree(path) }

  /// The path of `name` inside the directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Writes a file inside the directory and returns its path.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let target = file(name)
    try #require(TemporaryFiles.write(bytes, to: target), "cannot write \(target)")
    return target
  }

  /// Writes a text file inside the directory and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

  /// The bytes of a file inside the directory (or any path).
  func read(_ path: String) throws -> [UInt8] {
    try #require(TemporaryFiles.read(path.hasPrefix("/") ? path : file(path)), "cannot read \(path)")
  }

  /// A text file's content.
  func text(_ path: String) throws -> String { String(decoding: try read(path), as: UTF8.self) }
}

/// The names in a directory (without `.` and `..`), sorted.
func directoryEntries(_ path: String) -> [String] {
  var names: [String] = []
  guard let dir = opendir(path) else { return [] }
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  closedir(dir)
  return names.sorted()
}

/// Removes a file, or a directory with everything in it (links not followed).
func removeTree(_ path: String) {
  var info = stat()
  guard lstat(path, &info) == 0 else { return }
  if info.st_mode & S_IFMT == S_IFDIR {
    for name in directoryEntries(path) { removeTree(path + "/" + name) }
    rmdir(path)
  } else {
    unlink(path)
  }
}
