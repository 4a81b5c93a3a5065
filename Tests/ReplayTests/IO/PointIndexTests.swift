import Journal
import Projection
import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The point index of `at` and `map`: states written and read back equal, and
/// queries answered from an index print what a full read prints, never a stale answer.
@Suite struct PointIndexTests {
  // MARK: State snapshots

  /// Every state of a journal, written and read back, equals the state written.
  @Test(arguments: [Profile.intended, .legacy])
  func snapshotsReadBackEqual(profile: Profile) throws {
    var records: [Record] = []
    Simulator.records(Simulation(events: 6000, seed: 11, profile: profile)) { records += $0 }
    for bundled in CLIAtMapLogTests.bundledJournals {
      records += try JournalReader.readAll(path: bundled).records
    }
    var state = State()
    var mismatches: [Int] = []
    for (k, record) in records.enumerated() {
      reduce(into: &state, record)
      guard k % 37 == 0 || k == records.count - 1 else { continue }
      var out = SnapshotWriter()
      state.snapshot(into: &out)
      var input = SnapshotReader(out.bytes)
      if try State(snapshot: &input) != state || !input.isAtEnd { mismatches.append(k) }
    }
    #expect(state.controllerCount > 50)
    #expect(mismatches.isEmpty, "records after which the snapshot read back differs: \(mismatches.prefix(10))")
  }

  @Test func aCutSnapshotIsDamagedNotWrong() throws {
    var records: [Record] = []
    Simulator.records(Simulation(events: 500, seed: 3)) { records += $0 }
    var out = SnapshotWriter()
    State(folding: records).snapshot(into: &out)
    for length in [0, 1, out.bytes.count / 2, out.bytes.count - 1] {
      var input = SnapshotReader(Array(out.bytes[..<length]))
      #expect(throws: SnapshotReader.Damaged.self) { try State(snapshot: &input) }
    }
  }

  // MARK: Queries, end to end

  /// A journal of about 2.5 MB (more than the 1 MiB below which there is no index).
  static func bigJournal(in directory: TemporaryDirectory, seed: Int = 5) throws -> String {
    let path = directory.file("big.ndjson")
    let result = try Binary.run(["simulate", "--events", "20000", "--seed", String(seed), "-o", path])
    try #require(result.status == 0, "\(result)")
    return path
  }

  /// The queries compared: at and at --json at seqs across blocks, seqs not in the journal, map with and without --at.
  static let queries: [[String]] = {
    var queries: [[String]] = []
    for seq in [0, 1, 16_383, 16_384, 16_385, 19_999, 20_000, 123_456] {
      queries.append(["at", "FILE", String(seq)])
      queries.append(["at", "--json", "FILE", String(seq)])
      queries.append(["map", "--at", String(seq), "FILE"])
    }
    queries.append(["map", "FILE"])
    queries.append(["map", "--ascii", "--width", "120", "FILE"])
    return queries
  }()

  /// Runs every query once without an index and twice with one (building it, then using it): all the same.
  /// The index directory is the temporary directory itself, so that its files go with it.
  static func expectSameAnswers(_ path: String, index: String) throws {
    for query in queries {
      let arguments = query.map { $0 == "FILE" ? path : $0 }
      let plain = try Binary.run(arguments, environment: ["SPATIAL_REPLAY_INDEX": "off"])
      let first = try Binary.run(arguments, environment: ["SPATIAL_REPLAY_INDEX": index])
      let second = try Binary.run(arguments, environment: ["SPATIAL_REPLAY_INDEX": index])
      for indexed in [first, second] {
        #expect(indexed.status == plain.status, "\(arguments)")
        #expect(indexed.stdout == plain.stdout, "\(arguments)")
        #expect(indexed.stderr == plain.stderr, "\(arguments)")
      }
    }
  }

