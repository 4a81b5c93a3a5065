import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// `cat --replayable`: a slice that `check` reads without format errors, whose end state
/// is the source's at the same event, on every bundled journal and on random windows.
@Suite struct CatReplayableTests {
  static let journals = Profile.allCases.flatMap { CheckJournals.paths($0) }

  /// What the slice must rebuild of a state: the focus and, for each alive controller, its
  /// class, phase, modal state, presenter, presented modals, links and minimum touches.
  static func essence(_ state: State) -> [String] {
    var lines = ["focus \(state.focus?.rawValue ?? "-")", "root \(state.root?.rawValue ?? "-")"]
    for c in state.controllers where c.isAlive {
      let links = state.links(of: c.id).map { l in
        [l.left, l.right, l.up, l.down].map { $0?.rawValue ?? "-" }.joined(separator: ",")
      }
      let touches = Direction.slotOrder.map { String(c.minimumTouches[$0]) }.joined(separator: ",")
      lines.append(
        "\(c.id.rawValue) \(c.className) \(c.phase) modal=\(c.isModal) presenter=\(c.presenter?.rawValue ?? "-") "
          + "presented=\(state.modals(presentedBy: c.id).map(\.rawValue)) links=\(links ?? "") touches=\(touches)")
    }
    return lines.sorted()
  }

  /// The slice of `records` from `from` to `to` as `cat --replayable` cuts it.
  static func slice(_ records: [Record], from: Int, to: Int) -> [Record] {
    var slice = ReplayableSlice()
    var out: [Record] = []
    for record in records {
      let keep: ReplayableSlice.Keep = (from...to).contains(record.seq) ? .event : record.seq > to ? .afterRange : .none
      slice.consume(record, keep: keep, into: &out)
    }
    slice.finish(into: &out)
    return out
  }

  /// Reads `records` back as a journal: its reader findings.
  static func readerFindings(_ records: [Record], _ directory: TemporaryDirectory) throws -> [String] {
    let path = try directory.write("slice.ndjson", Record.journal(records))
    let reader = try JournalReader(path: path)
    var findings: [String] = []
    while let item = reader.next() {
      if case .diagnostic(let d) = item { findings.append(CheckFinding.format(d).formatted(file: "slice")) }
    }
    return findings
  }

  /// One window of one journal: no format finding, the lifecycle findings of an intended
  /// journal none, the end state the source's at the slice's last source seq, seq contiguous.
  static func expectReplayable(_ path: String, from: Int, to: Int, _ directory: TemporaryDirectory) throws {
    let records = try CheckJournals.records(path).map(\.record)
    let out = slice(records, from: from, to: to)
    let name = "\(path.split(separator: "/").last ?? "") --from \(from) --to \(to)"
    #expect(out.map(\.seq) == Array(0..<out.count), "\(name): seq from 0, contiguous")
    if case .session = out.first?.event {} else { Issue.record("\(name): no header first") }
    #expect(try readerFindings(out, directory) == [], "\(name)")
    if path.hasSuffix(".intended.ndjson") {
      #expect(Checker.check(out).map(checkSummaryLine) == [], "\(name)")
    }
    let sourceSeqs = out.compactMap { r in
      r.extra.first { $0.key == ReplayableSlice.sourceSeqKey }.flatMap { Int($0.value.text) }
    }
    let kept = records.filter { (from...to).contains($0.seq) && $0.event.kind != .session }.map(\.seq)
    #expect(Set(kept).isSubset(of: Set(sourceSeqs)), "\(name): every event of the window is in the slice")
    let end = sourceSeqs.last ?? min(to, records.count - 1)
    let expected = State(folding: records.prefix { $0.seq <= end })
    #expect(essence(State(folding: out)) == essence(expected), "\(name): end state as at \(end)")
    // A window that ends at rest, not in the cleanup after a transition, ends at its --to.
    let atTo = State(folding: records.prefix { $0.seq <= to })
    let next = records.first { $0.seq == to + 1 }?.event.kind
    if atTo.transitionInFlight == nil, next != .unlink, next != .dealloc {
      #expect(end <= to, "\(name)")
    }
  }

  @Test(arguments: journals) func everyWindowOfTenAndEveryPrefixReplays(_ path: String) throws {
    let directory = try TemporaryDirectory()
    let count = try CheckJournals.records(path).count
    for from in stride(from: 0, to: count, by: 7) {
      try Self.expectReplayable(path, from: from, to: min(from + 10, count + 5), directory)
    }
    try Self.expectReplayable(path, from: 0, to: count - 1, directory)
  }

