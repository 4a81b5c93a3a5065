import Journal
import Projection
import Synchronization
import Testing

@testable import Stepper
@testable import TestSupport

/// Reading a journal for `step`: the check that runs as it is read finds
/// exactly what `check` finds, in the same order, the timeline built from its
/// fold is the records' own, and the indexes the keys use are right.
@Suite struct StepLoadingTests {
  /// What `check` reports: the reader's items through ``JournalCheck``.
  static func checked(_ path: String, model: Profile? = nil) throws -> [CheckFinding] {
    var check = JournalCheck(model: model)
    var findings: [CheckFinding] = []
    let reader = try JournalReader(path: path)
    while let item = reader.next() { check.consume(item, into: &findings) }
    check.finish(into: &findings)
    return findings
  }

  /// Journals with reader findings of several kinds among lifecycle findings.
  static func damaged() -> String {
    var lines = StepFixture.text(.legacy).split(separator: "\n").map(String.init)
    lines[10] = lines[10].replacing("\"type\":\"alloc\"", with: "\"type\":\"allocate\"")
    lines[20] = "{\"seq\":20,\"time\":\"oops\""
    lines[25] += "\r"
    lines.insert("", at: 30)
    lines[40] = lines[40].replacing("\"seq\":39", with: "\"seq\":38")
    return lines.joined(separator: "\n") + "\n{\"seq\":99,\"ti"
  }

  @Test(arguments: ["intended", "legacy", "damaged"])
  func theCheckBesideTheReadingFindsWhatCheckFinds(_ name: String) throws {
    let directory = try TemporaryDirectory()
    let text = name == "damaged" ? Self.damaged() : StepFixture.text(name == "legacy" ? .legacy : .intended)
    let path = try directory.write("\(name).ndjson", text)
    let expected = try Self.checked(path)
    if name != "intended" { try #require(expected.count > 10) }
    let journal = try StepperJournal.load(path: path)
    #expect(journal.isChecked)
    #expect(journal.findings == expected)
    let withModel = try StepperJournal.load(path: path, model: .intended)
    #expect(withModel.findings == (try Self.checked(path, model: .intended)))
  }

  @Test func openReturnsBeforeTheCheckAndTellsWhenItIsDone() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("legacy.ndjson", StepFixture.text(.legacy))
    let told = Mutex(0)
    let (journal, check) = try StepperJournal.open(path: path) { told.withLock { $0 += 1 } }
    #expect(!journal.isChecked)
    #expect(journal.findings.isEmpty)
    let findings = check.wait()
    #expect(check.result == findings)
    #expect(findings == (try Self.checked(path)))
    #expect(told.withLock { $0 } == 1)
    let checked = journal.withFindings(findings)
    #expect(checked.isChecked)
    #expect(checked.count == journal.count)
  }

  @Test func aLoaderThatChecksAsItReadsIsDoneWhenFinished() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("legacy.ndjson", StepFixture.text(.legacy))
    let told = Mutex(0)
    var loader = StepperJournal.Loader(checkAsRead: true)
    let reader = try JournalReader(path: path)
    while let item = reader.next() { loader.consume(item) }
    let (journal, check) = loader.finish(name: path) { told.withLock { $0 += 1 } }
    #expect(told.withLock { $0 } == 1)
    #expect(journal.isChecked)
    #expect(check.result == journal.findings)
    #expect(journal.findings == (try Self.checked(path)))
    #expect(check.formatErrors == 0)
  }

  /// The loader's timeline takes its snapshots from the check's fold (or its
  /// own, when no lifecycle rule is selected): every state is the one a
  /// timeline folding the records itself gives, at every interval.
  @Test(arguments: [1, 7, 256])
  func theLoadersTimelineIsTheTimelineOfItsRecords(_ interval: Int) throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("damaged.ndjson", Self.damaged())
    let cases = [(RuleSelection.all, true, true), (try RuleSelection(only: ["bom"]), true, false), (.all, false, true)]
    for (rules, checkAsRead, allRules) in cases {
      var loader = StepperJournal.Loader(
        rules: rules, interval: interval, expectedRecords: 3, checkAsRead: checkAsRead)
      let reader = try JournalReader(path: path)
      while let item = reader.next() { loader.consume(item) }
      let (journal, check) = loader.finish(name: "damaged")
      if allRules { #expect(check.wait() == (try Self.checked(path))) }
      let expected = Timeline(records: journal.records, interval: interval)
      #expect(journal.timeline.snapshotCount == expected.snapshotCount)
      #expect(journal.timeline.state == expected.state)
      for index in -1..<journal.count {
        #expect(journal.timeline.state(at: index) == expected.state(at: index), "index \(index)")
      }
      #expect(check.formatErrors > 0)
      let plain = StepperJournal(
        name: "damaged", records: journal.records, lineNumbers: journal.lines, findings: journal.findings)
      #expect(journal.moves == plain.moves)
      #expect(journal.mapVersions == plain.mapVersions)
      #expect(journal.mapIDWidth == plain.mapIDWidth)
    }
  }

  @Test func theIndexesPointAtTheRightRecords() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("damaged.ndjson", Self.damaged())
    let journal = try StepperJournal.load(path: path)
    let records = journal.records
    // Moves.
    let moves = records.indices.filter {
      if case .move = records[$0].event { return true }
      return false
    }
    #expect(journal.moves.map(Int.init) == moves)
    // Lines: the blank line and the malformed one shift them.
    #expect(journal.lines.count == records.count)
    #expect(zip(journal.lines, journal.lines.dropFirst()).allSatisfy { $0 < $1 })
    #expect(journal.lines[19] == 20)
    #expect(journal.lines[20] == 22, "line 21 is malformed")
    // Each finding at the first record on or after its line.
    for (k, finding) in journal.findings.enumerated() {
      let r = Int(journal.findingRecords[k])
      if let last = journal.lines.last, finding.line > last {
        #expect(r == records.count - 1)
      } else {
        #expect(Int(journal.lines[r]) >= finding.line)
        #expect(r == 0 || Int(journal.lines[r - 1]) < finding.line)
      }
    }
    // Map versions: the last record that can change the map.
    for (i, version) in journal.mapVersions.enumerated() {
      let v = Int(version)
      #expect(v <= i)
      for j in (v + 1)..<(i + 1) {
        switch records[j].event {
        case .session, .pan, .lifecycle, .mark, .unknown: break
        case .alloc, .root, .link, .unlink, .modal, .touches, .move, .dealloc:
          Issue.record("record \(j) changes the map but version \(v) is before it")
        }
      }
    }
  }
}