  /// `at --controller` and `--alive` answer from the index as from the journal; an id allocated after
  /// the event is told from one never allocated by the index's final state.
  @Test func atListingFromTheIndexEqualsFullReads() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.bigJournal(in: directory)
    let queries = [
      ["at", "--alive", path, "16384"], ["at", "--json", "--alive", "--controller", "c0,m1,m73", path, "16384"],
      ["at", "--controller", "c0,m73", path, "1"], ["at", "--json", "--controller", "m73", path, "1"],
      ["at", "--controller", "m99", path, "1"],
    ]
    for arguments in queries {
      let plain = try Binary.run(arguments, environment: ["SPATIAL_REPLAY_INDEX": "off"])
      for _ in 0..<2 {
        let indexed = try Binary.run(arguments, environment: ["SPATIAL_REPLAY_INDEX": directory.path])
        #expect(indexed.status == plain.status, "\(arguments)")
        #expect(indexed.stdout == plain.stdout, "\(arguments)")
        #expect(indexed.stderr == plain.stderr, "\(arguments)")
      }
    }
    let later = try Binary.run(queries[2], environment: ["SPATIAL_REPLAY_INDEX": directory.path])
    #expect(later.status == 0 && later.stdout.contains("\n  m73: not allocated yet (allocated at seq 19972)\n"))
    let never = try Binary.run(queries[4], environment: ["SPATIAL_REPLAY_INDEX": directory.path])
    #expect(never.status == 64 && never.stderr.contains("allocates no controller 'm99'"), "\(never)")
  }

  @Test func indexedAnswersEqualFullReads() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.bigJournal(in: directory)
    let index = directory.path
    try Self.expectSameAnswers(path, index: index)
    #expect(indexFiles(index).count == 1)
  }

  /// Format findings before and after SEQ are printed from the index as a full read prints them.
  @Test func findingsComeFromTheIndexAsFromTheJournal() throws {
    let directory = try TemporaryDirectory()
    var text = try directory.text(try Self.bigJournal(in: directory))
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[9_000] = "{\"seq\":9000,\"oops\""  // malformed
    lines.remove(at: 17_000)  // a seq gap after the second block starts
    lines.insert("", at: 18_000)  // a blank line
    text = lines.joined(separator: "\n")
    let path = try directory.write("damaged.ndjson", text)
    try Self.expectSameAnswers(path, index: directory.path)
  }

  /// A journal rewritten with the same size and its times set back, or appended to, is read again.
  @Test func aChangedJournalIsNeverAnsweredFromTheOldIndex() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.bigJournal(in: directory)
    let index = directory.path
    let environment = ["SPATIAL_REPLAY_INDEX": index]
    let query = ["at", "--json", path, "19000"]
    let before = try Binary.run(query, environment: environment)
    #expect(try Binary.run(query, environment: environment).stdout == before.stdout)
    var info = stat()
    try #require(stat(path, &info) == 0)
    let elsewhere = try TemporaryDirectory()
    let other = try directory.read(try Self.bigJournal(in: elsewhere, seed: 6))
    let original = try directory.read(path)
    // Same size and times, different content: seed 6's journal cut or padded to the same length.
    var replaced = Array(other.prefix(original.count))
    while replaced.count < original.count { replaced.append(0x0A) }
    try directory.write("big.ndjson", replaced)
    var times = [info.st_atim, info.st_mtim]
    try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
    let rewritten = try Binary.run(query, environment: environment)
    let plain = try Binary.run(query, environment: ["SPATIAL_REPLAY_INDEX": "off"])
    #expect(rewritten.stdout == plain.stdout && rewritten.stderr == plain.stderr && rewritten.status == plain.status)
    #expect(rewritten.stdout != before.stdout)
    // Appended to: the new events are found.
    try directory.write("big.ndjson", original)
    #expect(try Binary.run(query, environment: environment).stdout == before.stdout)
    let appended = try Binary.run(["at", path, "20000"], environment: environment)
    #expect(appended.status == 64, "seq 20000 is not in the journal yet: beyond its end")
    let mark = "{\"seq\":20000,\"time\":\"2100-01-01T00:00:00.000Z\",\"type\":\"mark\",\"label\":\"later\"}\n"
    try directory.write("big.ndjson", original + Array(mark.utf8))
    let after = try Binary.run(["at", path, "20000"], environment: environment)
    let afterPlain = try Binary.run(["at", path, "20000"], environment: ["SPATIAL_REPLAY_INDEX": "off"])
    #expect(after.status == afterPlain.status && after.stdout == afterPlain.stdout && after.stderr == afterPlain.stderr)
  }

  @Test func aDamagedIndexIsRebuilt() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.bigJournal(in: directory)
    let index = directory.path
    let query = ["at", "--json", path, "17000"]
    let first = try Binary.run(query, environment: ["SPATIAL_REPLAY_INDEX": index])
    let files = indexFiles(index)
    try #require(files.count == 1)
    var bytes = try directory.read(files[0])
    for k in stride(from: 8, to: bytes.count, by: 97) { bytes[k] ^= 0x5A }
    try directory.write(String(files[0].split(separator: "/").last ?? ""), bytes)
    let damaged = try Binary.run(query, environment: ["SPATIAL_REPLAY_INDEX": index])
    #expect(damaged.status == first.status && damaged.stdout == first.stdout && damaged.stderr == first.stderr)
  }

  /// Every damage to an index file is noticed: each byte flipped in turn over the
  /// table, the trailer and a sample of every state block (a different bit each
  /// time, and all eight bits at every 7th), and the file cut at many lengths. The
  /// damaged index is never answered from: either it is refused, or the state it
  /// gives is the true one (a block other than the damaged one). Then a sample of
  /// those files through the built binary: `at` prints what it prints with no index.
  @Test func everyCorruptionOfAnIndexGivesTheAnswerOfNoIndex() throws {
    let directory = try TemporaryDirectory()
    let path = try Self.bigJournal(in: directory)
    let environment = ["SPATIAL_REPLAY_INDEX": directory.path]
    let built = try Binary.run(["at", path, "17000"], environment: environment)
    try #require(built.status == 0, "\(built)")
    let location = try #require(PointIndex.Location(journal: path, options: ReadOptions(), environment: environment))
    let original = try directory.read(location.indexPath)
    let index = try #require(PointIndex.load(location), "the index just built loads")
    // The first records of the two blocks (each answer folds one record), a seq not in the journal, the end.
    let seqs: [Int?] = [0, 16_384, 123_456, nil]
    let name = JournalInput.displayName(path)
    func answers() -> [String?] {
      guard let loaded = PointIndex.load(location) else { return seqs.map { _ in nil } }
      return seqs.map { seq in
        switch loaded.state(afterSeq: seq, indexPath: location.indexPath, name: name, options: ReadOptions()) {
        case .state(let state)?: "\(state.hashValue) \(state.controllerCount) \(state.focus as Any)"
        case .notFound(let seq)?: "not found \(seq)"
        case nil: nil
        }
      }
    }
    let truth = answers()
    try #require(truth.allSatisfy { $0 != nil }, "the whole index answers every query")

    // Every byte outside the state blocks, and 64 bytes spread over each block.
    let blocks = index.blocks.map(\.snapshot.range) + [index.final.range]
    var offsets = Set(0..<original.count)
    for block in blocks { offsets.subtract(Int(block.lowerBound)..<Int(block.upperBound)) }
    for block in blocks {
      let (start, length) = (Int(block.lowerBound), Int(block.count))
      for k in 0..<64 { offsets.insert(start + k * length / 64) }
      offsets.insert(start + length - 1)
    }
    var damaged: [(what: String, bytes: [UInt8])] = offsets.sorted().map { offset in
      var bytes = original
      bytes[offset] ^= offset % 7 == 0 ? 0xFF : UInt8(1 << (offset % 8))
      return ("byte \(offset) flipped", bytes)
    }
    let cuts = Set([0, 1, 7, 8, 9, 12, 13, original.count / 2] + stride(from: 0, to: original.count, by: 97))
      .union(blocks.flatMap { [Int($0.lowerBound), Int($0.upperBound) - 1] })
      .union((1...24).map { original.count - $0 })
    damaged += cuts.sorted().filter { $0 < original.count }.map { ("cut to \($0) bytes", Array(original[..<$0])) }

    var wrong: [String] = []
    var refused = 0
    var refusedSeqs: [[Bool]] = []
    for (what, bytes) in damaged {
      try directory.write(String(location.indexPath.split(separator: "/").last!), bytes)
      let given = answers()
      for (k, answer) in given.enumerated() where answer != nil && answer != truth[k] {
        wrong.append("\(what): seq \(seqs[k].map(String.init) ?? "last")")
      }
      if given.contains(where: { $0 == nil }) { refused += 1 }
      refusedSeqs.append(given.map { $0 == nil })
    }
    #expect(wrong.isEmpty, "answers from a damaged index: \(wrong.prefix(10))")
    #expect(refused == damaged.count, "every damaged index is refused for at least one query")
    print(
      "hardening: point index, \(damaged.count) damaged index files (\(offsets.count) bytes flipped of "
        + "\(original.count), \(damaged.count - offsets.count) cuts): \(refused) refused, \(wrong.count) wrong answers")

    // End to end, on a sample: the output and status of `at` with no index, and the index
    // rebuilt when the query met the damage (a damaged block another query needs is found by that query).
    let queries = [(["at", path, "16384"], 1), (["at", "--json", path, "0"], 0)]
    let plain = try queries.map { try Binary.run($0.0, environment: ["SPATIAL_REPLAY_INDEX": "off"]) }
    var rebuilt = 0
    for (k, (what, bytes)) in damaged.enumerated() where k % max(1, damaged.count / 24) == 0 {
      let query = k % 2
      try directory.write(String(location.indexPath.split(separator: "/").last!), bytes)
      let result = try Binary.run(queries[query].0, environment: environment)
      #expect(
        result.status == plain[query].status && result.stdout == plain[query].stdout
          && result.stderr == plain[query].stderr, "\(what)")
      if refusedSeqs[k][queries[query].1] {
        #expect(try directory.read(location.indexPath) == original, "\(what): the index is rebuilt")
        rebuilt += 1
      }
    }
    #expect(rebuilt > 0)
  }

  private func indexFiles(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var files: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name.hasSuffix(".index") { files.append(directory + "/" + name) }
    }
    return files
  }
}
