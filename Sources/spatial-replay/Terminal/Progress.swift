/// A progress bar on stderr for long work over files: a bar, the percentage,
/// the rate and the time left, redrawn in place at most 10 times a second.
///
/// It shows only when stderr is a terminal and `TERM` is not `dumb`
/// (``Context/showProgress``), and only once the work has taken more than a
/// second: never on a pipe, never for quick work. ``finish(_:)`` erases it.
///
/// ```swift
/// var progress = Progress(total: totalBytes, enabled: context.showProgress)
/// while let item = reader.next() {
///   progress.update(done + reader.bytesRead, &context.stderr)
/// }
/// progress.finish(&context.stderr)
/// ```
///
/// Implementation note: ``update(_:_:)`` may be called once per event; it
/// reads the clock only every `callsPerCheck` calls (4096 by default), so it
/// costs a counter increment. A caller that updates once per batch of events
/// passes 1.
struct Progress {
  /// Units of work to do (bytes), nil when unknown (standard input).
  let total: Int64?
  let enabled: Bool
  /// Seconds of work before the bar appears.
  let delay: Double
  private let start = ContinuousClock.now
  private var lastDraw: ContinuousClock.Instant?
  private var calls = 0
  /// `callsPerCheck - 1`: the clock is read when `calls & mask == 0`.
  private let mask: Int
  private(set) var drawn = false
  /// Journals done and in all, shown beside the bytes when there are several (``FleetRunner``).
  var files: (done: Int, total: Int)?

  /// - Parameter callsPerCheck: calls of ``update(_:_:)`` per reading of the clock, a power of two.
  init(total: Int64?, enabled: Bool, delay: Double = 1, callsPerCheck: Int = 4096) {
    precondition(callsPerCheck > 0 && callsPerCheck & (callsPerCheck - 1) == 0, "a power of two")
    self.total = total
    self.enabled = enabled
    self.delay = delay
    self.mask = callsPerCheck - 1
  }

  /// Notes that `done` units are done; redraws when it is time.
  @inline(__always)
  mutating func update(_ done: Int64, _ stderr: inout FileOutput) {
    guard enabled else { return }
    calls &+= 1
    guard calls & mask == 0 else { return }
    redraw(done, &stderr)
  }

  @inline(never)
  private mutating func redraw(_ done: Int64, _ stderr: inout FileOutput) {
    let now = ContinuousClock.now
    let elapsed = Self.seconds(now - start)
    guard elapsed > delay else { return }
    if let lastDraw, Self.seconds(now - lastDraw) < 0.1 { return }
    lastDraw = now
    drawn = true
    let files = self.files.flatMap { $0.total > 1 ? $0 : nil }
    stderr.write("\r" + Self.line(done: done, total: total, elapsed: elapsed, files: files) + "\u{1B}[K")
    stderr.flush()
  }

  /// Erases the bar, if it was drawn.
  mutating func finish(_ stderr: inout FileOutput) {
    guard drawn else { return }
    stderr.write("\r\u{1B}[K")
    stderr.flush()
    drawn = false
  }

  /// The bar's text: `[#########...............]  37%  412.5 MB/s  ETA 0:04`,
  /// or `1.2 GB  412.5 MB/s` when the total is unknown; with `files`, the journals
  /// done after the percentage: `[###.....]  12%  120/1000 files  412.5 MB/s  ETA 0:31`.
  static func line(done: Int64, total: Int64?, elapsed: Double, files: (done: Int, total: Int)? = nil) -> String {
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let count = files.map { "  \($0.done)/\($0.total) files" } ?? ""
    guard let total, total > 0 else { return "\(bytes(Double(done)))\(count)  \(bytes(rate))/s" }
    let fraction = min(1, max(0, Double(done) / Double(total)))
    let width = 24
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let percent = Int(fraction * 100)
    let padded = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
    var text = "[\(bar)] \(padded)\(count)  \(bytes(rate))/s"
    if rate > 0 { text += "  ETA " + clock(Double(max(0, total - done)) / rate) }
    return text
  }

  /// `950 B`, `12.3 KB`, `412.5 MB`, `1.2 GB` (powers of 1000).
  static func bytes(_ value: Double) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var v = value
    var unit = 0
    while v >= 1000 && unit < units.count - 1 {
      v /= 1000
      unit += 1
    }
    if unit == 0 { return "\(Int(v)) B" }
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }

  /// `0:04`, `12:30`, `1:02:03`.
  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.up))
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    if s >= 3600 { return "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" }
    return "\(s / 60):\(two(s % 60))"
  }

  private static func seconds(_ duration: Duration) -> Double {
    let c = duration.components
    return Double(c.seconds) + Double(c.attoseconds) / 1e18
  }
}
