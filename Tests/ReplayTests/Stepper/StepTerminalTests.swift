import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `spatial-replay step` in a real pseudo-terminal: the keys a terminal
/// sends, the screen it draws, a resize, and the terminal given back as it
/// was after `q`, Ctrl-C and the signals that end a process.
@Suite struct StepTerminalTests {
  /// The legacy fixture journal in a file (144 lines of findings to show).
  static func journalFile() throws -> (TemporaryDirectory, String) {
    let directory = try TemporaryDirectory()
    return (directory, try directory.write("steps.ndjson", StepFixture.text(.legacy)))
  }

  static let leave = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
  static let enter = "\u{1B}[?1049h\u{1B}[?25l"

  @Test func keysMoveTheCursorAndQGivesTheTerminalBack() throws {
    let (directory, path) = try Self.journalFile()
    defer { _ = directory }
    let terminal = try PseudoTerminalProcess(arguments: ["step", path], width: 80, height: 24)
    let before = terminal.initialSettings
    try #require(terminal.waitFor("seq 0 / 63"), "first screen: \(terminal.text)")
    #expect(terminal.text.hasPrefix(Self.enter), "alternate screen and hidden cursor first")
    #expect(terminal.settings != before, "raw mode while stepping")
    terminal.send("l")
    #expect(terminal.waitFor("seq 1 / 63"))
    terminal.send("\u{1B}[C\u{1B}[C")  // → →
    #expect(terminal.waitFor("seq 3 / 63"))
    terminal.send("\u{1B}[6~")  // PgDn
    #expect(terminal.waitFor("seq 53 / 63"))
    terminal.send(":12\r")
    #expect(terminal.waitFor("seq 12 / 63"))
    terminal.send("]")
    // The check runs in the background: `f` needs its findings (on a busy machine they come after the move).
    #expect(terminal.waitFor("seq 15 / 63 · move 1 / 8 · findings 1 / 20"))
    terminal.send("f")  // the next finding, on #16 (only changed lines are written again)
    #expect(terminal.waitFor("seq 16 / 63 · move 1 / 8 · findings 2 / 20"))
    #expect(terminal.text.suffix(3000).contains("appear-before-load"))
    terminal.send("/compose\r")
    #expect(terminal.waitFor("alloc compose"))
    terminal.send("H")
    #expect(terminal.waitFor("keys (any key closes this help)"))
    terminal.send("q")  // closes the help
    #expect(terminal.waitFor("l/h step"))
    terminal.send("q")
    let status = terminal.waitForExit()
    #expect(status == 0, "\(terminal.text.suffix(300))")
    #expect(terminal.text.hasSuffix(Self.leave), "cursor shown and main screen last")
    #expect(terminal.settings == before, "the terminal's settings are as they were")
  }

  @Test func escapeCancelsAPrompt() throws {
    let (directory, path) = try Self.journalFile()
    defer { _ = directory }
    let terminal = try PseudoTerminalProcess(arguments: ["step", path], width: 80, height: 24)
    try #require(terminal.waitFor("seq 0 / 63"))
    terminal.send(":40")
    #expect(terminal.waitFor(":40█"))
    terminal.send("\u{1B}")
    #expect(terminal.waitFor("l/h step"), "the prompt is gone once no sequence follows the escape")
    terminal.send("l")
    #expect(terminal.waitFor("seq 1 / 63"), "not seq 40: the jump was cancelled")
    terminal.send("q")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func aResizeRedrawsAtTheNewSize() throws {
    let (directory, path) = try Self.journalFile()
    defer { _ = directory }
    let terminal = try PseudoTerminalProcess(arguments: ["step", path], width: 80, height: 24)
    try #require(terminal.waitFor("seq 0 / 63"))
    #expect(!terminal.text.contains("\u{1B}[40;1H"))
    terminal.resize(width: 120, height: 40)
    // The status line moves to row 40.
    #expect(terminal.waitFor("\u{1B}[40;1H\u{1B}[2K\u{1B}[7mseq 0 / 63"), "\(terminal.text.suffix(200))")
    terminal.resize(width: 50, height: 10)
    #expect(terminal.waitFor("\u{1B}[10;1H\u{1B}[2K\u{1B}[7mseq 0 / 63"))
    terminal.send("q")
    #expect(terminal.waitForExit() == 0)
  }

  struct Ending: CustomTestStringConvertible, Sendable {
    var name: String
    /// Bytes typed, or nil to send `signal` with kill(2).
    var keys: String?
    var signal: Int32
    /// Start the process with every signal blocked, as some launchers do.
    var blocked = false
    var testDescription: String { name }
  }

  @Test(arguments: [
    Ending(name: "Ctrl-C", keys: "\u{3}", signal: SIGINT),
    Ending(name: "Ctrl-C, started with signals blocked", keys: "\u{3}", signal: SIGINT, blocked: true),
    Ending(name: "SIGTERM", keys: nil, signal: SIGTERM),
    Ending(name: "SIGHUP", keys: nil, signal: SIGHUP),
    Ending(name: "a crash (SIGSEGV)", keys: nil, signal: SIGSEGV),
  ])
  func signalsGiveTheTerminalBack(_ ending: Ending) throws {
    // No core file from the crash.
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
    limit.rlim_cur = 0
    setrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
    let (directory, path) = try Self.journalFile()
    defer { _ = directory }
    let terminal = try PseudoTerminalProcess(
      arguments: ["step", path], width: 80, height: 24, blockingSignals: ending.blocked)
    let before = terminal.initialSettings
    try #require(terminal.waitFor("seq 0 / 63"))
    terminal.send("l")
    try #require(terminal.waitFor("seq 1 / 63"))
    if let keys = ending.keys {
      terminal.send(keys)
    } else {
      terminal.signal(ending.signal)
    }
    let status = terminal.waitForExit()
    #expect(status == 128 + ending.signal, "ended by the signal, with its default action")
    #expect(terminal.text.hasSuffix(Self.leave))
    #expect(terminal.settings == before)
  }

  @Test func twoJournalsSideBySide() throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write("a.ndjson", StepFixture.text(.intended))
    let b = try directory.write("b.ndjson", StepFixture.text(.legacy))
    let terminal = try PseudoTerminalProcess(arguments: ["step", a, b], width: 100, height: 30)
    try #require(terminal.waitFor("divergence 1 of 10 · A seq 6 / 68 · B seq 5 / 63"))
    terminal.send("d")
    #expect(terminal.waitFor("divergence 2 of 10"))
    terminal.send("q")
    #expect(terminal.waitForExit() == 0)
  }

