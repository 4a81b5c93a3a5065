import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process run under watch for the hardening tests: a timeout, how it
/// ended (exit status or signal), its output and its peak memory.
///
/// Standard input is an unlinked temporary file holding the given bytes;
/// stdout and stderr go to unlinked temporary files read back at the end, so
/// the child never blocks on a pipe and no file appears anywhere.
///
/// ```swift
/// let outcome = try Subprocess.run(["check", path], timeout: .seconds(30))
/// #expect(outcome.exitStatus == 0, "\(outcome)")
/// ```
enum Subprocess {
  /// How one run ended and what it produced.
  struct Outcome: CustomStringConvertible {
    var arguments: [String]
    /// The exit status, `nil` when a signal ended the process.
    var exitStatus: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// Whether the run was killed for taking longer than its timeout.
    var timedOut: Bool
    var stdout: [UInt8]
    var stderr: [UInt8]
    /// Peak resident memory of the child, in KiB (its `VmHWM`, sampled every millisecond).
    var peakMemoryKiB: Int
    var seconds: Double

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// Exited by itself with 0, 1 or 2 (the documented outcomes of a run on bad data).
    var endedCleanly: Bool { !timedOut && signal == nil && [0, 1, 2].contains(exitStatus ?? -1) }

    var description: String {
      let ending =
        timedOut ? "timed out" : signal.map { "killed by signal \($0)" } ?? "exit status \(exitStatus ?? -1)"
      return "spatial-replay \(arguments.joined(separator: " ").prefix(300)): \(ending), peak \(peakMemoryKiB) KiB, "
        + "\(Int(seconds * 1000)) ms\n--- stdout\n\(stdoutText.prefix(2000))\n--- stderr\n\(stderrText.prefix(2000))"
    }
  }

  /// Runs the built `spatial-replay` (or `executable`) to completion or until the timeout.
  /// - Parameters:
  ///   - directory: the working directory (through `/bin/sh -c 'cd … && exec …'`).
  ///   - environment: extra `NAME=value` entries added to this process's environment.
  static func run(
    _ arguments: [String], executable: String = Binary.path, stdin: [UInt8] = [], directory: String? = nil,
    environment: [String] = [], timeout: Duration = .seconds(120)
  ) throws -> Outcome {
    try start(arguments, executable: executable, stdin: stdin, directory: directory, environment: environment)
      .finish(timeout: timeout)
  }

  /// Starts the built `spatial-replay` (or `executable`); ``Child/finish(timeout:)`` waits for it.
  static func start(
    _ arguments: [String], executable: String = Binary.path, stdin: [UInt8] = [], directory: String? = nil,
    environment: [String] = []
  ) throws -> Child {
    let input = try AnonymousFile(stdin)
    let output = try AnonymousFile([])
    let errors = try AnonymousFile([])
    var program = executable
    var argv = [executable] + arguments
    if let directory {
      program = "/bin/sh"
      argv = ["/bin/sh", "-c", #"cd -- "$0" && exec "$@""#, directory, executable] + arguments
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input.fd, 0)
    posix_spawn_file_actions_adddup2(&actions, output.fd, 1)
    posix_spawn_file_actions_adddup2(&actions, errors.fd, 2)
    let pid = try spawn(program, argv, actions: &actions, environment: environment)
    return Child(pid: pid, arguments: arguments, output: output, errors: errors)
  }

  /// A started child whose output goes to files.
  final class Child {
    /// The `VmHWM` (peak resident set) of a running process, in KiB.
    static func peakResidentKiB(_ pid: pid_t) -> Int? {
      guard let status = readWholeFile("/proc/\(pid)/status") else { return nil }
      for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
      }
      return nil
    }

    let pid: pid_t
    let arguments: [String]
    let output: AnonymousFile
    let errors: AnonymousFile
    private let started = ContinuousClock.now
    private var outcome: Outcome?

    init(pid: pid_t, arguments: [String], output: AnonymousFile, errors: AnonymousFile) {
      self.pid = pid
      self.arguments = arguments
      self.output = output
      self.errors = errors
    }

    deinit {
      if outcome == nil {
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
      }
    }

    /// Waits for the end (killing the child after `timeout`) and collects what it produced.
    func finish(timeout: Duration = .seconds(120)) throws -> Outcome {
      if let outcome { return outcome }
      var raw: Int32 = 0
      var timedOut = false
      var peak = 0
      while true {
        // The peak is sampled from /proc while the child runs: `ru_maxrss` of a child
        // started by posix_spawn counts this (large) test process's memory from before exec.
        peak = max(peak, Self.peakResidentKiB(pid) ?? 0)
        let done = waitpid(pid, &raw, WNOHANG)
        if done == pid { break }
        if done < 0 && errno != EINTR { break }
        if ContinuousClock.now - started > timeout && !timedOut {
          timedOut = true
          kill(pid, SIGKILL)
        }
        usleep(1_000)
      }
      let elapsed = ContinuousClock.now - started
      let signal = raw & 0x7F
      let result = Outcome(
        arguments: arguments, exitStatus: signal == 0 ? (raw >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
        timedOut: timedOut, stdout: try output.contents(), stderr: try errors.contents(), peakMemoryKiB: peak,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      outcome = result
      return result
    }
  }

  /// Starts `program` with `argv` and this process's environment plus `environment`.
  static func spawn(
    _ program: String, _ argv: [String], actions: inout posix_spawn_file_actions_t, environment: [String] = []
  ) throws -> pid_t {
    var env: [String] = []
    var p = environ
    while let entry = p.pointee {
      env.append(String(cString: entry))
      p += 1
    }
    env += environment
    let cArgs = argv.map { strdup($0) } + [nil]
    let cEnv = env.map { strdup($0) } + [nil]
    defer {
      for arg in cArgs { free(arg) }
      for entry in cEnv { free(entry) }
    }
    var pid = pid_t()
    let rc = posix_spawn(&pid, program, &actions, nil, cArgs, cEnv)
    try #require(rc == 0, "cannot start \(program): \(String(cString: strerror(rc)))")
    return pid
  }
}

/// An unlinked temporary file (closed on exec): a child's stdin, stdout or stderr.
final class AnonymousFile {
  let fd: Int32

  /// Creates the file holding `bytes`, positioned at its start.
  init(_ bytes: [UInt8]) throws {
    var template = Array("/tmp/spatial-replay-io-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    try #require(fd >= 0, "mkstemp: \(String(cString: strerror(errno)))")
    // A file (not a pipe) leaking into a child started meanwhile by another test does no harm.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    self.fd = fd
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
      try #require(n > 0, "cannot write a temporary file")
      done += n
    }
    lseek(fd, 0, SEEK_SET)
  }

  deinit { close(fd) }

  /// Everything in the file.
  func contents() throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var offset: off_t = 0
    while true {
      let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
      if n < 0 && errno == EINTR { continue }
      try #require(n >= 0, "cannot read a temporary file")
      if n == 0 { return bytes }
      bytes += chunk[..<n]
      offset += off_t(n)
    }
  }
}

/// A pipe whose two ends are closed on `exec`, created atomically (`pipe2` with `O_CLOEXEC`).
func makeCloseOnExecPipe() throws -> (read: Int32, write: Int32) {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  let pipe2 = try #require(dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) })
  var fds: [Int32] = [-1, -1]
  try #require(pipe2(&fds, O_CLOEXEC) == 0, "pipe2: \(String(cString: strerror(errno)))")
  return (fds[0], fds[1])
}

/// A started `spatial-replay` with pipes to its stdin and stdout (both non-blocking
/// on this side) and stderr in a file: fed and read a little at a time, and
/// killed at any point.
final class PipedChild {
  let pid: pid_t
  private(set) var stdinFD: Int32
  private(set) var stdoutFD: Int32
  let errors: AnonymousFile
  private var exited: Int32?

