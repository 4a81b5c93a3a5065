import Journal
import Testing

@testable import Projection

/// The one streaming pass (``JournalPass``): its threads hand every consumer
/// what reading the journal item by item on one thread gives.
@Suite struct JournalPassTests {
  static let names = FuzzCorpus.journals.map(\.name)

  static func path(_ name: String) -> String { FuzzCorpus.directory + "/" + name }

  /// Every item of a journal, read on one thread.
  static func items(_ name: String) throws -> [JournalItem] {
    let reader = try JournalReader(path: path(name))
    var items: [JournalItem] = []
    while let item = reader.next() { items.append(item) }
    return items
  }

  /// Without the checker's stage: the reader's items, in order, with empty checked batches.
  @Test(arguments: names)
  func theItemsAreTheReaders(_ name: String) throws {
    let pass = try JournalPass(path: Self.path(name), options: ReadOptions(), decodingThreads: 2)
    var items: [JournalItem] = []
    while let batch = pass.next() {
      #expect(!batch.checked.hasFacts)
      items.append(contentsOf: batch.items.items)
    }
    #expect(pass.readError == nil)
    #expect(pass.finalState == nil)
    let expected = try Self.items(name)
    #expect(items.count == expected.count)
    for (a, b) in zip(items, expected) {
      switch (a, b) {
      case (.record(let r, let l, let o), .record(let s, let m, let p)): #expect(r == s && l == m && o == p)
      case (.diagnostic(let d), .diagnostic(let e)): #expect(d == e)
      default: Issue.record("\(name): a record where a finding was, or the reverse")
      }
    }
  }

  /// With the checker's stage: `check`'s findings and summary are those of the journal check alone.
  @Test(arguments: names)
  func checkFindsTheSame(_ name: String) throws {
    for model in [nil, Profile.intended] {
      var direct = JournalCheck(rules: .all, model: model)
      var expected: [CheckFinding] = []
      for item in try Self.items(name) { direct.consume(item, into: &expected) }
      direct.finish(into: &expected)

      let pass = try JournalPass(
        path: Self.path(name), options: ReadOptions(), checking: CheckerPass(rules: .all, model: model))
      var check = JournalCheck(rules: .all, model: model)
      var findings: [CheckFinding] = []
      while var batch = pass.next() { check.consume(&batch.items, checked: batch.checked, into: &findings) }
      check.finish(checked: pass.finalFindings, into: &findings)
      #expect(findings == expected, "\(name)")
      #expect(check.summary == direct.summary, "\(name)")
    }
  }

  /// A consumer that reads the records' facts (stats) run by the pass gives the stats of the items one by one.
  @Test(arguments: names)
  func statsRunByThePassAreTheSame(_ name: String) throws {
    var single = StatsBuilder(file: name)
    for item in try Self.items(name) { single.consume(item) }
    let expected = single.finish()

    let pass = try JournalPass(
      path: Self.path(name), options: ReadOptions(), checking: CheckerPass(facts: StatsBuilder.readsFacts))
    var builder = StatsBuilder(file: name)
    var batches = 0
    pass.run(&builder) { _ in batches += 1 }
    let state = try #require(pass.finalState)
    #expect(builder.finish(checked: pass.finalFindings, state: state) == expected)
    #expect(batches > 0)
  }

  /// A consumer that stops early lets the pass go: its threads stop at their next batch.
  @Test func aPassLeftEarlyEnds() throws {
    let name = try #require(FuzzCorpus.journals.max { $0.bytes.count < $1.bytes.count }?.name)
    for _ in 0..<20 {
      let pass = try JournalPass(path: Self.path(name), options: ReadOptions(), checking: CheckerPass())
      _ = pass.next()
    }
  }
}

/// A batch read in place: a record borrowed where it lies, and left as it was.
@Suite struct JournalBatchTests {
  @Test func recordsAreReadInPlaceAndLeftAsTheyWere() throws {
    let reader = JournalReader(bytes: Array(FuzzCorpus.journals[0].bytes) + Array("{oops\n".utf8))
    var batch = JournalBatch()
    while let item = reader.next() { batch.append(item) }
    let before = batch.items
    var lines: [Int] = []
    var findings = 0
    batch.forEachItem { _, item in
      if item.withRecord({ record, line in lines.append(line) }) == nil { findings += 1 }
    }
    #expect(lines.count + findings == batch.count)
    #expect(findings > 0)
    #expect(lines == lines.sorted())
    for (a, b) in zip(batch.items, before) {
      if case .record(let r, let l, let o) = a, case .record(let s, let m, let p) = b {
        #expect(r == s && l == m && o == p)
      }
    }
  }
}