  static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { access($0, X_OK) == 0 }

  /// The screen as a terminal emulator (tmux) shows it, and the screen after `q`.
  @Test(.enabled(if: tmux != nil, "tmux is not installed"))
  func theScreenInATerminalEmulator() throws {
    let (directory, path) = try Self.journalFile()
    let socket = "spatial-replay-step-\(getpid())"
    let tmux = try #require(Self.tmux)
    func run(_ arguments: [String]) throws -> String {
      try Shell.run([tmux, "-L", socket, "-f", "/dev/null"] + arguments)
    }
    defer { _ = try? run(["kill-server"]) }
    let done = directory.file("done")
    let command =
      "stty -a > \(directory.file("before")); \(Binary.path) step \(path); echo $? > \(directory.file("status")); "
      + "stty -a > \(directory.file("after")); touch \(done); sleep 60"
    _ = try run(["new-session", "-d", "-x", "80", "-y", "24", command])
    func screen() throws -> String { try run(["capture-pane", "-p"]) }
    func waitForScreen(_ text: String) throws -> Bool {
      for _ in 0..<400 {
        if try screen().contains(text) { return true }
        usleep(25_000)
      }
      return false
    }
    let ready = try waitForScreen("seq 0 / 63")
    let first = try screen()
    try #require(ready, "\(first)")
    _ = try run(["send-keys", "l", "l", "l", "]"])
    let moved = try waitForScreen("seq 15 / 63 · move 1 / 8 · findings 1 / 20")
    #expect(moved)
    let shown = try screen().split(separator: "\n", omittingEmptySubsequences: false)
    #expect(shown.count >= 24)
    #expect(shown.first?.hasPrefix(path) == true)
    #expect(shown.contains { $0.hasPrefix("▶!09:00:00.011 #15 home → inbox (left, pan, animated)") })
    #expect(shown.contains { $0.contains("╔═══════════╗") }, "the focus in its double frame")
    _ = try run(["send-keys", "q"])
    for _ in 0..<400 where access(done, F_OK) != 0 { usleep(25_000) }
    let status = try directory.text(directory.file("status"))
    #expect(status == "0\n")
    let before = try directory.text(directory.file("before"))
    let after = try directory.text(directory.file("after"))
    #expect(before == after)
    let last = try screen()
    #expect(!last.contains("seq 15 / 63"), "back on the main screen")
  }
}

/// The `spatial-replay` binary on a pseudo-terminal of its own, as its
/// controlling terminal (a new session), like a program started in a terminal
/// window: output read from the master side, keys written to it.
final class PseudoTerminalProcess {
  let master: Int32
  /// The parent's own descriptor of the terminal, to read its settings.
  let slave: Int32
  let pid: pid_t
  /// The terminal's settings before the process started.
  private(set) var initialSettings: [UInt8] = []
  private(set) var output: [UInt8] = []
  private var status: Int32?
  /// Where ``waitFor(_:)`` looks from: the output after the last key sent.
  private var mark = 0

