import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer on a file descriptor (stdout or stderr).
///
/// Implementation note: commands such as `cat` and `export` write millions of
/// lines; buffering 64 KiB before each `write(2)` keeps them I/O-bound.
struct FileOutput: TextOutputStream {
  /// The descriptor written to; for a spool, its temporary file (-1 until the first flush).
  private(set) var fd: Int32
  /// A spool (``spool()``): output kept for later, flushed to an unnamed temporary file.
  private(set) var isSpool = false
  /// Bytes written and not yet flushed.
  private(set) var buffer: [UInt8] = []
  private let capacity: Int
  /// Set when a write failed (e.g. a full disk); further output is dropped.
  private(set) var failed = false
  /// The `errno` of the failed write.
  private(set) var failure: Int32 = 0
  /// Why the write failed, e.g. `No space left on device`.
  var failureText: String { String(cString: strerror(failure)) }
  /// Data (NDJSON, CSV, JSON) bound for a terminal: every control, bidi and
  /// zero-width character is written as a JSON escape (``escapeForTerminal(_:into:)``).
  var escapesForTerminal = false

  /// - Parameter isSpool: output kept for later (``spool()``), `fd` then being -1.
  init(fd: Int32, capacity: Int = 1 << 16, isSpool: Bool = false) {
    self.fd = fd
    self.isSpool = isSpool
    self.capacity = capacity
    buffer.reserveCapacity(capacity)
  }

  mutating func write(_ string: String) {
    // A native string's bytes are copied at once; appending its UTF-8 view went byte by byte.
    if string.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
      buffer.append(contentsOf: string.utf8)
    }
    if buffer.count >= capacity { flush() }
  }

  mutating func write(bytes: some Collection<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !failed else { return }
    if isSpool && fd < 0 {
      fd = Self.temporaryFile()
      guard fd >= 0 else {
        failed = true
        failure = errno
        return
      }
    }
    if escapesForTerminal {
      var safe: [UInt8] = []
      safe.reserveCapacity(buffer.count + 64)
      escapeForTerminal(buffer, into: &safe)
      swap(&safe, &buffer)
    }
    let error = buffer.withUnsafeBytes { writeAll(fd, $0) }
    if error != 0 {
      failed = true
      failure = error
    }
  }
}

/// Everything a command may touch outside its arguments: the two output
/// streams, stdin, whether they are terminals, and the environment.
struct Context {
  var stdout = FileOutput(fd: 1)
  var stderr = FileOutput(fd: 2, capacity: 1 << 12)
  /// Standard input is a terminal.
  var stdinIsTerminal: Bool
  var stdoutIsTerminal: Bool
  var stderrIsTerminal: Bool
  var environment: [String: String]

  init() {
    stdinIsTerminal = isatty(0) == 1
    stdoutIsTerminal = isatty(1) == 1
    stderrIsTerminal = isatty(2) == 1
    var env: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
      let s = String(cString: entry)
      if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
      p += 1
    }
    environment = env
  }

  /// `--color`: `auto` unless the command line says otherwise.
  var color = ColorChoice.auto

  /// Colour with `--color always`; never with `--color never`; otherwise only on
  /// a terminal, never with `NO_COLOR` set to a non-empty value (no-color.org) or `TERM=dumb`.
  var useColor: Bool {
    switch color {
    case .always: true
    case .never: false
    case .auto: stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }

  /// Progress only when stderr is a terminal (never on a pipe).
  var showProgress: Bool {
    stderrIsTerminal && environment["TERM"] != "dumb"
  }

  /// Prints `spatial-replay: error: message` on stderr.
  mutating func error(_ message: String) {
    stderr.write("spatial-replay: error: \(message)\n")
  }

  /// Prints `spatial-replay: warning: message` on stderr.
  mutating func warning(_ message: String) {
    stderr.write("spatial-replay: warning: \(message)\n")
  }

  mutating func flush() {
    stdout.flush()
    stderr.flush()
  }

  /// The context of work done on another thread for this one (``FleetRunner``): the
  /// same terminals, colour and environment, stdout and stderr spooled, no progress bar.
  func worker() -> Context {
    var context = self
    context.stdout = .spool()
    context.stderr = .spool()
    context.stderrIsTerminal = false
    return context
  }
}

extension Context {
  /// `$TMPDIR`, else `/tmp`.
  static var temporaryDirectory: String {
    guard let dir = getenv("TMPDIR").map({ String(cString: $0) }), !dir.isEmpty else { return "/tmp" }
    return dir
  }
}

/// The text of the current `errno`, e.g. `No such file or directory`.
func errorText() -> String {
  String(cString: strerror(errno))
}
