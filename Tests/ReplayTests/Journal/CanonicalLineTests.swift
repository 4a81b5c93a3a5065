import Foundation
import Testing

@testable import Journal
@testable import Projection
@testable import TestSupport

/// The one-pass reader of the writer's form (``CanonicalLine``) and the general
/// parser agree: whatever the one-pass reader accepts, the general parser
/// accepts as the same record; it reads the lines writers write, and gives up
/// on anything else (which the general parser then reads or refuses, with its
/// own error).
@Suite struct CanonicalLineTests {
  /// What each reader makes of one line: the one-pass reader's record (nil: it gave up) and the
  /// general parser's record or error.
  private struct Readings {
    var fast: Record?
    var general: Result<Record, DecodeError>
    var decoded: Result<Record, DecodeError>
  }

  private static func read(_ line: [UInt8], ids: IDCache? = nil, limits: DecodeLimits = DecodeLimits()) -> Readings {
    line.withUnsafeBytes { buffer in
      var minutes = (CanonicalMinute(), CanonicalMinute(), CanonicalMinute())
      let fast = CanonicalLine.record(buffer, limits: limits, minute: &minutes.0, ids: ids)
      let general = Result { () throws(DecodeError) -> Record in
        try RecordParser.general(buffer, limits: limits, minute: &minutes.1, ids: ids)
      }
      let decoded = Result { () throws(DecodeError) -> Record in
        try RecordDecoder.decode(buffer, limits: limits, minute: &minutes.2, ids: ids)
      }
      return Readings(fast: fast, general: general, decoded: decoded)
    }
  }

  /// Checks the agreement on one line; returns whether the one-pass reader read it.
  @discardableResult
  private static func agree(_ line: [UInt8], ids: IDCache? = nil, limits: DecodeLimits = DecodeLimits()) -> Bool {
    let readings = read(line, ids: ids, limits: limits)
    let text = String(decoding: line, as: UTF8.self)
    if let fast = readings.fast {
      #expect(readings.general == .success(fast), "the general parser reads \(text) otherwise")
    }
    // The decoder every reader calls gives the general parser's answer, record or error.
    #expect(readings.decoded == readings.general, "RecordDecoder and the general parser differ on \(text)")
    return readings.fast != nil
  }

