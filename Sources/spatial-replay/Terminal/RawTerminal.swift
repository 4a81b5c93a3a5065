#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The terminal of an interactive command, taken over and always given back.
///
/// ``enter()`` saves the terminal's settings, switches it to raw input (no
/// echo, no line editing; Ctrl-C still sends SIGINT), to the alternate screen,
/// and hides the cursor. ``leave()`` undoes all of it. So that the terminal is
/// restored however the process ends, the same restore also runs:
/// - from `atexit`, for any `exit()`;
/// - from the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT, and of the
///   crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE), which
///   then re-raise the signal with its default action (the exit status shows it);
/// - around a suspension: SIGTSTP (Ctrl-Z) restores, stops, and on `fg` takes
///   the terminal over again and asks for a redraw.
///
/// SIGWINCH and the return from a suspension write one byte (`W`, `C`) to a
/// pipe whose read end ``enter()`` returns; the caller polls it beside
/// standard input.
///
/// ```swift
/// let wake = try RawTerminal.enter()
/// defer { RawTerminal.leave() }
/// ```
///
/// Implementation note: the handlers only call async-signal-safe functions
/// (`tcsetattr`, `write`, `signal`, `sigprocmask`, `raise`) and only read
/// memory prepared before they were installed, through a pointer held in a
/// constant, so no Swift runtime call (allocation, exclusivity check, lazy
/// global initialisation) can happen inside a handler.
enum RawTerminal {
  /// Takes over the terminal on standard input and output.
  ///
  /// - Returns: the read end of the wake-up pipe: readable after a resize or a resume.
  /// - Throws: ``CommandFailure`` when standard input is not a terminal or its settings cannot be changed.
  static func enter() throws(CommandFailure) -> Int32 {
    let shared = TerminalShared.pointer
    guard tcgetattr(0, &shared.pointee.saved) == 0 else {
      throw CommandFailure("cannot read the terminal's settings: \(String(cString: strerror(errno)))")
    }
    var raw = shared.pointee.saved
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR | BRKINT | INPCK | ISTRIP)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    shared.pointee.raw = raw
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw CommandFailure("cannot create a pipe: \(String(cString: strerror(errno)))") }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    shared.pointee.wakeRead = fds[0]
    shared.pointee.wakeWrite = fds[1]
    TerminalShared.installHandlers()
    TerminalShared.takeOver()
    guard shared.pointee.active == 1 else {
      let message = String(cString: strerror(errno))
      leave()
      throw CommandFailure("cannot switch the terminal to raw mode: \(message)")
    }
    return fds[0]
  }

  /// Gives the terminal back: settings, main screen, cursor; removes the handlers.
  static func leave() {
    TerminalShared.restore()
    TerminalShared.removeHandlers()
    let shared = TerminalShared.pointer
    if shared.pointee.wakeRead >= 0 { close(shared.pointee.wakeRead) }
    if shared.pointee.wakeWrite >= 0 { close(shared.pointee.wakeWrite) }
    shared.pointee.wakeRead = -1
    shared.pointee.wakeWrite = -1
  }

  /// The window's size (80×24 when the terminal does not say).
  static func size() -> (width: Int, height: Int) {
    guard let size = window(), size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The window's width in columns as standard output's terminal reports it (nil when it does not).
  static func columns() -> Int? {
    window().map { Int($0.ws_col) }
  }

  /// The window's size as standard output's terminal reports it (nil when it does not).
  private static func window() -> winsize? {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    return size
  }

  /// The bytes that take the terminal over: alternate screen, cursor hidden, screen cleared.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
  /// The bytes that give it back: attributes reset, cursor shown, main screen.
  static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
}

/// What the signal handlers need, in memory allocated once and never freed.
struct TerminalShared {
  var saved = termios()
  var raw = termios()
  /// 1 while the terminal is taken over.
  var active: Int32 = 0
  /// 1 while the handlers are installed.
  var installed: Int32 = 0
  var wakeRead: Int32 = -1
  var wakeWrite: Int32 = -1
  var enter: UnsafeMutablePointer<UInt8>
  var enterCount: Int
  var leave: UnsafeMutablePointer<UInt8>
  var leaveCount: Int

