import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#endif

/// The progress bar's text, and when it shows.
@Suite struct StatsProgressTests {
  @Test func aKnownTotalShowsABarThePercentageTheRateAndTheTimeLeft() {
    #expect(
      Progress.line(done: 250_000_000, total: 1_000_000_000, elapsed: 2)
        == "[######..................]  25%  125.0 MB/s  ETA 0:06")
    #expect(
      Progress.line(done: 1_000_000_000, total: 1_000_000_000, elapsed: 8)
        == "[########################] 100%  125.0 MB/s  ETA 0:00")
  }

  @Test func severalJournalsShowHowManyAreDone() {
    #expect(
      Progress.line(done: 250_000_000, total: 1_000_000_000, elapsed: 2, files: (250, 1000))
        == "[######..................]  25%  250/1000 files  125.0 MB/s  ETA 0:06")
    #expect(Progress.line(done: 950, total: nil, elapsed: 1, files: (1, 3)) == "950 B  1/3 files  950 B/s")
  }

  @Test func anUnknownTotalShowsBytesAndRate() {
    #expect(Progress.line(done: 1_234_567_890, total: nil, elapsed: 10) == "1.2 GB  123.5 MB/s")
    #expect(Progress.line(done: 950, total: nil, elapsed: 1) == "950 B  950 B/s")
  }

  @Test(arguments: [(4.0, "0:04"), (59.2, "1:00"), (750, "12:30"), (3723, "1:02:03")])
  func timeLeftIsAClock(_ seconds: Double, _ text: String) {
    #expect(Progress.clock(seconds) == text)
  }

  @Test func disabledOrQuickWorkDrawsNothing() {
    var out = FileOutput(fd: -1)
    var disabled = Progress(total: 100, enabled: false, delay: 0)
    for i in 0..<10_000 { disabled.update(Int64(i), &out) }
    #expect(!disabled.drawn)
    var quick = Progress(total: 100, enabled: true, delay: 3600)
    for i in 0..<10_000 { quick.update(Int64(i), &out) }
    #expect(!quick.drawn, "nothing before the delay has passed")
  }

  /// Past the delay the bar is drawn (`\r`, the bar, erase to the end of the line) and
  /// `finish` erases it; updated once per batch (`callsPerCheck: 1`), every call reads the clock.
  @Test func pastTheDelayTheBarIsDrawnAndErased() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("stderr")
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    var out = FileOutput(fd: fd)
    var perBatch = Progress(total: 1000, enabled: true, delay: 0, callsPerCheck: 1)
    perBatch.update(250, &out)
    #expect(perBatch.drawn)
    perBatch.finish(&out)
    #expect(!perBatch.drawn)
    out.flush()
    let text = try dir.text(path)
    #expect(text.hasPrefix("\r[######..................]  25%  "), "\(text.debugDescription)")
    #expect(text.hasSuffix("\u{1B}[K\r\u{1B}[K"), "\(text.debugDescription)")
    var perEvent = Progress(total: 1000, enabled: true, delay: 0)
    for i in 0..<4095 { perEvent.update(Int64(i), &out) }
    #expect(!perEvent.drawn, "the clock is read every 4096 calls by default")
    perEvent.update(4095, &out)
    #expect(perEvent.drawn)
  }

  @Test func theCommandsDrawNothingOnAPipe() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("j.ndjson", AnalyticsFixture.text)
    for arguments in [["stats", path], ["export", "--table", "events", path], ["check", path], ["cat", path]] {
      let result = try Binary.run(arguments)
      #expect(!result.stderr.contains("\u{1B}[K") && !result.stderr.contains("\r"), "\(arguments)")
    }
  }
}
