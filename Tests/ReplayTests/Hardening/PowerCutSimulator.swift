import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The power-loss recorder (`FaultInjection/powercut.c`), built once with the
/// system's C compiler; `nil` where there is none or no `LD_PRELOAD` (not Linux).
enum PowerCutLibrary {
  static let path: String? = {
    #if os(Linux)
      guard system("command -v cc >/dev/null 2>&1") == 0 else { return nil }
      let source = Repository.tests + "/FaultInjection/powercut.c"
      let library = TemporaryFiles.directory() + "/powercut.so"
      let status = system("cc -Wall -shared -fPIC -O1 -o '\(library)' '\(source)' -ldl -lpthread")
      return status == 0 ? library : nil
    #else
      return nil
    #endif
  }()

  /// The environment that records the calls on `directory` (and standard output) into `log`.
  static func environment(directory: String, log: String) -> [String] {
    ["LD_PRELOAD=\(path ?? "")", "POWERCUT_DIR=\(directory)", "POWERCUT_LOG=\(log)", "POWERCUT_STDOUT=1"]
  }
}

/// What `powercut.so` recorded in one run, in order, plus the harness's own
/// records of the processes that ended (`exited`).
struct PowerCutLog {
  enum Operation {
    case create(name: String, inode: UInt64)
    case write(inode: UInt64, offset: Int, bytes: [UInt8])
    case truncate(inode: UInt64, length: Int)
    case sync(inode: UInt64)
    case syncDirectory
    case rename(from: String, to: String)
    case unlink(name: String)
    /// Bytes written to standard output: what the program acknowledged.
    case output([UInt8])
    /// Written by the harness once process `process` ended with `status`.
    case exited(process: Int, status: Int32)
  }

  var operations: [Operation] = []

  /// Reads a log; names are the last component of each path (the directory is flat).
  init(_ bytes: [UInt8]) throws {
    var i = 0
    while i < bytes.count {
      let end = try #require(bytes[i...].firstIndex(of: 0x0A), "a log record without its line end at \(i)")
      let fields = bytes[i..<end].split(separator: 0x09, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      try #require(fields.count >= 5, "a log record of \(fields.count) fields")
      i = end + 1
      let (inode, offset, length) = (UInt64(fields[1]) ?? 0, Int(fields[2]) ?? 0, Int(fields[3]) ?? 0)
      let name = String(fields[4].split(separator: "/").last ?? "")
      switch fields[0] {
      case "create": operations.append(.create(name: name, inode: inode))
      case "write", "out":
        try #require(i + length <= bytes.count, "a record's data runs past the log")
        let data = Array(bytes[i..<(i + length)])
        i += length
        operations.append(fields[0] == "out" ? .output(data) : .write(inode: inode, offset: offset, bytes: data))
      case "truncate": operations.append(.truncate(inode: inode, length: offset))
      case "sync": operations.append(.sync(inode: inode))
      case "dirsync": operations.append(.syncDirectory)
      case "rename":
        try #require(fields.count == 6)
        operations.append(.rename(from: name, to: String(fields[5].split(separator: "/").last ?? "")))
      case "unlink": operations.append(.unlink(name: name))
      case "exited": operations.append(.exited(process: Int(inode), status: Int32(offset)))
      default: Issue.record("unknown log record \(fields[0])")
      }
    }
  }

  /// Appends the harness's record that process `process` ended with `status`.
  static func noteExit(_ log: String, process: Int, status: Int32) {
    let fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    let line = Array("exited\t\(process)\t\(status)\t0\t-\n".utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }
}

/// A flat directory as the file system holds it (what a program sees) and as it
/// is on the device (what survives a power cut), advanced one recorded call at a time.
///
/// The model is the one POSIX promises and LazyFS simulates: a file's data
/// reaches the device with its `fsync`/`fdatasync` (everything written before
/// it); a name made, renamed or removed reaches it with an `fsync` of the
/// directory, not with a sync of the file.
struct SimulatedDirectory {
  struct File {
    var content: [UInt8] = []
    var durable: [UInt8] = []
    /// Changes since the last sync, in order.
    var pending: [Change] = []
  }

  enum Change {
    case write(offset: Int, bytes: [UInt8])
    case truncate(Int)

    func apply(to content: inout [UInt8], keeping fraction: Double = 1) {
      switch self {
      case .write(let offset, let bytes):
        let kept = bytes.prefix(Int(Double(bytes.count) * fraction))
        if content.count < offset + kept.count {
          content += [UInt8](repeating: 0, count: offset + kept.count - content.count)
        }
        content.replaceSubrange(offset..<(offset + kept.count), with: kept)
      case .truncate(let length):
        if length < content.count {
          content.removeSubrange(length...)
        } else {
          content += [UInt8](repeating: 0, count: length - content.count)
        }
      }
    }
  }

  var files: [UInt64: File] = [:]
  var names: [String: UInt64] = [:]
  var durableNames: [String: UInt64] = [:]

  /// The directory before the run: every file of it on the device.
  init(existing: [(name: String, inode: UInt64, bytes: [UInt8])]) {
    for file in existing {
      files[file.inode] = File(content: file.bytes, durable: file.bytes)
      names[file.name] = file.inode
    }
    durableNames = names
  }

  mutating func apply(_ operation: PowerCutLog.Operation) {
    switch operation {
    case .create(let name, let inode):
      names[name] = inode
      files[inode] = File()
    case .write(let inode, let offset, let bytes): change(inode, .write(offset: offset, bytes: bytes))
    case .truncate(let inode, let length): change(inode, .truncate(length))
    case .sync(let inode):
      guard var file = files[inode] else { return }
      file.durable = file.content
      file.pending = []
      files[inode] = file
    case .syncDirectory: durableNames = names
    case .rename(let from, let to):
      names[to] = names[from]
      names[from] = nil
    case .unlink(let name): names[name] = nil
    case .output, .exited: break
    }
  }

  private mutating func change(_ inode: UInt64, _ change: Change) {
    guard var file = files[inode] else { return }
    change.apply(to: &file.content)
    file.pending.append(change)
    files[inode] = file
  }

  /// How a power cut treats what was not synced.
  enum Cut: CaseIterable, CustomStringConvertible {
    /// Only what was synced: unsynced data and names are all gone (the strictest).
    case syncedOnly
    /// The names as the program left them, the data only as synced.
    case namesKept
    /// The names kept, and a random part of the unsynced changes written in
    /// order, the last one cut anywhere (as pages written back before the cut).
    case someUnsyncedData

    var description: String {
      switch self {
      case .syncedOnly: "synced only"
      case .namesKept: "names kept"
      case .someUnsyncedData: "some unsynced data"
      }
    }
  }

  /// The files the directory holds after a power cut now.
  func afterPowerCut(_ cut: Cut, random: inout FuzzRandom) -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for (name, inode) in (cut == .syncedOnly ? durableNames : names).sorted(by: { $0.key < $1.key }) {
      guard let file = files[inode] else { continue }
      var bytes = file.durable
      if cut == .someUnsyncedData && !file.pending.isEmpty {
        let kept = random.below(file.pending.count + 1)
        for change in file.pending.prefix(kept) { change.apply(to: &bytes) }
        if kept < file.pending.count {
          file.pending[kept].apply(to: &bytes, keeping: Double(random.below(100)) / 100)
        }
      }
      result[name] = bytes
    }
    return result
  }
}