  private static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map(Array.init)
  }

  private static func simulated(_ shape: Simulation.Shape, events: Int) -> [[UInt8]] {
    var bytes: [UInt8] = []
    Simulator.run(Simulation(events: events, seed: 11, shape: shape)) { bytes += $0 }
    return lines(bytes)
  }

  @Test func everyBundledJournalLineReadsTheSame() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Repository.journals).filter {
      $0.hasSuffix(".ndjson")
    }
    #expect(names.count >= 8)
    for name in names {
      let lines = Self.lines(Array(try Data(contentsOf: URL(fileURLWithPath: Repository.journals + "/" + name))))
      var read = 0
      for line in lines where Self.agree(line, ids: IDCache()) { read += 1 }
      // Every line but the header and marks is in the writer's form.
      let others = lines.filter { line in
        let text = String(decoding: line, as: UTF8.self)
        return text.contains(#""type":"session""#) || text.contains(#""type":"mark""#)
      }
      #expect(read == lines.count - others.count, "\(name): \(read) of \(lines.count) lines read in one pass")
    }
  }

  @Test(arguments: [Simulation.Shape.simple, .churn])
  func simulatedLinesOfBothShapesReadTheSame(_ shape: Simulation.Shape) {
    let lines = Self.simulated(shape, events: 20_000)
    let ids = IDCache()
    var read = 0
    for line in lines where Self.agree(line, ids: ids) { read += 1 }
    #expect(read > lines.count * 9 / 10, "\(read) of \(lines.count) lines read in one pass")
  }

  /// Every line of each type, changed at every byte: deleted, or replaced by bytes that matter to
  /// JSON (quotes, escapes, whitespace, digits, signs, separators, a control, non-ASCII and invalid
  /// UTF-8), and cut short at every length.
  @Test func mutatedLinesReadTheSameOrAreLeftToTheGeneralParser() {
    var samples: [String: [UInt8]] = [:]
    for line in Self.simulated(.simple, events: 3000) + Self.simulated(.churn, events: 3000) {
      let text = String(decoding: line, as: UTF8.self)
      guard let range = text.range(of: #""type":""#) else { continue }
      let type = text[range.upperBound...].prefix { $0 != "\"" }
      if samples[String(type)] == nil { samples[String(type)] = line }
    }
    #expect(samples.keys.count >= 10, "types sampled: \(samples.keys.sorted())")
    let replacements: [UInt8] = [
      0x20, 0x09, 0x22, 0x5C, 0x30, 0x31, 0x39, 0x2D, 0x2B, 0x2E, 0x65, 0x45, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B,
      0x00, 0x01, 0x1F, 0x7F, 0x41, 0x7A, 0xC3, 0xA9, 0xFF,
    ]
    for (_, line) in samples.sorted(by: { $0.key < $1.key }) {
      for k in line.indices {
        var deleted = line
        deleted.remove(at: k)
        Self.agree(deleted)
        Self.agree(Array(line[..<k]))
        for byte in replacements where byte != line[k] {
          var changed = line
          changed[k] = byte
          Self.agree(changed)
        }
        var inserted = line
        inserted.insert(0x20, at: k)
        Self.agree(inserted)
      }
      Self.agree(line + [0x20])
      Self.agree([0xEF, 0xBB, 0xBF] + line)
      // The limits are the general parser's: a line too long, or no depth allowed, is not read in one pass.
      #expect(!Self.agree(line, limits: DecodeLimits(maxLineLength: line.count - 1)))
      #expect(!Self.agree(line, limits: DecodeLimits(maxDepth: 0)))
      #expect(Self.agree(line, limits: DecodeLimits(maxLineLength: line.count)) == Self.agree(line))
    }
  }

  @Test func valuesAtTheirEdgesReadTheSame() {
    let time = "2026-03-01T23:59:59.999999Z"
    let lines = [
      #"{"seq":0,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":123456789012345678,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":1234567890123456789,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":9223372036854775808,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":01,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":-1,"time":"\#(time)","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-02-30T00:00:00.000000Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-01-01T00:00:00.000Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"\#(time)","type":"root","controller":""}"#,
      #"{"seq":1,"time":"\#(time)","type":"root","controller":"\#(String(repeating: "x", count: 256))"}"#,
      #"{"seq":1,"time":"\#(time)","type":"root","controller":"\#(String(repeating: "x", count: 257))"}"#,
      #"{"seq":1,"time":"\#(time)","type":"root","controller":"a","controller":"b"}"#,
      #"{"seq":1,"time":"\#(time)","type":"root","controller":"a","x":1}"#,
      #"{"seq":1,"time":"\#(time)","type":"root"}"#,
      #"{"seq":1,"time":"\#(time)","type":"touches","controller":"a","direction":"up","min":0}"#,
      #"{"seq":1,"time":"\#(time)","type":"touches","controller":"a","direction":"up","min":1}"#,
      #"{"seq":1,"time":"\#(time)","type":"move","from":"a","to":"b","direction":"up","trigger":"pan","animated":true}"#,
      #"{"seq":1,"time":"\#(time)","type":"move","from":"a","to":"b","direction":"up","trigger":"pan","animated":tru}"#,
      #"{"seq":1,"time":"\#(time)","type":"move","from":"a","to":"b","direction":"up","trigger":"pan","animated":false}"#,
      #"{"seq":1,"time":"\#(time)","type":"move","from":"a","to":"b","direction":"sideways","trigger":"pan","animated":false}"#,
    ]
    var numbers = ["0", "-0", "1", "0.5", "-12.25", "1e3", "1E-3", "2.5e+2", "1e400", "-1e400", "01", "1.", ".5"]
    numbers += ["12345678901234567890.5", "0.1234567890123456789012345", "1e-400", "00", "-", "1e", "0x1"]
    let pans = numbers.map { number in
      #"{"seq":1,"time":"\#(time)","type":"pan","controller":"a","direction":"left","touches":2,"#
        + #""distance":\#(number),"velocity":640,"outcome":"committed"}"#
    }
    var read = 0
    for line in lines + pans where Self.agree(Array(line.utf8), ids: IDCache()) { read += 1 }
    #expect(read >= 12)
  }
}
