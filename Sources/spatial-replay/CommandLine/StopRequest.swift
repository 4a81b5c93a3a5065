import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM as a request to stop, for the commands that run until stopped
/// (`tail --follow`, `shrink`): they stop at their next check and still write what they have.
///
/// ```swift
/// StopRequest.catchSignals()
/// defer { StopRequest.restoreSignals() }
/// while !StopRequest.isRequested { ... }
/// ```
enum StopRequest {
  /// Set by the handlers; a process runs one command, so one flag serves every command.
  private static let requested = Atomic<Bool>(false)

  /// Whether a signal asked to stop since ``catchSignals()``.
  static var isRequested: Bool { requested.load(ordering: .relaxed) }

  /// Clears the request and catches both signals, unblocking them: a parent may have blocked
  /// them (the mask is inherited), and they must reach the handler.
  static func catchSignals() {
    requested.store(false, ordering: .relaxed)
    signal(SIGINT) { _ in StopRequest.requested.store(true, ordering: .relaxed) }
    signal(SIGTERM) { _ in StopRequest.requested.store(true, ordering: .relaxed) }
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    sigprocmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Puts both signals back to their default action.
  static func restoreSignals() {
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
