import Foundation
import Journal
import Testing

@testable import Projection
@testable import TestSupport

/// The plain lines' reader (`PlainCommand`) says nothing the general parser would not: on every
/// line it reads, the general parser makes the same command without an error; on the lines it
/// leaves (nil), the general parser decides.
@Suite struct PlainCommandTests {
  /// The general parser's command of `line`, or nil for an error, a blank line or a comment.
  private func general(_ line: String) -> ScenarioCommand? {
    var tokens: [Token] = []
    return try? ScenarioParser.command(ArraySlice(line.utf8), tokens: &tokens, isFirst: false)
  }

  private func plain(_ line: String) -> ScenarioCommand? {
    Array(line.utf8).withUnsafeBufferPointer { PlainCommand.command($0) }
  }

  /// Checks one line; returns whether the plain reader read it.
  @discardableResult
  private func agree(_ line: String) -> Bool {
    guard let fast = plain(line) else { return false }
    let slow = general(line)
    #expect(slow == fast, "\(line.debugDescription): plain \(fast), general \(String(describing: slow))")
    if case .pan(_, let d, let v, _, _) = fast, case .pan(_, let d2, let v2, _, _) = slow {
      #expect(d.bitPattern == d2.bitPattern && v.bitPattern == v2.bitPattern, "\(line.debugDescription)")
    }
    return true
  }

  @Test func readsThePlainSpellingOfEachCommand() {
    let lines = [
      "pan up distance=120 velocity=300", "pan down distance=19.5", "pan left distance=0 velocity=0.1 touches=2",
      "pan right distance=007.250 velocity=80 touches=1", "wait 0", "wait 2176", "wait 1000000000000",
      "move right", "move down animated=false", "move up animated=true", "goToRoot", "goToRoot animated=false",
      #"modal "ComposeViewController#1" ComposeViewController up"#, "modal m1 ModalViewController left animated=false",
      #"modal "a b=c # d" "Class Name" down"#,
    ]
    for line in lines { #expect(agree(line), "\(line) was left to the general parser") }
  }

  @Test func leavesEverythingElseToTheGeneralParser() {
    let lines = [
      "pan up distance=1e3", "pan up distance=1.", "pan up distance=.5", "pan up velocity=3 distance=1",
      "pan up distance=1 cancel", "pan up distance=1 ", "pan  up distance=1", "pan\tup distance=1",
      "pan up distance=1 # comment", "pan up distance=1234567890123456", "pan up distance=1 touches=0",
      "pan sideways distance=1", "pan \"up\" distance=1", "wait -1", "wait 1000000000001", "wait 1234567890123456789",
      "wait", "move", "move up animated=yes", "move up animated=false extra", #"modal "" C up"#, #"modal "a\"b" C up"#,
      #"modal "a"b C up"#, "modal m C", "modal m C up animated=false x", "goToRoot now", "root home",
      "controller a A", "mark step", "", "# only a comment", "session id=S",
      "modal " + String(repeating: "x", count: 257) + " C up",
    ]
    for line in lines { #expect(plain(line) == nil, "\(line.debugDescription) was read by the plain reader") }
  }

  /// Every line of the bundled scripts and of a simulated app's script, and each with every
  /// byte replaced by a space, a tab, a quote, `=`, `#`, `.`, `e` or a digit, and cut at every
  /// byte: the two readers agree wherever the plain one reads.
  @Test func agreesWithTheGeneralParserOnRealAndMutatedLines() throws {
    var lines: [String] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Journals")
    where file.hasSuffix(".scenario") {
      let text = try String(contentsOfFile: Repository.root + "/Journals/" + file, encoding: .utf8)
      lines += text.split(separator: "\n").map(String.init)
    }
    lines += [
      "pan right distance=97 velocity=80", "pan down distance=19.5 velocity=510 touches=2", "wait 826",
      #"modal "ShareSheetController#12" ShareSheetController down"#, "move left animated=false",
      "pan up distance=0.30000000000000004 velocity=123456789.12345", "pan up distance=999999999999999",
      "pan up distance=0.000000000000001 velocity=9007199254740993",
    ]
    var read = 0
    let replacements: [UInt8] = Array(" \t\"=#.e5".utf8)
    for line in lines {
      if agree(line) { read += 1 }
      let bytes = Array(line.utf8)
      for i in bytes.indices {
        for r in replacements {
          var mutated = bytes
          mutated[i] = r
          agree(String(decoding: mutated, as: UTF8.self))
        }
        agree(String(decoding: bytes[..<i], as: UTF8.self))
      }
    }
    #expect(read >= 8, "the plain reader read \(read) of the lines")
  }
}
