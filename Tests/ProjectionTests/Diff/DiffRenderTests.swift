import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// The report as text and as JSON.
@Suite struct DiffRenderTests {
  @Test func textShowsDivergenceHunksAndSummary() throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(base, base.removing(seq: 31).duplicating(seq: 40))
    var text = ""
    report.write(to: &text, nameA: "a.ndjson", nameB: "b.ndjson")
    #expect(
      text == """
        A: a.ndjson (42 events compared)
        B: b.ndjson (42 events compared)
        compared: lifecycle, move, modal, dealloc, link, unlink; controllers matched by id (auto: both runs name their controllers)

        first divergence: A seq 31 (line 32); B none, after seq 30 (line 31)
          in move: A seq 26: compose → notes (up, programmatic, animated)
                   B seq 26: compose → notes (up, programmatic, animated)
          last matching events:
            A seq 28, B seq 28  lifecycle notes willAppear
            A seq 29, B seq 29  lifecycle compose didDisappear
            A seq 30, B seq 30  lifecycle notes didAppear

        hunk 1 of 2, missing: A seq 31 (line 32); B none, after seq 30 (line 31)
          - A seq 31  unlink notes down

        hunk 2 of 2, duplicated in B: A none, after seq 40 (line 41); B seq 40 (line 41)
          + B seq 40  lifecycle settings willAppear

        2 hunks: 1 missing, 1 duplicated; A 42 events, B 42 events

        """)
  }

  @Test func contextCanBeZeroAndADivergenceAtTheStartSaysSo() throws {
    let base = try DiffFixture.base()
    let b = base.removing(seq: 31)
    var none = ""
    DiffReport(DiffFixture.run(base), DiffFixture.run(b), context: 0).write(to: &none, nameA: "a", nameB: "b")
    #expect(!none.contains("last matching events"))
    #expect(!none.contains("at the start"))
    // seq 5 is home's didLoad, the first event compared.
    var start = ""
    DiffFixture.report(base, base.removing(seq: 5)).write(to: &start, nameA: "a", nameB: "b")
    #expect(
      start.contains(
        """
        first divergence: A seq 5 (line 6); B none, before seq 5 (line 6)
          in move: A none yet (initial display)
                   B none yet (initial display)
          (at the start: no matching event before it)

        """))
  }

  @Test func identicalRunsPrintOnlyTheSummary() throws {
    let base = try DiffFixture.base()
    var text = ""
    DiffFixture.report(base, base).write(to: &text, nameA: "a", nameB: "b")
    #expect(
      text.hasSuffix(
        "unlink; controllers matched by id (auto: both runs name their controllers)\n\nidentical: A 42 events, B 42 events\n"
      ))
  }

  @Test func longHunksAreCut() throws {
    let base = try DiffFixture.base()
    let b = Array(base.prefix(12))  // everything from seq 12 on is missing
    var text = ""
    let report = DiffFixture.report(base, b)
    report.write(to: &text, nameA: "a", nameB: "b", hunkEvents: 2)
    #expect(
      text.contains("hunk 1 of 1, missing: A 35 events, seq 12–48 (lines 13–49); B none, after seq 11 (line 12)\n"))
    #expect(text.contains("  - A seq 12  move home → notes (left, programmatic, animated)\n  - A seq 13  "))
    #expect(text.contains("  - … and 33 more in A\n"))
  }

  @Test func journalTextIsEscaped() throws {
    let base = try DiffFixture.base()
    let b = base.inserting(.lifecycle(controller: "evil\u{1B}[2J", callback: .didLoad), afterSeq: 5)
    var text = ""
    DiffFixture.report(base, b).write(to: &text, nameA: "a\u{7}", nameB: "b")
    #expect(!text.contains("\u{1B}"))
    #expect(!text.contains("\u{7}"))
    #expect(text.contains("lifecycle evil\\u{1B}[2J didLoad"))
    #expect(text.hasPrefix("A: a\\u{7} "))
  }

  @Test func jsonHasTheDocumentedShape() throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(base, base.removing(seq: 31).duplicating(seq: 40))
    let text = report.json(nameA: "a.ndjson", nameB: "b.ndjson")
    #expect(!text.contains("\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["identical"] as? Bool == false)
    #expect((object["a"] as? [String: Any])?["file"] as? String == "a.ndjson")
    #expect((object["a"] as? [String: Any])?["events"] as? Int == 42)
    #expect((object["b"] as? [String: Any])?["records"] as? Int == 49)
    #expect(object["compared"] as? [String] == ["lifecycle", "move", "modal", "dealloc", "link", "unlink"])
    #expect(object["match"] as? String == "id")
    #expect(object["matchRequested"] as? String == "auto")
    let census = try #require(object["idCensus"] as? [String: [String: Int]])
    #expect(census["a"] == ["allocated": 4, "counters": 0, "addresses": 0])
    #expect(object["budgetExhausted"] as? Bool == false)
    let first = try #require(object["firstDivergence"] as? [String: Any])
    #expect((first["a"] as? [String: Any])?["seq"] as? Int == 31)
    #expect((first["moveA"] as? [String: Any])?["seq"] as? Int == 26)
    #expect((first["moveA"] as? [String: Any])?["from"] as? String == "compose")
    let context = try #require(first["context"] as? [[String: Any]])
    #expect(context.count == 3)
    #expect((context[0]["event"] as? [String: Any])?["callback"] as? String == "willAppear")
    let hunks = try #require(object["hunks"] as? [[String: Any]])
    #expect(hunks.map { $0["kind"] as? String } == ["missing", "duplicated"])
    #expect(hunks[1]["side"] as? String == "b")
    #expect(hunks[0]["side"] == nil)
    let missing = try #require(hunks[0]["a"] as? [String: Any])
    #expect(missing["count"] as? Int == 1)
    let events = try #require(missing["events"] as? [[String: Any]])
    #expect(events.first?["type"] as? String == "unlink")
    #expect(events.first?["seq"] as? Int == 31)
    #expect(events.first?["line"] as? Int == 32)
    #expect((hunks[0]["b"] as? [String: Any])?["afterSeq"] as? Int == 30)
    let summary = try #require(object["summary"] as? [String: Int])
    #expect(
      summary == [
        "hunks": 2, "missing": 1, "extra": 0, "duplicated": 1, "reordered": 0, "misattributed": 0, "changed": 0,
      ])
  }

  @Test func jsonOfIdenticalRuns() throws {
    let base = try DiffFixture.base()
    let text = DiffFixture.report(base, base).json(nameA: "a", nameB: "b")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["identical"] as? Bool == true)
    #expect(object["firstDivergence"] is NSNull)
    #expect((object["hunks"] as? [Any])?.isEmpty == true)
  }

  @Test func thousandsAreGrouped() {
    #expect((0).grouped == "0")
    #expect((999).grouped == "999")
    #expect((1_204).grouped == "1,204")
    #expect((1_000_000).grouped == "1,000,000")
  }

  /// Matching by class, a controller is named as the instance of its class it is.
  @Test func instancesOfAClassAreNamedByTheirOrdinal() {
    let ordinals = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
    #expect(
      ordinals.map { DiffVocabulary.Name.instance($0, of: "N").text } == [
        "1st N", "2nd N", "3rd N", "4th N", "11th N", "12th N", "13th N", "21st N", "22nd N", "23rd N", "101st N",
        "111th N", "112th N",
      ])
    #expect(DiffVocabulary.Name.id("2nd N").text == "2nd N")
    #expect(DiffVocabulary.Name.id("2nd N") != .instance(2, of: "N"))
  }
}
