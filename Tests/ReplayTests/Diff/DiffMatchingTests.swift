import Journal
import Testing

@testable import Projection
@testable import TestSupport

/// What a diff compares: controller matching, included and excluded types, and
/// the interning of events.
@Suite struct DiffMatchingTests {
  /// Ids as another build would make them: memory addresses.
  static func address(_ id: ControllerID) -> ControllerID {
    let n = id.rawValue.unicodeScalars.reduce(0x6000_0000) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF_FFF }
    return ControllerID("0x" + String(n, radix: 16) + "0")
  }

  @Test func matchByClassIgnoresRenamedIds() throws {
    let base = try DiffFixture.base()
    let renamed = base.renamingControllers(Self.address)
    #expect(!DiffFixture.report(base, renamed).isIdentical)
    let byClass = DiffOptions(matching: .className)
    let report = DiffFixture.report(base, renamed, byClass)
    #expect(report.isIdentical)
    #expect(report.a.count == 42)
  }

  @Test func matchByClassStillFindsTheRegression() throws {
    let base = try DiffFixture.base()
    let b = base.replacing(seq: 35, with: .lifecycle(controller: "settings", callback: .willAppear))
      .renamingControllers(Self.address)
    let report = DiffFixture.report(base, b, DiffOptions(matching: .className))
    #expect(DiffFixture.seqHunks(report) == ["misattributed A [35] B [35]"])
    let h = try #require(report.hunks.first?.hunk)
    #expect(
      report.vocabulary.describe(report.a.tokens[h.a.lowerBound]) == "lifecycle 1st HomeViewController willAppear")
    #expect(
      report.vocabulary.describe(report.b.tokens[h.b.lowerBound]) == "lifecycle 1st SettingsViewController willAppear")
  }

  @Test func matchByClassPairsInstancesInOrderOfAllocation() {
    // A allocates n1 then n2; B allocates them under other ids in the same order.
    func records(_ first: ControllerID, _ second: ControllerID, swapCallbacks: Bool) -> [Record] {
      var events: [Event] = [
        .session(SessionHeader(session: "S")),
        .alloc(controller: first, className: "NotesViewController"),
        .alloc(controller: second, className: "NotesViewController"),
        .lifecycle(controller: first, callback: .didLoad),
        .lifecycle(controller: second, callback: .didLoad),
      ]
      if swapCallbacks { events.swapAt(3, 4) }
      return events.enumerated().map { Record(seq: $0, time: .modelEpoch, event: $1) }
    }
    let a = records("n1", "n2", swapCallbacks: false)
    let byClass = DiffOptions(matching: .className)
    #expect(DiffFixture.report(a, records("x9", "x3", swapCallbacks: false), byClass).isIdentical)
    let swapped = DiffFixture.report(a, records("x9", "x3", swapCallbacks: true), byClass)
    #expect(DiffFixture.seqHunks(swapped) == ["reordered A [3, 4] B [3, 4]"])
    #expect(swapped.vocabulary.describe(swapped.a.tokens[0]) == "lifecycle 1st NotesViewController didLoad")
  }

  @Test func panIsComparedOnlyWhenIncluded() throws {
    let base = try DiffFixture.base()
    // seq 38: the committed pan; another build pans further and faster.
    let b = base.replacing(
      seq: 38,
      with: .pan(
        Pan(controller: "home", direction: .right, touches: 1, distance: 120, velocity: 300, outcome: .committed)))
    #expect(DiffFixture.report(base, b).isIdentical)
    var options = DiffOptions()
    options.include("pan")
    let report = DiffFixture.report(base, b, options)
    #expect(DiffFixture.seqHunks(report) == ["changed A [38] B [38]"])
    #expect(
      report.vocabulary.describe(report.b.tokens[report.hunks[0].hunk.b.lowerBound])
        == "pan home right (1 touch, 120 pt, 300 pt/s, committed)")
  }

  @Test func excludedTypesAreNotCompared() throws {
    let base = try DiffFixture.base()
    let b = base.removing(seq: 32).duplicating(seq: 28)  // a missing dealloc and a lifecycle duplicate
    var options = DiffOptions()
    options.exclude("lifecycle")
    #expect(DiffFixture.seqHunks(DiffFixture.report(base, b, options)) == ["missing A [32] B []"])
    options.exclude("dealloc")
    let identical = DiffFixture.report(base, b, options).isIdentical
    #expect(identical)
    #expect(options.orderedTypes == ["move", "modal", "link", "unlink"])
  }

  @Test func theHeaderIsNeverCompared() {
    var options = DiffOptions(types: ["session", "alloc"])
    options.include("session")
    #expect(options.types == ["alloc"])
  }

  @Test func allocAndRootAndUnknownTypesCanBeIncluded() throws {
    let base = try DiffFixture.base()
    var withUnknown = base
    withUnknown.append(
      Record(
        seq: base.count, time: base[base.count - 1].time, event: .unknown(type: "net", raw: "{}"),
        extra: [Field(key: "host", value: .string("api"))]))
    var options = DiffOptions()
    #expect(DiffFixture.report(base, withUnknown, options).isIdentical)
    options.include("net")
    options.include("alloc")
    options.include("root")
    let report = DiffFixture.report(base, withUnknown, options)
    #expect(DiffFixture.seqHunks(report) == ["extra A [] B [49]"])
    #expect(report.a.count == 47)
    #expect(report.vocabulary.describe(report.b.tokens[47]) == "net host=\"api\"")
    #expect(
      options.orderedTypes == ["lifecycle", "move", "modal", "dealloc", "link", "unlink", "alloc", "root", "net"])
  }

  static let everyKind: [NormalizedEvent] = [
    .lifecycle(controller: 3, callback: .didDisappear),
    .move(from: 1, to: 2, direction: .down, trigger: .goToRoot, animated: true),
    .move(from: 2, to: 1, direction: .up, trigger: .fling, animated: false),
    .modal(controller: 4, presenter: 1),
    .dealloc(controller: 4),
    .link(from: 1, direction: .left, to: 2),
    .unlink(from: 1, direction: .right),
    .alloc(controller: 5, className: "ComposeViewController"),
    .root(controller: 1),
    .touches(controller: 1, direction: .up, min: 2),
    .pan(controller: 1, direction: .left, touches: 2, distance: 50.5, velocity: 0, outcome: .snapBack),
    .mark(label: "step", fields: [Field(key: "n", value: RawJSON(unchecked: "3"))]),
    .other(type: "net", fields: []),
    // Past the packed form's 26 bits: the slow path.
    .lifecycle(controller: 1 << 26, callback: .willAppear),
    .link(from: 1, direction: .down, to: Int32.max),
  ]

  @Test func everyEventInternsToATokenThatGivesItBack() {
    var vocabulary = DiffVocabulary()
    let tokens = Self.everyKind.map { vocabulary.token(for: $0) }
    #expect(Set(tokens).count == Self.everyKind.count)
    #expect(tokens.map { vocabulary[$0] } == Self.everyKind)
    #expect(Self.everyKind.map { vocabulary.token(for: $0) } == tokens)
    #expect(vocabulary.tokenCount == Self.everyKind.count)
  }

  @Test func absorbingAVocabularyMapsEqualEventsToEqualTokens() {
    var a = DiffVocabulary()
    var b = DiffVocabulary()
    let home = a.controller(named: .id("home"))
    let notesA = a.controller(named: .id("notes"))
    let notesB = b.controller(named: .id("notes"))
    let homeB = b.controller(named: .id("home"))
    let shared = a.token(for: .lifecycle(controller: notesA, callback: .willAppear))
    let move = a.token(for: .move(from: home, to: notesA, direction: .left, trigger: .pan, animated: true))
    let onlyB = b.token(for: .unlink(from: homeB, direction: .up))
    let sameInB = b.token(for: .lifecycle(controller: notesB, callback: .willAppear))
    let moveInB = b.token(for: .move(from: homeB, to: notesB, direction: .left, trigger: .pan, animated: true))
    let slowInB = b.token(for: .alloc(controller: notesB, className: "NotesViewController"))
    let map = a.absorb(b)
    #expect(map[Int(sameInB)] == shared)
    #expect(map[Int(moveInB)] == move)
    #expect(a[map[Int(onlyB)]] == .unlink(from: home, direction: .up))
    #expect(a[map[Int(slowInB)]] == .alloc(controller: notesA, className: "NotesViewController"))
    #expect(a.tokenCount == 4)
  }
}
