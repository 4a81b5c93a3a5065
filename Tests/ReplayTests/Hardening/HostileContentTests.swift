import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Journals written to attack the terminal of whoever reads them: controller
/// ids, classes, labels, session fields, unknown types and unknown keys full of
/// terminal escapes (`ESC [ 2 J`, OSC 52 clipboard writes, BEL), C0 and C1
/// controls, bidi overrides, zero-width characters and 10 kB strings.
///
/// Every text output (`log`, `at`, `map`, `check`, `diff`, `bisect`, `step
/// --keys`, `stats`, `tail`) must show them escaped and cut short; and the only
/// files a command writes are the paths given to it.
@Suite struct HostileContentTests {
  static let tenKilobytes = String(repeating: "A", count: 10_000)

  /// Ids at most 256 bytes (the format's limit), each carrying one attack.
  static let ids: [ControllerID] = [
    "home\u{1B}[2J\u{1B}[H", "notes\u{1B}]52;c;ZXZpbA==\u{07}", "bell\u{07}\u{07}", "c0\u{01}\u{08}\u{1F}\u{7F}",
    "c1\u{85}\u{9B}31m\u{9D}", "bidi\u{202E}gnp.exe\u{202C}", "zw\u{200B}\u{200D}\u{FEFF}\u{2028}",
    "tab\tnew\nline\rcr", ControllerID("long" + String(repeating: "x", count: 250)),
  ]