  nonisolated(unsafe) static let pointer: UnsafeMutablePointer<TerminalShared> = {
    func bytes(_ s: String) -> (UnsafeMutablePointer<UInt8>, Int) {
      let utf8 = Array(s.utf8)
      let p = UnsafeMutablePointer<UInt8>.allocate(capacity: utf8.count)
      p.initialize(from: utf8, count: utf8.count)
      return (p, utf8.count)
    }
    let (enter, enterCount) = bytes(RawTerminal.enterSequence)
    let (leave, leaveCount) = bytes(RawTerminal.leaveSequence)
    let p = UnsafeMutablePointer<TerminalShared>.allocate(capacity: 1)
    p.initialize(to: TerminalShared(enter: enter, enterCount: enterCount, leave: leave, leaveCount: leaveCount))
    atexit { TerminalShared.restore() }
    return p
  }()

  /// Signals after which the process ends: restore, then the default action.
  static let endingSignals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE,
  ]

  /// Raw mode, alternate screen, hidden cursor. Async-signal-safe.
  static func takeOver() {
    let shared = pointer
    if tcsetattr(0, TCSADRAIN, &shared.pointee.raw) == 0 {
      shared.pointee.active = 1
      writeAll(shared.pointee.enter, shared.pointee.enterCount)
    }
  }

  /// The saved settings, main screen, visible cursor, if taken over. Async-signal-safe.
  static func restore() {
    let shared = pointer
    guard shared.pointee.active == 1 else { return }
    shared.pointee.active = 0
    writeAll(shared.pointee.leave, shared.pointee.leaveCount)
    _ = tcsetattr(0, TCSADRAIN, &shared.pointee.saved)
  }

  static func writeAll(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) {
    var done = 0
    while done < count {
      let n = write(1, bytes + done, count - done)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      done += n
    }
  }

  static func wake(_ byte: UInt8) {
    var byte = byte
    _ = write(pointer.pointee.wakeWrite, &byte, 1)
  }

  static func installHandlers() {
    pointer.pointee.installed = 1
    for signal in endingSignals { systemSignal(signal, endingHandler) }
    systemSignal(SIGTSTP, suspendHandler)
    systemSignal(SIGWINCH, resizeHandler)
    // A process may start with signals blocked (inherited from whatever
    // started it); these must get through, or Ctrl-C would do nothing.
    for signal in endingSignals + [SIGTSTP, SIGWINCH] { unblock(signal) }
  }

  static func removeHandlers() {
    guard pointer.pointee.installed == 1 else { return }
    pointer.pointee.installed = 0
    for signal in endingSignals + [SIGTSTP, SIGWINCH] { systemSignal(signal, SIG_DFL) }
  }
}

/// Restores the terminal, then lets the signal do what it does by default.
private func endingHandler(_ signal: Int32) {
  TerminalShared.restore()
  systemSignal(signal, SIG_DFL)
  unblock(signal)
  _ = raise(signal)
}

/// Ctrl-Z: restore, stop; once continued, take the terminal over again and ask for a redraw.
private func suspendHandler(_ signal: Int32) {
  TerminalShared.restore()
  systemSignal(SIGTSTP, SIG_DFL)
  unblock(SIGTSTP)
  _ = raise(SIGTSTP)
  // Continued (fg).
  systemSignal(SIGTSTP, suspendHandler)
  TerminalShared.takeOver()
  TerminalShared.wake(UInt8(ascii: "C"))
}

private func resizeHandler(_ signal: Int32) {
  TerminalShared.wake(UInt8(ascii: "W"))
}

func unblock(_ signal: Int32) {
  var set = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, signal)
  _ = sigprocmask(SIG_UNBLOCK, &set, nil)
}
