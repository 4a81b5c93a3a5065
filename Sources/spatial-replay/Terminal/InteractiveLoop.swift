import Journal
import Stepper

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The terminal side of `step`: takes the terminal over, reads the journals
/// (saying so on the screen), then reads keys, asks the ``Stepper`` for the
/// next state and the screen, and writes what changed, until `q`; redraws on
/// a resize, after a suspension, and when the background check brings the
/// findings.
enum InteractiveLoop {
  /// Milliseconds a lone ESC waits for the rest of an escape sequence.
  static let escapeDelay: Int32 = 40

  /// Runs until `q` or the end of standard input; the terminal is restored on every way out.
  ///
  /// - Parameters:
  ///   - files: the journals, named on the screen while they are read.
  ///   - open: reads them; its argument is to be called when a background check is done.
  static func run(
    context: inout Context, reading files: [String],
    open: (_ whenChecked: @escaping @Sendable () -> Void) throws(CommandFailure) -> (Stepper, [PendingCheck])
  ) throws(CommandFailure) -> Int32 {
    let wake = try RawTerminal.enter()
    defer {
      context.stdout.flush()
      RawTerminal.leave()
    }
    let names = files.map { displayText(JournalInput.displayName($0), limit: 200) }.joined(separator: " and ")
    context.stdout.write("\u{1B}[H\u{1B}[2Jreading \(names)…")
    context.stdout.flush()
    var (stepper, checks) = try open { TerminalShared.wake(UInt8(ascii: "F")) }
    var size = RawTerminal.size()
    var writer = ScreenWriter()
    var decoder = KeyDecoder()
    var state = stepper.start()
    context.stdout.write(writer.frame(stepper.render(state, size: size)))
    context.stdout.flush()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
      let ready = poll(&fds, 2, decoder.isWaiting ? escapeDelay : -1)
      if ready < 0 {
        if errno == EINTR { continue }
        throw CommandFailure("cannot wait for keys: \(String(cString: strerror(errno)))")
      }
      if fds[1].revents & Int16(POLLIN) != 0 {
        var resized = false
        while true {
          let n = read(wake, &buffer, buffer.count)
          if n <= 0 { break }
          resized = resized || buffer[..<n].contains { $0 != UInt8(ascii: "F") }
        }
        if resized {
          size = RawTerminal.size()
          writer.invalidate()
        }
        if !stepper.isChecked, checks.allSatisfy({ $0.result != nil }) {
          stepper = stepper.withFindings(checks[0].result, b: checks.count > 1 ? checks[1].result : nil)
          checks = []
        }
      }
      if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        let n = read(0, &buffer, buffer.count)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if n <= 0 { return ExitCode.ok }
        decoder.feed(buffer[..<n])
      }
      for key in decoder.keys(flush: ready == 0) {
        state = stepper.handle(key, in: state)
        if state.quit { return ExitCode.ok }
      }
      context.stdout.write(writer.frame(stepper.render(state, size: size)))
      context.stdout.flush()
    }
  }
}
