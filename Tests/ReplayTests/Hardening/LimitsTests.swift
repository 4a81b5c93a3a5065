import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Inputs at the limits: a 100 MB line, 10,000-deep nesting, a chain of many
/// controllers, a 10 GB sparse file. Each gets a clear finding or works, in
/// bounded memory (the child's peak resident size) and without a crash.
///
/// The inputs are generated in a temporary directory and deleted afterwards.
/// The controller chain has 50,000 controllers in CI;
/// `SPATIAL_REPLAY_LIMITS_CONTROLLERS=1000000` runs the full size (see docs/hardening.md).
@Suite(.serialized) struct LimitsTests {
  /// Peak resident memory allowed to a command that streams, whatever its input: 64 MiB.
  static let streamingBudgetKiB = 64 * 1024

  static let header = JournalText.header()

  /// Writes `parts` one after the other into a new file (so that 100 MB never sits in memory twice).
  static func writeFile(_ path: String, _ parts: [[UInt8]]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    for part in parts {
      var done = 0
      while done < part.count {
        let n = part.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        try #require(n > 0)
        done += n
      }
    }
  }

  @Test func aHundredMegabyteLineIsAFramingErrorNamingItsLineInBoundedMemory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("huge-line.ndjson")
    let label = [UInt8](repeating: UInt8(ascii: "A"), count: 100 << 20)
    try Self.writeFile(
      path,
      [
        Array((Self.header + "\n").utf8),
        Array(#"{"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"mark","label":""#.utf8),
        label, Array("\"}\n".utf8), Array((JournalText.mark(2, "after") + "\n").utf8),
      ])
    let finding = "\(path):2:1048577: error: line is longer than the limit of 1048576 bytes [framing]\n"
    let check = try Subprocess.run(["check", path], timeout: .seconds(120))
    #expect(check.exitStatus == 2, "\(check)")
    #expect(check.stdoutText == finding + "\(path): 2 events, 1 error, 0 warnings (framing 1)\n", "\(check)")
    #expect(check.peakMemoryKiB > 0 && check.peakMemoryKiB < Self.streamingBudgetKiB, "\(check)")
    for arguments in [
      ["cat", path], ["log", path], ["stats", path], ["export", "--table", "events", path], ["map", path],
    ] {
      let outcome = try Subprocess.run(arguments, timeout: .seconds(120))
      #expect(outcome.endedCleanly, "\(outcome)")
      if arguments[0] == "stats" {
        #expect(outcome.stdoutText.contains("framing 1"), "stats counts the finding: \(outcome)")
      } else {
        #expect(outcome.stderrText.contains(finding), "\(outcome)")
      }
      #expect(outcome.peakMemoryKiB > 0 && outcome.peakMemoryKiB < Self.streamingBudgetKiB, "\(outcome)")
    }

    // The same line given to `append`: refused with its line, nothing appended.
    let journal = try directory.write("journal.ndjson", Self.header + "\n")
    let append = try Subprocess.run(
      ["append", journal], stdin: Array(#"{"type":"mark","label":""#.utf8) + label + Array("\"}\n".utf8),
      timeout: .seconds(120))
    #expect(append.exitStatus == 2, "\(append)")
    #expect(append.stderrText == "<stdin>:1:1048577: error: line is longer than the limit of 1048576 bytes [framing]\n")
    #expect(append.peakMemoryKiB > 0 && append.peakMemoryKiB < Self.streamingBudgetKiB, "\(append)")
    #expect(try directory.text(journal) == Self.header + "\n")
  }

  /// The start of ``deepLine(seq:depth:objects:)`` before its first nested value.
  static func deepPrefix(seq: Int) -> [UInt8] {
    Array(#"{"seq":\#(seq),"time":"2026-01-01T00:00:00.001000Z","type":"mark","label":"deep","deep":"#.utf8)
  }

  /// `"deep":[[[…0…]]]` (or objects) nested `depth` deep, inside a mark.
  static func deepLine(seq: Int, depth: Int, objects: Bool) -> [UInt8] {
    var line = deepPrefix(seq: seq)
    let open: [UInt8] = objects ? Array(#"{"a":"#.utf8) : [UInt8(ascii: "[")]
    let close: UInt8 = objects ? UInt8(ascii: "}") : UInt8(ascii: "]")
    line.reserveCapacity(line.count + depth * (open.count + 1) + 4)
    for _ in 0..<depth { line += open }
    line.append(UInt8(ascii: "0"))
    line += [UInt8](repeating: close, count: depth)
    line += Array("}\n".utf8)
    return line
  }

  @Test(arguments: [false, true])
  func tenThousandDeepNestingIsAnErrorAndNeverOverflowsTheStack(_ objects: Bool) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("deep.ndjson")
    try Self.writeFile(
      path, [Array((Self.header + "\n").utf8), Self.deepLine(seq: 1, depth: 10_000, objects: objects)])
    let check = try Subprocess.run(["check", path], timeout: .seconds(60))
    #expect(check.exitStatus == 2, "\(check)")
    // The line's object is level 1: the 64th nested value is the first one too deep.
    let column = Self.deepPrefix(seq: 1).count + 63 * (objects ? 5 : 1) + 1
    #expect(
      check.stdoutText.hasPrefix("\(path):2:\(column): error: nesting deeper than the limit of 64 [framing]\n"),
      "\(check)")

    // Limits raised: the scanner does not recurse, so 200,000 levels are read, not a crash.
    let deeper = directory.file("deeper.ndjson")
    try Self.writeFile(
      deeper, [Array((Self.header + "\n").utf8), Self.deepLine(seq: 1, depth: 200_000, objects: objects)])
    for arguments in [
      ["check", "--max-depth", "300000", "--max-line-bytes", "2000000", deeper],
      ["stats", "--max-depth", "300000", "--max-line-bytes", "2000000", deeper],
      ["export", "--table", "events", "--max-depth", "300000", "--max-line-bytes", "2000000", deeper],
    ] {
      let outcome = try Subprocess.run(arguments, timeout: .seconds(120))
      #expect(outcome.exitStatus == 0, "\(outcome)")
    }
    let limits = DecodeLimits(maxLineLength: .max, maxDepth: .max)
    let line = Self.deepLine(seq: 1, depth: 100_000, objects: objects).dropLast()
    let record = Array(line).withUnsafeBytes { try? RecordDecoder.decode($0, limits: limits) }
    #expect(record?.seq == 1, "decoded in process with no depth limit")
  }

  /// A journal allocating `count` controllers and linking each to the next on its right.
  static func chain(_ count: Int, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    defer { close(fd) }
    var buffer: [UInt8] = []
    var seq = 0
    func emit(_ event: Event) throws {
      Record(seq: seq, time: .modelEpoch, event: event).encode(into: &buffer)
      buffer.append(0x0A)
      seq += 1
      if buffer.count > 1 << 20 { try flush() }
    }
    func flush() throws {
      let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
      try #require(n == buffer.count)
      buffer.removeAll(keepingCapacity: true)
    }
    try emit(.session(SessionHeader(session: "chain")))
    for i in 0..<count { try emit(.alloc(controller: ControllerID("c\(i)"), className: "C")) }
    try emit(.root(controller: "c0"))
    for i in 0..<(count - 1) {
      try emit(.link(from: ControllerID("c\(i)"), direction: .right, to: ControllerID("c\(i + 1)")))
    }
    try flush()
  }

  @Test func aChainOfManyControllersIsReadInLinearTimeAndMemory() throws {
    let count = FuzzSettings.controllers
    let directory = try TemporaryDirectory()
    let path = directory.file("chain.ndjson")
    try Self.chain(count, to: path)
    let events = 2 * count + 1
    // Linear: a base plus a fixed amount per controller (the timeline's snapshots once took
    // O(controllers × events / 256): 820 MB for 100,000 controllers, 23 GB for 10⁶; this budget
    // is 139 MB for 50,000).
    let budgetKiB = 64 * 1024 + count * 3 / 2
    let commands: [(arguments: [String], output: String)] = [
      (["check", path], "\(path): \(events.formatted) events"),
      (["map", path], "║[c0]"),
      (["at", path, String(events - 1)], "c\(count - 1)"),
      (["stats", path], "c\(count - 1)"),
    ]
    for command in commands {
      let outcome = try Subprocess.run(command.arguments, timeout: .seconds(600))
      #expect(outcome.endedCleanly, "\(outcome)")
      #expect(outcome.stdoutText.contains(command.output), "\(command.arguments[0]): \(outcome)")
      #expect(outcome.peakMemoryKiB > 0 && outcome.peakMemoryKiB < budgetKiB, "\(outcome)")
      print(
        "hardening: \(command.arguments[0]) on \(count.formatted) controllers: \(Int(outcome.seconds * 1000)) ms, "
          + "peak \(outcome.peakMemoryKiB / 1024) MiB")
    }
  }

  @Test func aTenGigabyteSparseFileIsReportedQuicklyWithoutBeingRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("sparse.ndjson")
    let size: Int64 = 10 << 30
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    try #require(ftruncate(fd, off_t(size)) == 0)
    close(fd)

    // Ten gigabytes of NUL bytes and no line end: one final line that does not
    // parse, a torn tail by the format's rule (a warning; an error with --strict).
    let finding = "\(path):1: warning: torn tail: 10737418240 bytes at offset 0 without a line end [torn-tail]\n"
    for arguments in [
      ["check", path], ["check", "--strict", path], ["stats", path], ["cat", path], ["log", path], ["tail", path],
    ] {
      let outcome = try Subprocess.run(arguments, timeout: .seconds(300))
      #expect(outcome.endedCleanly, "\(outcome)")
      let text = outcome.stdoutText + outcome.stderrText
      if arguments[0] == "stats" {
        #expect(text.contains("torn-tail 1"), "stats counts the finding: \(outcome)")
      } else {
        #expect(
          text.contains(arguments[1] == "--strict" ? finding.replacingOccurrences("warning", "error") : finding),
          "\(outcome)")
      }
      #expect(outcome.peakMemoryKiB > 0 && outcome.peakMemoryKiB < Self.streamingBudgetKiB, "\(outcome)")
      print(
        "hardening: \(arguments.dropLast().joined(separator: " ")) on a 10 GB sparse file: \(Int(outcome.seconds * 1000)) ms"
      )
    }

    // `append` refuses it: no 10 GB copy into a .torn file, nothing changed.
    let append = try Subprocess.run(
      ["append", path], stdin: Array(#"{"type":"mark","label":"x"}"#.utf8) + [0x0A], timeout: .seconds(300))
    #expect(append.exitStatus == 2, "\(append)")
    #expect(append.stderrText.contains("without a line end, too long for a torn append"), "\(append)")
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_size == off_t(size))
    #expect(access(path + ".torn", F_OK) != 0, "no .torn file")
    unlink(path)
  }
}

extension Int {
  /// `1,000,000`, as the commands print counts.
  fileprivate var formatted: String {
    let digits = String(self)
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return out
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
