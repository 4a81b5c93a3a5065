import Foundation
import Testing

@testable import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// File helpers of the writer and recorder tests.

/// The C library's `write`, which the helper `write(_:to:)` hides (a `Glibc.`
/// prefix builds on glibc only).
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

/// The folder under /tmp of this test process's directories, removed when the process exits.
private let testDirectories: String = {
  var template = Array("/tmp/journal-files-XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    fatalError("mkdtemp failed")
  }
  atexit { removeTestDirectories() }
  return String(cString: made)
}()

private func removeTestDirectories() {
  try? FileManager.default.removeItem(atPath: testDirectories)
}

/// A fresh directory for one test (in ``testDirectories``: removed at the end of the run).
func temporaryDirectory() throws -> String {
  var template = Array("\(testDirectories)/XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  let path = try #require(made.map { String(cString: $0) })
  return path
}

func contents(_ path: String) throws -> [UInt8] {
  let fd = open(path, O_RDONLY)
  try #require(fd >= 0, "cannot open \(path)")
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    try #require(n >= 0)
    if n == 0 { return bytes }
    bytes += chunk[..<n]
  }
}

func write(_ bytes: [UInt8], to path: String) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  try #require(fd >= 0)
  defer { close(fd) }
  let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress!, $0.count) }
  try #require(n == bytes.count)
}

/// Reads a journal and requires it to be clean: every line a record, no findings.
func cleanRecords(_ path: String) throws -> [Record] {
  let (records, diagnostics) = try JournalReader.readAll(path: path)
  #expect(diagnostics == [], "\(diagnostics.map { $0.formatted(file: path) })")
  return records
}