  var text: String { String(decoding: output, as: UTF8.self) }

  /// Starts the binary with `arguments` on a terminal of `width` × `height`;
  /// with `blockingSignals`, every signal is blocked when it starts.
  init(arguments: [String], width: Int, height: Int, blockingSignals: Bool = false) throws {
    typealias IntFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
    let libc = dlopen(nil, RTLD_NOW)
    func function<T>(_ name: String, _ type: T.Type) throws -> T {
      unsafeBitCast(try #require(dlsym(libc, name), "no \(name) in libc"), to: type)
    }
    let openpt = try function("posix_openpt", IntFunction.self)
    let grantpt = try function("grantpt", IntFunction.self)
    let unlockpt = try function("unlockpt", IntFunction.self)
    let ptsname = try function("ptsname_r", NameFunction.self)
    master = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0, "no pseudo-terminal")
    var name = [CChar](repeating: 0, count: 256)
    try #require(ptsname(master, &name, name.count) == 0)
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(slave >= 0)
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var t = termios()
    tcgetattr(slave, &t)
    initialSettings = withUnsafeBytes(of: &t) { Array($0) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Opened after setsid (below), the terminal becomes the controlling one.
    posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Flags: POSIX_SPAWN_SETSID (0x80, glibc 2.26): the child starts a new
    // session; default actions for the signals the tests send; a fresh mask.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    if blockingSignals { sigfillset(&mask) } else { sigemptyset(&mask) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var environment: [String] = []
    var p = environ
    while let entry = p.pointee {
      let s = String(cString: entry)
      if !s.hasPrefix("TERM=") && !s.hasPrefix("NO_COLOR=") { environment.append(s) }
      p += 1
    }
    environment.append("TERM=xterm-256color")
    let argv = ([Binary.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for arg in argv { free(arg) }
      for entry in envp { free(entry) }
    }
    var pid = pid_t()
    let rc = posix_spawn(&pid, Binary.path, &actions, &attributes, argv, envp)
    try #require(rc == 0, "cannot start \(Binary.path): \(String(cString: strerror(rc)))")
    self.pid = pid
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      _ = waitForExit()
    }
    close(master)
    close(slave)
  }

  /// The terminal's settings, as `stty -a` shows them (the raw bytes of `termios`).
  var settings: [UInt8] {
    var t = termios()
    tcgetattr(slave, &t)
    return withUnsafeBytes(of: &t) { Array($0) }
  }

  func send(_ keys: String) {
    mark = output.count
    let bytes = Array(keys.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  func signal(_ signal: Int32) {
    mark = output.count
    kill(pid, signal)
  }

  func resize(width: Int, height: Int) {
    mark = output.count
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// Reads until the output since the last key contains `text` (false after 20 s, or if the process ended).
  func waitFor(_ text: String) -> Bool {
    let needle = Array(text.utf8)
    for _ in 0..<800 {
      if output[mark...].firstRange(of: needle) != nil { return true }
      if status != nil { return false }
      read(waitingMilliseconds: 25)
    }
    return false
  }

  /// Reads what is available within `milliseconds`.
  private func read(waitingMilliseconds milliseconds: Int32) {
    var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
    guard poll(&fds, 1, milliseconds) > 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let n = chunk.withUnsafeMutableBytes { systemRead(master, $0.baseAddress, $0.count) }
    if n > 0 { output += chunk[..<n] }
  }

  /// Waits for the process to end, reading all it wrote; its exit status, or 128 + the signal that ended it.
  func waitForExit() -> Int32 {
    if let status { return status }
    var raw: Int32 = 0
    for _ in 0..<800 {
      read(waitingMilliseconds: 25)
      if waitpid(pid, &raw, WNOHANG) == pid {
        read(waitingMilliseconds: 50)
        let signal = raw & 0x7F
        let result = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        status = result
        return result
      }
    }
    kill(pid, SIGKILL)
    waitpid(pid, &raw, 0)
    status = -1
    return -1
  }
}

/// Runs a command to its end; its standard output.
///
/// The output goes through a file, not a pipe: a daemon the command starts
/// (the tmux server) would keep a pipe open. The command starts with no
/// signal blocked, whatever the test thread blocks.
enum Shell {
  static func run(_ arguments: [String]) throws -> String {
    let directory = try TemporaryDirectory()
    let output = directory.file("stdout")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for arg in argv { free(arg) } }
    var pid = pid_t()
    let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    try #require(rc == 0, "cannot run \(arguments[0])")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return try directory.text(output)
  }
}