  /// Starts the binary.
  /// - Parameter pipeSize: the capacity of the stdin pipe, if not the default (64 KiB): a larger
  ///   one lets the child read (and `append` write) larger batches.
  init(_ arguments: [String], pipeSize: Int32? = nil) throws {
    signal(SIGPIPE, SIG_IGN)
    let input = try makeCloseOnExecPipe()
    if let pipeSize {
      let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux)
      _ = fcntl(input.write, setPipeSize, pipeSize)
    }
    let output = try makeCloseOnExecPipe()
    errors = try AnonymousFile([])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input.read, 0)
    posix_spawn_file_actions_adddup2(&actions, output.write, 1)
    posix_spawn_file_actions_adddup2(&actions, errors.fd, 2)
    defer {
      close(input.read)
      close(output.write)
    }
    do {
      pid = try Subprocess.spawn(Binary.path, [Binary.path] + arguments, actions: &actions)
    } catch {
      close(input.write)
      close(output.read)
      throw error
    }
    stdinFD = input.write
    stdoutFD = output.read
    _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
    _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    closeStdin()
    if stdoutFD >= 0 { close(stdoutFD) }
    if exited == nil {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }

  /// Writes what the pipe takes now; returns how many bytes were taken (0 when full or closed).
  func offer(_ bytes: ArraySlice<UInt8>) -> Int {
    guard stdinFD >= 0, !bytes.isEmpty else { return 0 }
    let n = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress!, $0.count) }
    return max(n, 0)
  }

  func closeStdin() {
    if stdinFD >= 0 {
      close(stdinFD)
      stdinFD = -1
    }
  }

  /// Appends what stdout has now to `bytes`; returns false once stdout reached its end.
  @discardableResult
  func drain(into bytes: inout [UInt8]) -> Bool {
    guard stdoutFD >= 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress!, $0.count) }
      if n > 0 {
        bytes += chunk[..<n]
        continue
      }
      if n < 0 && (errno == EAGAIN || errno == EINTR) { return true }
      close(stdoutFD)
      stdoutFD = -1
      return false
    }
  }

  /// Reads stdout up to its end (blocking in short sleeps).
  func drainToEnd(into bytes: inout [UInt8]) {
    while drain(into: &bytes) { usleep(500) }
  }

  func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits for the end: the exit status, or 128 + the signal that ended it.
  func wait() -> Int32 {
    if let exited { return exited }
    let status = waitForExit(pid)
    exited = status
    return status
  }
}