  /// A valid journal (it reads without a single error) made of hostile strings.
  static func validJournal() -> [UInt8] {
    var records: [Event] = [
      .session(
        SessionHeader(
          session: "S\u{1B}[2J", app: "\u{1B}]52;c;cm0gLXJmIH4=\u{07}", build: "1\u{07}", device: "\u{202E}phone",
          profile: "intended", scenario: tenKilobytes))
    ]
    for (i, id) in ids.enumerated() {
      records.append(
        .alloc(controller: id, className: i == 0 ? tenKilobytes + "\u{1B}[31m" : "Class\u{1B}[1m\(i)\u{9B}"))
    }
    records.append(.root(controller: ids[0]))
    records.append(.lifecycle(controller: ids[0], callback: .didLoad))
    records.append(.lifecycle(controller: ids[0], callback: .willAppear))
    records.append(.lifecycle(controller: ids[0], callback: .didAppear))
    let directions: [Direction] = [.left, .right, .up, .down]
    for i in 1..<5 { records.append(.link(from: ids[0], direction: directions[i - 1], to: ids[i])) }
    records.append(.link(from: ids[1], direction: .left, to: ids[5]))
    records.append(.touches(controller: ids[0], direction: .left, min: 2))
    records.append(
      .pan(
        Pan(controller: ids[0], direction: .left, touches: 2, distance: 120, velocity: 300, outcome: .committed)))
    records.append(.move(Move(from: ids[0], to: ids[1], direction: .left, trigger: .pan, animated: true)))
    records.append(.lifecycle(controller: ids[1], callback: .didLoad))
    records.append(.lifecycle(controller: ids[0], callback: .willDisappear))
    records.append(.lifecycle(controller: ids[1], callback: .willAppear))
    records.append(.lifecycle(controller: ids[0], callback: .didDisappear))
    records.append(.lifecycle(controller: ids[1], callback: .didAppear))
    records.append(.modal(controller: ids[6], presenter: ids[1]))
    records.append(
      .mark(
        label: "step\u{1B}[2J\u{1B}]0;title\u{07}" + tenKilobytes,
        fields: [Field(key: "\u{1B}[2Jkey\u{202E}", value: .string("value\u{9B}\u{1B}c" + tenKilobytes))]))
    records.append(.unknown(type: "evil\u{1B}[2J\u{202E}", raw: ""))
    records.append(.dealloc(controller: ids[8]))
    var out: [UInt8] = []
    for (seq, event) in records.enumerated() {
      let time = Timestamp.modelEpoch.adding(milliseconds: Int64(seq))
      let extra = [Field(key: "x\u{1B}]52;c;AAAA\u{07}", value: .string("\u{1B}[6n" + tenKilobytes))]
      if case .unknown(let type, _) = event {
        // The encoder writes known types; an unknown one is written by hand, as a newer writer would.
        var line: [UInt8] = Array(#"{"seq":\#(seq),"time":"\#(time.rfc3339)","type":"#.utf8)
        JSONWriter.appendString(type, to: &line)
        line += Array(#","\u001b[2J":"\u009b\u202e","#.utf8)
        JSONWriter.appendString("payload", to: &line)
        line += Array(":".utf8)
        JSONWriter.appendString(tenKilobytes + "\u{1B}[2J", to: &line)
        out += line + Array("}\n".utf8)
        continue
      }
      Record(seq: seq, time: time, event: event, extra: seq % 3 == 0 ? extra : []).encode(into: &out)
      out.append(0x0A)
    }
    return out
  }

  /// The valid journal with hostile lines that do not decode, so the findings quote them.
  static func brokenJournal() -> [UInt8] {
    var out = validJournal()
    out += Array(
      #"{"seq":99,"time":"2026-01-01T00:00:01.000000Z","type":"alloc","controller":17,"class":"\u001b[2J"}"#.utf8)
    out.append(0x0A)
    out += Array(#"{"seq":100,"time":"x\u001b[2J","type":"root","controller":"a"}"#.utf8) + [0x0A]
    out += Array(#"{"seq":101,"\u001b[2J\u202e":1,"\u001b[2J\u202e":2}"#.utf8) + [0x0A]
    out += Array(
      #"{"seq":102,"time":"2026-01-01T00:00:01.000000Z","type":"\#(String(repeating: "\\u001b[2J", count: 2000))"}"#
        .utf8)
    out.append(0x0A)
    out += Array("{\"seq\":103,\"type\":\"\u{202E}\u{85}\u{2066}\"".utf8) + [0x1B, 0x07, 0x0A]
    out += [0xEF, 0xBB, 0xBF] + Array("\u{1B}[2J\u{07}".utf8) + [0x0A]
    out += Array(
      #"{"seq":105,"time":"2026-01-01T00:00:02.000000Z","type":"lifecycle","controller":"\u009b2J","callback":"\u001b[2J"}"#
        .utf8)
    out += [0x0A] + Array("{\"seq\":106,\"torn\u{1B}[2J\u{202E}".utf8)
    return out
  }

  /// The command lines checked, over journals `A` and `B` (relative paths in the working directory).
  static let commandLines: [[String]] = [
    ["log", "A"], ["log", "--controller", "home\u{1B}[2J\u{1B}[H", "A"], ["at", "A", "20"], ["at", "A", "30"],
    ["map", "A"], ["map", "--ascii", "--at", "22", "A"], ["check", "A"], ["check", "--model", "A"],
    ["check", "--strict", "A", "B"], ["diff", "A", "B"], ["diff", "--lenient", "B", "A"],
    ["diff", "--lenient", "--match", "class", "--include", "mark", "A", "B"], ["bisect", "--lenient", "A", "B"],
    ["bisect", "--check", "--lenient", "A", "A", "B"], ["step", "--keys", "G f F ] [ :20 /home n H Esc q", "A"],
    ["step", "--keys", "d n G q", "--size", "120x40", "A", "B"], ["stats", "A", "B"], ["tail", "-n", "50", "A"],
    ["log", "B"], ["at", "B", "25"], ["map", "B"],
  ]

  /// The journals under attack: (A, B) = (valid, broken), and the same under a hostile file name.
  static let pairs: [(a: String, b: String)] = [
    ("valid.ndjson", "broken.ndjson"), ("\u{1B}[2J\u{202E}evil\u{07}.ndjson", "broken.ndjson"),
  ]

  static func write(_ directory: TemporaryDirectory) throws -> [String: [UInt8]] {
    let files = [
      pairs[0].a: validJournal(), pairs[0].b: brokenJournal(), pairs[1].a: validJournal(),
    ]
    for (name, bytes) in files { try directory.write(name, bytes) }
    return files
  }

  /// The detector the tests rely on sees every attack, and lets plain text, `\n`, `\t` and escapes spelled out through.
  @Test func theHazardDetectorSeesEveryAttack() {
    for attack in [
      "\u{1B}[2J", "\u{07}", "\u{01}", "\r", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{200B}",
      "\u{FEFF}",
    ] {
      #expect(terminalHazard(in: Array("ok \(attack) ok".utf8)) != nil, "\(attack.unicodeScalars.map(\.value))")
    }
    #expect(terminalHazard(in: [0x61, 0xFF, 0x61]) != nil, "invalid UTF-8")
    #expect(terminalHazard(in: Array("home\\u{1B}[2J é → 😀\tcol\n".utf8)) == nil)
    #expect(terminalHazard(in: Array("a\tb".utf8), allowTab: false) != nil)
  }

  @Test func theHostileJournalIsValidAndTheBrokenOneHasErrors() throws {
    let directory = try TemporaryDirectory()
    _ = try Self.write(directory)
    let valid = try Subprocess.run(["check", "--no-rule", "unknown-type", "valid.ndjson"], directory: directory.path)
    #expect(valid.exitStatus == 0, "\(valid)")
    #expect(valid.stdoutText == "valid.ndjson: 31 events, 0 errors, 0 warnings\n", "\(valid)")
    let broken = try Subprocess.run(["check", "broken.ndjson"], directory: directory.path)
    #expect(broken.exitStatus == 2, "\(broken)")
    for line in 32...39 { #expect(broken.stdoutText.contains("broken.ndjson:\(line):"), "line \(line): \(broken)") }
  }

  @Test(arguments: commandLines)
  func textOutputIsEscapedAndCutShort(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let files = try Self.write(directory)
    let before = directoryEntries(directory.path)
    for pair in Self.pairs {
      let arguments = commandLine.map { $0 == "A" ? pair.a : $0 == "B" ? pair.b : $0 }
      let outcome = try Subprocess.run(arguments, directory: directory.path, timeout: .seconds(60))
      #expect(outcome.endedCleanly, "\(outcome)")
      #expect(!outcome.stdout.isEmpty || !outcome.stderr.isEmpty, "\(outcome)")
      for (stream, bytes) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
        if let hazard = terminalHazard(in: bytes) {
          Issue.record("\(stream) of \(arguments): \(hazard)\n\(outcome)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
          !text.contains(String(repeating: "A", count: 1_000)), "\(stream) of \(arguments): a 10 kB string in full")
        let longest = text.split(separator: "\n").map(\.utf8.count).max() ?? 0
        #expect(longest < 4_096, "\(stream) of \(arguments): a line of \(longest) bytes")
      }
    }
    #expect(directoryEntries(directory.path) == before, "\(commandLine) wrote no file")
    for (name, bytes) in files { #expect(try directory.read(name) == bytes, "\(name) is unchanged") }
  }

  /// Data (journal lines, tables, JSON) written to a terminal carries every control, bidi
  /// and zero-width character as a JSON escape; to a pipe it keeps the exact bytes.
  @Test(arguments: [
    ["cat", "A"], ["export", "--table", "events", "A"], ["export", "--table", "events", "--format", "csv", "A"],
    ["check", "--json", "A"], ["log", "--json", "A"], ["stats", "--json", "A"], ["at", "--json", "A", "20"],
  ])
  func dataOnATerminalIsEscaped(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    _ = try Self.write(directory)
    let arguments = commandLine.map { $0 == "A" ? directory.file(Self.pairs[0].a) : $0 }
    let terminal = try PseudoTerminalProcess(arguments: arguments, width: 200, height: 50)
    _ = terminal.waitForExit()
    // The terminal turns each line feed into CR LF (onlcr); nothing else is added.
    let output = terminal.output
    let shown = output.indices.filter { !(output[$0] == 0x0D && $0 + 1 < output.count && output[$0 + 1] == 0x0A) }
      .map { output[$0] }
    #expect(shown.count > 200, "\(terminal.text)")
    if let hazard = terminalHazard(in: shown) { Issue.record("\(commandLine) on a terminal: \(hazard)") }
    let piped = try Subprocess.run(arguments, timeout: .seconds(60))
    if commandLine.contains("csv") {
      #expect(terminalHazard(in: piped.stdout) != nil, "a CSV file keeps the journal's bytes exactly")
    }
  }

  /// The commands that write files write only the paths they were given.
  @Test(arguments: [
    ["export", "--table", "events", "-o", "out.ndjson", "A"],
    ["export", "--table", "visits", "-o", "lake", "--partition", "session", "A", "B"],
    ["simulate", "--events", "500", "--seed", "3", "-o", "sim.ndjson"],
    ["record", "script.scenario", "-o", "rec.ndjson"],
    ["append", "A"],
  ])
  func commandsWriteOnlyTheirOutputPaths(_ commandLine: [String]) throws {
    let directory = try TemporaryDirectory()
    let files = try Self.write(directory)
    try directory.write("script.scenario", "controller home HomeViewController\nroot home\n")
    let before = Set(directoryEntries(directory.path))
    defer { removeTree(directory.file("lake")) }
    let arguments = commandLine.map { $0 == "A" ? Self.pairs[0].a : $0 == "B" ? Self.pairs[0].b : $0 }
    let stdin = Array(#"{"type":"mark","label":"\u001b[2J"}"#.utf8) + [0x0A]
    let outcome = try Subprocess.run(arguments, stdin: stdin, directory: directory.path, timeout: .seconds(60))
    #expect(outcome.endedCleanly, "\(outcome)")
    let written = Set(directoryEntries(directory.path)).subtracting(before)
    let named = Set(arguments.indices.filter { arguments[$0] == "-o" }.map { arguments[$0 + 1] })
    #expect(written == named, "\(arguments) wrote \(written.sorted())")
    for (name, bytes) in files where !(commandLine.first == "append" && name == Self.pairs[0].a) {
      #expect(try directory.read(name) == bytes, "\(name) is unchanged")
    }
    if let hazard = terminalHazard(in: outcome.stderr) { Issue.record("stderr of \(arguments): \(hazard)") }
  }
}
