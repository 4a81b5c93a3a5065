import Journal
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `spatial-replay` executable, for end-to-end tests: runs it with
/// arguments and standard input and captures stdout, stderr and the exit status.
///
/// ```swift
/// let result = try Binary.run(["check", path])
/// #expect(result.status == 0)
/// #expect(result.stdout == "\(path): 15 events, 0 errors, 0 warnings\n")
/// ```
enum Binary {
  /// What one run produced.
  struct Result: CustomStringConvertible {
    /// The exit status, or 128 + the signal number if a signal ended the process.
    var status: Int32
    var stdoutBytes: [UInt8]
    var stderrBytes: [UInt8]
    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
  }

  /// The executable: beside the test bundle in the build directory, else
  /// `.build/debug/spatial-replay` above this source file.
  static let path: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 {
      let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let slash = exe.lastIndex(of: "/") {
        let candidate = String(exe[..<slash]) + "/spatial-replay"
        if access(candidate, X_OK) == 0 { return candidate }
      }
    }
    var directory = String(#filePath)
    while let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
      directory = String(directory[..<slash])
      let candidate = directory + "/.build/debug/spatial-replay"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return "spatial-replay"
  }()

  /// Runs the binary to completion.
  /// - Parameters:
  ///   - arguments: the command line after the program name.
  ///   - stdin: bytes written to its standard input, which is then closed.
  ///   - environment: variables set for it (added to this process's environment).
  static func run(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> Result {
    try runAll([(arguments, stdin)], environment: environment)[0]
  }

  /// Runs the binary with a string as standard input.
  static func run(_ arguments: [String], stdin: String) throws -> Result {
    try run(arguments, stdin: Array(stdin.utf8))
  }

  /// Runs several processes at the same time (feeding and draining them all
  /// in one loop) and waits for all of them.
  static func runAll(
    _ runs: [(arguments: [String], stdin: [UInt8])], environment: [String: String] = [:]
  ) throws -> [Result] {
    let processes = try runs.map { try RunningProcess(arguments: $0.arguments, environment: environment) }
    var pending = runs.map { $0.stdin[...] }
    var outputs = [[UInt8]](repeating: [], count: runs.count)
    var errors = [[UInt8]](repeating: [], count: runs.count)
    for (i, process) in processes.enumerated() where pending[i].isEmpty { process.closeStdin() }
    for process in processes { process.setStdinNonBlocking() }
    var open = Set(0..<runs.count)
    while !open.isEmpty {
      var fds: [pollfd] = []
      var owners: [(index: Int, stream: Int)] = []
      for i in open.sorted() {
        let p = processes[i]
        if p.stdinFD >= 0 {
          fds.append(pollfd(fd: p.stdinFD, events: Int16(POLLOUT), revents: 0))
          owners.append((i, 0))
        }
        if p.stdoutFD >= 0 {
          fds.append(pollfd(fd: p.stdoutFD, events: Int16(POLLIN), revents: 0))
          owners.append((i, 1))
        }
        if p.stderrFD >= 0 {
          fds.append(pollfd(fd: p.stderrFD, events: Int16(POLLIN), revents: 0))
          owners.append((i, 2))
        }
      }
      let ready = poll(&fds, nfds_t(fds.count), 60_000)
      if ready < 0 && errno == EINTR { continue }
      try #require(ready > 0, "processes produced nothing for 60 s")
      for (k, fd) in fds.enumerated() where fd.revents != 0 {
        let (i, stream) = owners[k]
        let p = processes[i]
        switch stream {
        case 0:
          let sent = pending[i].withUnsafeBytes { write(fd.fd, $0.baseAddress, $0.count) }
          if sent > 0 { pending[i] = pending[i].dropFirst(sent) }
          if sent < 0 && errno != EAGAIN && errno != EINTR { pending[i] = [] }
          if pending[i].isEmpty { p.closeStdin() }
        case 1:
          if !p.readAvailable(from: &p.stdoutFD, into: &outputs[i]) { continue }
        default:
          if !p.readAvailable(from: &p.stderrFD, into: &errors[i]) { continue }
        }
      }
      for i in open where processes[i].stdoutFD < 0 && processes[i].stderrFD < 0 { open.remove(i) }
    }
    return processes.enumerated().map { i, p in
      p.closeStdin()
      return Result(status: p.wait(), stdoutBytes: outputs[i], stderrBytes: errors[i])
    }
  }
}

/// A running `spatial-replay` process with pipes to its standard streams.
final class RunningProcess {
  let pid: pid_t
  /// Write end of its stdin (-1 once closed).
  fileprivate(set) var stdinFD: Int32
  /// Read ends of its stdout and stderr (-1 once at their end).
  fileprivate(set) var stdoutFD: Int32
  fileprivate(set) var stderrFD: Int32
  private var lineBuffer: [UInt8] = []
  private var status: Int32?

