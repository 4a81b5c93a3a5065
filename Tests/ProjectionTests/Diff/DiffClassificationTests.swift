import Journal
import Projection
import Testing

@testable import TestSupport

/// One mutation of the fixture journal and the hunks it must produce
/// (`kind[side] A seqs B seqs`, seqs of the compared events on each side).
struct DiffClassificationCase: CustomTestStringConvertible, Sendable {
  let name: String
  let a: @Sendable ([Record]) -> [Record]
  let b: @Sendable ([Record]) -> [Record]
  let expected: [String]
  var testDescription: String { name }

  // In the fixture: 26 move compose → notes (up), 27 compose.W-, 28 notes.W+,
  // 29 compose.D-, 30 notes.D+, 31 unlink notes down, 32 dealloc compose,
  // 33 move notes → home (right), 34 notes.W-, 35 home.W+, 36 notes.D-, 37 home.D+.
  static let all: [DiffClassificationCase] = [
    .init(
      name: "missing: B lost the modal's unlink", a: { $0 }, b: { $0.removing(seq: 31) },
      expected: ["missing A [31] B []"]),
    .init(
      name: "extra: B unlinks a slot A never touched", a: { $0 },
      b: { $0.inserting(.unlink(from: "home", direction: .up), afterSeq: 37) },
      expected: ["extra A [] B [38]"]),
    .init(
      name: "duplicated in B: notes.W+ twice", a: { $0 }, b: { $0.duplicating(seq: 28) },
      expected: ["duplicated[b] A [] B [29]"]),
    .init(
      name: "duplicated in A: notes.W+ twice", a: { $0.duplicating(seq: 28) }, b: { $0 },
      expected: ["duplicated[a] A [29] B []"]),
    .init(
      name: "duplicated pair: W- and W+ sent twice", a: { $0 },
      b: {
        $0.inserting(.lifecycle(controller: "home", callback: .willAppear), afterSeq: 35).inserting(
          .lifecycle(controller: "notes", callback: .willDisappear), afterSeq: 35)
      },
      expected: ["duplicated[b] A [] B [36, 37]"]),
    .init(
      name: "reordered: didAppear before didDisappear", a: { $0 }, b: { $0.moving(seq: 29, afterSeq: 30) },
      expected: ["reordered A [29, 30] B [29, 30]"]),
    .init(
      name: "reordered: willDisappear three events late", a: { $0 }, b: { $0.moving(seq: 27, afterSeq: 30) },
      expected: ["reordered A [27, 28, 29, 30] B [27, 28, 29, 30]"]),
    .init(
      name: "misattributed: willAppear on settings instead of home", a: { $0 },
      b: { $0.replacing(seq: 35, with: .lifecycle(controller: "settings", callback: .willAppear)) },
      expected: ["misattributed A [35] B [35]"]),
    .init(
      name: "changed: a link instead of the unlink", a: { $0 },
      b: { $0.replacing(seq: 31, with: .link(from: "notes", direction: .up, to: "settings")) },
      expected: ["changed A [31] B [31]"]),
    .init(
      name: "two hunks: missing dealloc, then duplicated didAppear", a: { $0 },
      b: { $0.duplicating(seq: 43).removing(seq: 32) },
      expected: ["missing A [32] B []", "duplicated[b] A [] B [42]"]),
  ]
}

