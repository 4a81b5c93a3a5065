import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// A lifecycle finding is data (rule, fact, transition) until an output renders it.
@Suite struct FindingTests {
  /// `notes` gets a second willAppear in the move at seq 9, on line 13 (seq 12).
  static func repeatedWillAppear() -> [Record] {
    var b = RecordBuilder()
    b.alloc("home", "notes")
    b.link("home", .right, "notes")
    b.root("home")
    for callback: Callback in [.didLoad, .willAppear, .didAppear] { b.callback("home", callback) }
    b.callback("notes", .didLoad)
    b.move("home", .right, "notes")
    b.callback("home", .willDisappear)
    b.callback("notes", .willAppear)
    b.callback("notes", .willAppear)
    return b.records
  }

  @Test func aFindingCarriesItsFactsAndTheTransition() throws {
    let found = Checker.check(Self.repeatedWillAppear(), rules: try RuleSelection(only: ["will-repeated"]))
    #expect(found.count == 1)
    let diagnostic = try #require(found.first)
    #expect(diagnostic.line == 13 && diagnostic.seq == 12 && diagnostic.move == 9)
    #expect(diagnostic.controllers == ["notes"] && diagnostic.rule == .willRepeated)
    let finding = diagnostic
    #expect(finding.fact == .willRepeated("notes", .willAppear, phase: .appearing))
    let transition = try #require(finding.transition)
    #expect(transition.kind == .move && transition.seq == 9 && transition.from == "home" && transition.to == "notes")
  }

  @Test func eachOutputRendersItWithItsGlyphs() throws {
    let diagnostic = try #require(Checker.check(Self.repeatedWillAppear()).first { $0.rule == .willRepeated })
    #expect(
      diagnostic.message(.unicode) == "notes: willAppear while already appearing (in move at seq 9: home → notes)")
    #expect(diagnostic.message(.ascii) == "notes: willAppear while already appearing (in move at seq 9: home -> notes)")
    #expect(diagnostic.message == diagnostic.message(.unicode))
    #expect(
      diagnostic.formatted(file: "j.ndjson", ascii: true)
        == "j.ndjson:13: error: notes: willAppear while already appearing (in move at seq 9: home -> notes) [will-repeated]"
    )
    #expect(
      diagnostic.json(file: "j.ndjson").contains(
        #""message":"notes: willAppear while already appearing (in move at seq 9: home → notes)""#))
  }

  @Test func aReaderFindingKeepsItsSentence() {
    let diagnostic = CheckFinding.format(
      Diagnostic(rule: .crlf, severity: .warning, line: 2, message: "line ends with \\r\\n"))
    #expect(diagnostic.finding == nil)
    #expect(diagnostic.message(.ascii) == "line ends with \\r\\n")
    #expect(diagnostic.rule == .format(.crlf))
  }
}