  /// Starts the binary with `arguments`, in this process's environment with `environment` added.
  init(arguments: [String], environment: [String: String] = [:]) throws {
    signal(SIGPIPE, SIG_IGN)
    let input = try makePipe()
    let output = try makePipe()
    let errorOutput = try makePipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorOutput[1], 2)
    let argv = ([Binary.path] + arguments).map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var inherited: [UnsafeMutablePointer<CChar>?] = []
    var k = 0
    while let variable = environ[k] {
      let name = String(cString: variable).prefix { $0 != "=" }
      if environment[String(name)] == nil { inherited.append(strdup(variable)) }
      k += 1
    }
    let envp = inherited + environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for variable in envp { free(variable) } }
    var pid = pid_t()
    let rc = posix_spawn(&pid, Binary.path, &actions, nil, argv, envp)
    close(input[0])
    close(output[1])
    close(errorOutput[1])
    guard rc == 0 else {
      close(input[1])
      close(output[0])
      close(errorOutput[0])
      Issue.record("cannot start \(Binary.path): \(String(cString: strerror(rc)))")
      throw CancellationError()
    }
    self.pid = pid
    self.stdinFD = input[1]
    self.stdoutFD = output[0]
    self.stderrFD = errorOutput[0]
  }

  deinit {
    closeStdin()
    if stdoutFD >= 0 { close(stdoutFD) }
    if stderrFD >= 0 { close(stderrFD) }
    if status == nil {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }

  fileprivate func setStdinNonBlocking() {
    if stdinFD >= 0 { _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK) }
  }

  /// Writes all of `bytes` to its stdin (blocking); returns false if the process closed it.
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { systemWrite(stdinFD, $0.baseAddress! + done, $0.count - done) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      done += n
    }
    return true
  }

  func closeStdin() {
    if stdinFD >= 0 {
      close(stdinFD)
      stdinFD = -1
    }
  }

  /// The next complete line of its stdout (without `\n`), blocking; `nil` at the end.
  func readLine() -> String? {
    while true {
      if let newline = lineBuffer.firstIndex(of: 0x0A) {
        let line = String(decoding: lineBuffer[..<newline], as: UTF8.self)
        lineBuffer.removeSubrange(...newline)
        return line
      }
      guard readAvailable(from: &stdoutFD, into: &lineBuffer) || stdoutFD >= 0 else { return nil }
      if stdoutFD < 0 { return nil }
    }
  }

  /// Every remaining complete line of its stdout, up to its end (a final line without `\n` is dropped).
  func remainingLines() -> [String] {
    var lines: [String] = []
    while let line = readLine() { lines.append(line) }
    return lines
  }

  /// Everything left on its stderr, up to its end.
  func remainingStderr() -> String {
    var bytes: [UInt8] = []
    while stderrFD >= 0 { _ = readAvailable(from: &stderrFD, into: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads once from `fd` into `bytes`; at the end closes it and sets it to -1.
  /// - Returns: whether anything was read.
  fileprivate func readAvailable(from fd: inout Int32, into bytes: inout [UInt8]) -> Bool {
    guard fd >= 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 && (errno == EINTR || errno == EAGAIN) { return false }
    if n <= 0 {
      close(fd)
      fd = -1
      return false
    }
    bytes += chunk[..<n]
    return true
  }

  /// Sends a signal (e.g. `SIGKILL`).
  func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits for the process to end; its exit status, or 128 + the signal that ended it.
  func wait() -> Int32 {
    if let status { return status }
    let result = waitForExit(pid)
    status = result
    return result
  }
}

/// Waits for a child to end: its exit status, or 128 + the signal that ended it (as a shell reports it).
func waitForExit(_ pid: pid_t) -> Int32 {
  var raw: Int32 = 0
  while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
  let signal = raw & 0x7F
  return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
}

/// A pipe whose two ends are closed on `exec`, created atomically (`pipe2` with
/// `O_CLOEXEC`), so that processes other tests start at the same time never
/// inherit them (an inherited write end would keep a reader from seeing the end).
private func makePipe() throws -> [Int32] {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  let pipe2 = try #require(dlsym(dlopen(nil, RTLD_NOW), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) })
  var fds: [Int32] = [-1, -1]
  try #require(pipe2(&fds, O_CLOEXEC) == 0, "pipe2: \(String(cString: strerror(errno)))")
  return fds
}

/// Journal lines for end-to-end tests, written by the library's encoder.
enum JournalText {
  static func time(_ milliseconds: Int64) -> Timestamp { Timestamp.modelEpoch.adding(milliseconds: milliseconds) }

  static func header(seq: Int = 0) -> String {
    Record(seq: seq, time: time(0), event: .session(SessionHeader(session: "3F2A9C1E", app: "Dicto"))).ndjson
  }

  static func alloc(_ seq: Int, _ id: String, extra: [Field] = []) -> String {
    Record(
      seq: seq, time: time(Int64(seq)), event: .alloc(controller: ControllerID(id), className: "HomeViewController"),
      extra: extra
    ).ndjson
  }

  static func lifecycle(_ seq: Int, _ id: String, _ callback: Callback) -> String {
    Record(seq: seq, time: time(Int64(seq)), event: .lifecycle(controller: ControllerID(id), callback: callback)).ndjson
  }

  static func mark(_ seq: Int, _ label: String) -> String {
    Record(seq: seq, time: time(Int64(seq)), event: .mark(label: label, fields: [])).ndjson
  }

  /// Each line followed by `\n`.
  static func lines(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
}
