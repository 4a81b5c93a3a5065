import Journal
import Testing

@testable import Projection
@testable import TestSupport

/// Matching `auto`, the default: by class and order of allocation when the
/// ids of both runs are made per instance (counters, addresses), else by id.
@Suite struct DiffAutoMatchingTests {
  @Test(arguments: [
    ("CheckoutViewController#115", ControllerIDCensus.Kind.counter),
    ("NotesViewController#1", .counter),
    ("a#b#7", .counter),
    ("0x600003a2c000", .address),
    ("0X7F8A", .address),
    ("<NotesViewController: 0x7f8a1c2b>", .address),
    ("<0x7f8a1c2b>", .address),
    ("notes", .name),
    ("#12", .name),
    ("Notes#", .name),
    ("Notes#12a", .name),
    ("0x", .name),
    ("0xnotes", .name),
    ("<NotesViewController: notes0x12>", .name),
    ("NotesViewController: 0x7f8a1c2b", .name),
    ("checkout-115", .name),
  ])
  func idsAreCountersAddressesOrNames(_ id: String, _ kind: ControllerIDCensus.Kind) {
    #expect(ControllerIDCensus.kind(of: id) == kind)
  }

  static func census(_ ids: [String]) -> ControllerIDCensus {
    var census = ControllerIDCensus()
    for id in ids { census.count(id) }
    return census
  }

  @Test func aRunIsGeneratedWhenAllOrNearlyAllOfItsIdsAre() {
    let counted = (1...9).map { "NotesViewController#\($0)" }
    #expect(Self.census(counted).isGenerated)
    #expect(Self.census(["0x600003a2c000", "<HomeViewController: 0x7f8a1c2b>"]).isGenerated)
    // One name in ten (a named root) still counts as generated; one in nine does not.
    #expect(Self.census(["root"] + counted).isGenerated)
    #expect(!Self.census(["root"] + counted.dropLast()).isGenerated)
    #expect(!Self.census(["home", "notes"]).isGenerated)
    #expect(!Self.census([]).isGenerated, "a run that allocates nothing has no ids to judge")
  }

  @Test func autoDecidesFromBothRuns() {
    let counters = Self.census(["HomeViewController#1", "NotesViewController#2"])
    let addresses = Self.census(["0x6000", "<NotesViewController: 0x7f8a>"])
    let names = Self.census(["home", "notes"])
    #expect(MatchingDecision(requested: .auto, a: counters, b: counters).used == .className)
    #expect(MatchingDecision(requested: .auto, a: counters, b: addresses).used == .className)
    #expect(MatchingDecision(requested: .auto, a: names, b: names).used == .id)
    #expect(MatchingDecision(requested: .auto, a: counters, b: names).used == .id)
    #expect(MatchingDecision(requested: .auto, a: names, b: addresses).used == .id)
    #expect(MatchingDecision(requested: .id, a: counters, b: counters).used == .id)
    #expect(MatchingDecision(requested: .className, a: names, b: names).used == .className)
    #expect(
      MatchingDecision(requested: .auto, a: counters, b: ControllerIDCensus()).text
        == "id (auto: B allocates no controller)")
    #expect(
      MatchingDecision(requested: .auto, a: Self.census(["home", "NotesViewController#2"]), b: counters).text
        == "id (auto: A names 1 of the 2 controllers it allocates)")
  }

  @Test func autoChoosesClassForCountersAndAddressesAndIdForNames() throws {
    let base = try DiffFixture.base()
    let counted = base.countingInstances()
    let addressed = base.renamingControllers(DiffMatchingTests.address)
    for (a, b, used) in [
      (counted, counted, DiffOptions.Matching.className), (counted, addressed, .className),
      (addressed, addressed, .className), (base, base, .id), (base, counted, .id), (addressed, base, .id),
    ] {
      let report = DiffFixture.report(a, b)
      #expect(report.matching.requested == .auto)
      #expect(report.matching.used == used)
      #expect(report.a.options.matching == used && report.b.options.matching == used)
      #expect(report.isIdentical == (used == .className || a == b))
    }
    var text = ""
    DiffFixture.report(counted, addressed).write(to: &text, nameA: "a", nameB: "b")
    #expect(
      text.contains(
        "controllers matched by class and order of allocation (auto: the ids of both runs are instance counters or addresses)\n"
      ))
  }

  /// The issue's case: a build allocates one more controller early, of another
  /// class, and with global counters every later id shifts by one.
  @Test func anExtraEarlyControllerAddsOnlyItsOwnEvents() throws {
    let base = try DiffFixture.base()
    let a = base.countingInstances()
    let b = base.allocatingEarly(
      "SplashViewController",
      then: [.lifecycle(controller: "splash", callback: .didLoad), .dealloc(controller: "splash")]
    ).countingInstances()
    #expect(b[1].event == .alloc(controller: "SplashViewController#1", className: "SplashViewController"))
    #expect(b[4].event == .alloc(controller: "HomeViewController#2", className: "HomeViewController"))

    let report = DiffFixture.report(a, b)
    #expect(report.matching.used == .className)
    #expect(DiffFixture.seqHunks(report) == ["extra A [] B [2, 3]"])
    let extra = report.hunks[0].hunk.b.map { report.vocabulary.describe(report.b.tokens[$0]) }
    #expect(extra == ["lifecycle 1st SplashViewController didLoad", "dealloc 1st SplashViewController"])

    // By id, every event after the extra controller differs.
    let byID = DiffFixture.report(a, b, DiffOptions(matching: .id))
    #expect(byID.hunks.reduce(0) { $0 + $1.hunk.b.count } == byID.b.count)
  }

  /// Settled on id or class, `auto` gives the very diff that `id` or `class` gives.
  @Test func autoGivesTheDiffOfTheMatchingItChose() throws {
    let base = try DiffFixture.base()
    var random = DiffRandom(seed: 7)
    for round in 0..<40 {
      var b = base
      for _ in 0..<(1 + round % 4) {
        let seq = Int.random(in: 5..<(b.count - 1), using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: b = b.removing(seq: seq)
        case 1: b = b.duplicating(seq: seq)
        default:
          let after = Int.random(in: 4..<(b.count - 1), using: &random)
          if after != seq { b = b.moving(seq: seq, afterSeq: after) }
        }
      }
      for (x, y, used) in [
        (base, b, DiffOptions.Matching.id), (base.countingInstances(), b.countingInstances(), .className),
      ] {
        let auto = DiffFixture.report(x, y)
        let explicit = DiffFixture.report(x, y, DiffOptions(matching: used))
        #expect(auto.matching.used == used)
        #expect(DiffFixture.hunks(auto) == DiffFixture.hunks(explicit), "round \(round)")
        let describe = { (r: DiffReport) in (0..<r.b.count).map { r.vocabulary.describe(r.b.tokens[$0]) } }
        #expect(describe(auto) == describe(explicit), "round \(round)")
      }
    }
  }
}