  @Test func randomWindows() throws {
    let directory = try TemporaryDirectory()
    var random = FuzzRandom(seed: 23)
    for _ in 0..<60 {
      let path = random.pick(Self.journals)
      let count = try CheckJournals.records(path).count
      let from = random.below(count)
      try Self.expectReplayable(path, from: from, to: from + random.below(count - from + 3), directory)
    }
  }

  /// The acceptance line: `cat --replayable --from 40 --to 90 Journals/notes.intended.ndjson | check -`.
  @Test func theSliceOfTheHelpChecksClean() throws {
    let source = CheckJournals.directory + "/notes.intended.ndjson"
    let cut = try Binary.run(["cat", "--replayable", "--from", "40", "--to", "90", source])
    #expect(cut.status == 0, "\(cut)")
    let check = try Binary.run(["check", "-"], stdin: Array(cut.stdout.utf8))
    #expect(check.status == 0, "\(check)")
    // 90 is list's willDisappear in the move at 89: the slice runs to that move's last callback.
    let lines = cut.stdout.split(separator: "\n")
    #expect(lines.last?.contains(#""callback":"didAppear","sourceSeq":93"#) == true, "\(lines.last ?? "")")
    #expect(lines.first?.contains(#""type":"session""#) == true)
    #expect(lines.contains { $0.contains(#""label":"replayable.start","from":36"#) }, "starts at the move at 36")
    // Plain cat gives a piece that check refuses, as --help says.
    let plain = try Binary.run(["cat", "--from", "40", "--to", "90", source])
    #expect(try Binary.run(["check", "-"], stdin: Array(plain.stdout.utf8)).status == 2)
  }

  @Test func aWindowAtRestEndsAtItsToAndEqualsAt() throws {
    let source = CheckJournals.directory + "/notes.intended.ndjson"
    let cut = try Binary.run(["cat", "--replayable", "--from", "40", "--to", "88", source])
    let directory = try TemporaryDirectory()
    let slice = try directory.write("slice.ndjson", cut.stdout)
    let count = cut.stdout.split(separator: "\n").count
    let atSlice = try Binary.run(["at", slice, String(count - 1), "--json"])
    let atSource = try Binary.run(["at", source, "88", "--json"])
    #expect(atSlice.status == 0 && atSource.status == 0)
    func essence(_ json: String) throws -> [String: String] {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      var result: [String: String] = ["focus": "\(object["focus"] ?? "-")"]
      for c in (object["controllers"] as? [[String: Any]]) ?? [] where (c["alive"] as? Bool) != false {
        var c = c
        for key in ["allocatedAt", "deallocatedAt", "loadCount", "loads"] { c[key] = nil }
        let data = try JSONSerialization.data(withJSONObject: c, options: [.sortedKeys])
        result["\(c["id"] ?? "")"] = String(decoding: data, as: UTF8.self)
      }
      return result
    }
    #expect(try essence(atSlice.stdout) == essence(atSource.stdout))
  }

  @Test func severalInputsAreOneSessionWithOneHeaderAndContiguousSeq() throws {
    let source = CheckJournals.directory + "/notes.intended.ndjson"
    let directory = try TemporaryDirectory()
    let part1 = try directory.write("1.ndjson", try Binary.run(["cat", "--to", "60", source]).stdout)
    let part2 = try directory.write("2.ndjson", try Binary.run(["cat", "--from", "61", source]).stdout)
    let plain = try Binary.run(["cat", part1, part2, source])
    #expect(try Binary.run(["check", "-"], stdin: Array(plain.stdout.utf8)).status == 2)
    let whole = try Binary.run(["cat", "--replayable", part1, part2])
    let check = try Binary.run(["check", "-"], stdin: Array(whole.stdout.utf8))
    #expect(check.status == 0, "\(check)")
    #expect(whole.stdout.components(separatedBy: #""type":"session""#).count == 2)
  }

  @Test func filtersKeepTheAllocsSoEveryIDIsKnown() throws {
    let source = CheckJournals.directory + "/notes.intended.ndjson"
    for filter in [["--type", "move,modal,link"], ["--controller", "compose"]] {
      let cut = try Binary.run(["cat", "--replayable", "--from", "30", "--to", "120"] + filter + [source])
      #expect(cut.status == 0, "\(cut)")
      let check = try Binary.run(["check", "-"], stdin: Array(cut.stdout.utf8))
      #expect(check.status != 2, "\(filter): \(check)")
      #expect(!check.stdout.contains("unknown-controller") && !check.stderr.contains("unknown-controller"))
    }
  }
}
