import Journal
import Testing

@testable import Projection
@testable import TestSupport

/// One rule for every command's exit status (README "Exit status"): input
/// that cannot be read correctly is 2 everywhere, whatever else was found;
/// format warnings alone are fine.
@Suite struct ExitStatusTests {
  /// A kind of input and the status every command must give for it.
  struct Input: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: @Sendable () -> [UInt8]
    var status: Int32
    var testDescription: String { name }
  }

  /// A clean recording of the bundled notes scenario, line by line.
  static let valid: [String] = {
    let text = (try? TemporaryDirectory().text(CheckJournals.directory + "/notes.intended.ndjson")) ?? ""
    return text.split(separator: "\n").map(String.init)
  }()

  static func joined(_ lines: [String], end: String = "\n") -> [UInt8] {
    Array(lines.map { $0 + end }.joined().utf8)
  }

  static let inputs: [Input] = [
    Input(name: "valid", bytes: { joined(valid) }, status: 0),
    Input(
      name: "garbage",
      bytes: {
        var random = DiffRandom(seed: 1000)
        return (0..<1000).map { i in i % 97 == 96 ? 0x0A : UInt8(truncatingIfNeeded: random.next()) }
      }, status: 2),
    Input(name: "empty", bytes: { [] }, status: 2),
    Input(name: "blank lines only", bytes: { Array("\n  \n\n".utf8) }, status: 2),
    Input(name: "header only", bytes: { joined(Array(valid.prefix(1))) }, status: 0),
    Input(name: "no header", bytes: { joined(Array(valid.dropFirst())) }, status: 2),
    Input(name: "torn tail", bytes: { joined(valid) + Array(#"{"seq":999,"ti"#.utf8) }, status: 0),
    Input(name: "CRLF", bytes: { joined(valid, end: "\r\n") }, status: 0),
    Input(
      name: "seq gap",
      bytes: { joined(Array(valid.prefix(5)) + valid.dropFirst(6)) }, status: 2),
  ]

  /// Every command that reads a journal, with the arguments around the path.
  static let commands: [(name: String, arguments: @Sendable (String) -> [String])] = [
    ("check", { ["check", $0] }),
    ("cat", { ["cat", $0] }),
    ("log", { ["log", $0] }),
    ("at", { ["at", $0, "0"] }),
    ("map", { ["map", $0] }),
    ("stats", { ["stats", $0] }),
    ("export", { ["export", "--table", "events", $0] }),
    ("tail", { ["tail", $0] }),
    ("step", { ["step", "--keys", "q", $0] }),
    ("diff", { ["diff", $0, $0] }),
    ("bisect", { ["bisect", $0, $0] }),
    ("report", { ["report", $0] }),
    ("trace", { ["trace", "--format", "chrome", $0] }),
    ("script", { ["script", $0] }),
  ]

  @Test(arguments: inputs)
  func everyCommandGivesTheSameStatus(_ input: Input) throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("journal.ndjson", input.bytes())
    let results = try Binary.runAll(Self.commands.map { ($0.arguments(path), []) })
    for (command, result) in zip(Self.commands, results) {
      #expect(result.status == input.status, "\(command.name) on \(input.name): \(result)")
    }
  }

  @Test func standardInputIsNamedTheSameEverywhere() throws {
    let bytes = Self.joined(Array(Self.valid.dropFirst()))
    let results = try Binary.runAll([
      (["check", "-"], bytes), (["cat", "-"], bytes), (["log", "-"], bytes), (["tail", "-n", "2", "-"], bytes),
      (["stats", "-"], bytes),
    ])
    for result in results.prefix(3) {
      #expect(result.status == 2)
      #expect(result.stdout.contains("<stdin>:1: error:") || result.stderr.contains("<stdin>:1: error:"), "\(result)")
    }
    #expect(results[3].status == 2)
    #expect(
      results[3].stderr.hasSuffix("<stdin>: 1 format error on earlier lines ('spatial-replay check' lists them)\n"))
    #expect(results[3].stdout.split(separator: "\n").count == 2, "tail - prints the last events: \(results[3])")
    #expect(results[4].stdout.hasPrefix("== <stdin>: no session header\n"), "\(results[4])")
  }
}