@Suite struct DiffClassificationTests {
  @Test(arguments: DiffClassificationCase.all)
  func classifiesEachKindOfDifference(_ c: DiffClassificationCase) throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(c.a(base), c.b(base))
    #expect(DiffFixture.seqHunks(report) == c.expected)
    #expect(!report.isIdentical)
    #expect(alignmentProblems(report.alignment, report.a.tokens, report.b.tokens) == [])
  }

  @Test(arguments: DiffClassificationCase.all)
  func bAgainstAMirrorsAAgainstB(_ c: DiffClassificationCase) throws {
    let base = try DiffFixture.base()
    let forward = DiffFixture.report(c.a(base), c.b(base))
    let backward = DiffFixture.report(c.b(base), c.a(base))
    func mirrored(_ h: ClassifiedHunk) -> ClassifiedHunk {
      let kind: HunkKind =
        switch h.kind {
        case .missing: .extra
        case .extra: .missing
        default: h.kind
        }
      return ClassifiedHunk(hunk: Alignment.Hunk(a: h.hunk.b, b: h.hunk.a), kind: kind, side: h.side?.other)
    }
    #expect(backward.hunks == forward.hunks.map(mirrored))
    #expect(forward.count(of: .missing) == backward.count(of: .extra))
    #expect(forward.count(of: .extra) == backward.count(of: .missing))
  }

  @Test func aJournalAgainstItselfIsIdentical() throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(base, base)
    #expect(report.isIdentical)
    #expect(report.hunks == [])
    #expect(report.firstDivergence == nil)
    #expect(report.a.count == 42)  // 49 records less the header, 4 allocs, the root and the pan
    #expect(report.summary == "identical: A 42 events, B 42 events")
  }

  @Test func seqTimeAndHeaderDoNotMatter() throws {
    let base = try DiffFixture.base()
    // Another session, another build, later and with other timings; an extra mark shifts every seq.
    var other = base.map { r in
      Record(seq: r.seq, time: r.time.adding(milliseconds: 86_400_000 + Int64(r.seq) * 7), event: r.event)
    }
    other[0] = Record(
      seq: 0, time: other[0].time, event: .session(SessionHeader(session: "OTHER", app: "Dicto", build: "2.5 (131)")))
    other = other.inserting(.mark(label: "launch", fields: []), afterSeq: 0)
    let report = DiffFixture.report(base, other)
    #expect(report.isIdentical)
    #expect(report.b.seqs.first == 6)
  }

  @Test func firstDivergenceKeepsThreeMatchingEventsAndTheMoveOnEachSide() throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(base, base.removing(seq: 31))
    let d = try #require(report.firstDivergence)
    #expect(report.a.seqs[d.a] == 31)
    #expect(report.b.seqs[d.b] == 31)  // B's seq 31 is the dealloc that follows the gap
    #expect(d.context.map { report.a.seqs[$0.a] } == [28, 29, 30])
    #expect(d.context.map { report.b.seqs[$0.b] } == [28, 29, 30])
    #expect(d.moveA?.seq == 26)
    #expect(d.moveB?.seq == 26)
    let move = try #require(d.moveA)
    #expect(report.vocabulary.describeMove(move.token) == "compose → notes (up, programmatic, animated)")
  }

  @Test func moveIsFoundEvenWhenMovesAreNotCompared() throws {
    let base = try DiffFixture.base()
    var options = DiffOptions()
    options.exclude("move")
    let report = DiffFixture.report(base, base.duplicating(seq: 41), options)
    let d = try #require(report.firstDivergence)
    #expect(d.moveA?.seq == 39)
    #expect(d.moveB?.seq == 39)
    #expect(report.vocabulary.describeMove(try #require(d.moveB).token) == "home → settings (right, pan, animated)")
  }

  @Test func hunksMapBackToSeqsOnEachSide() throws {
    let base = try DiffFixture.base()
    let report = DiffFixture.report(base, base.moving(seq: 27, afterSeq: 30).removing(seq: 40))
    let spans = report.hunks.map { report.seqRanges(of: $0.hunk) }
    #expect(spans.map(\.a) == [27...30, 40...40])
    #expect(spans.map(\.b) == [27...30, nil])
  }

  @Test func theSummaryCountsEveryKind() throws {
    let base = try DiffFixture.base()
    let b = base.duplicating(seq: 43).moving(seq: 29, afterSeq: 30).removing(seq: 32)
    let report = DiffFixture.report(base, b)
    #expect(report.summary == "3 hunks: 1 missing, 1 duplicated, 1 reordered; A 42 events, B 42 events")
  }
}
