import Testing

@testable import Journal

/// The line decoder and the journal reader, fed mutated lines and journals in
/// process: many thousands of inputs per run, deterministic per seed.
@Suite struct FuzzDecoderTests {
  /// Checks one decoder outcome: a refused line names a byte inside it, an
  /// accepted one encodes back to a line that decodes to the same record.
  static func problems(decoding line: [UInt8]) -> [String] {
    var problems: [String] = []
    let outcome = line.withUnsafeBytes { raw in
      Result { () throws(DecodeError) -> Record in try RecordDecoder.decode(raw) }
    }
    switch outcome {
    case .failure(let error):
      if !(0...line.count).contains(error.offset) { problems.append("offset \(error.offset) outside the line") }
      if ![.malformed, .framing].contains(error.rule) { problems.append("rule \(error.rule)") }
      if error.message.isEmpty { problems.append("empty message") }
    case .success(let record):
      let again = Result { () throws(DecodeError) -> Record in try RecordDecoder.decode(record.ndjson) }
      switch again {
      case .success(let decoded):
        // An unknown event keeps its line verbatim, escapes included: there the encoding is the fixed point.
        let same: Bool
        if case .unknown = record.event { same = decoded.ndjson == record.ndjson } else { same = decoded == record }
        if !same { problems.append("re-encoded as \(record.ndjson), which decodes to another record") }
      case .failure(let error):
        problems.append("re-encoded as \(record.ndjson.prefix(300)), which does not decode: \(error)")
      }
    }
    let draft = line.withUnsafeBytes { raw in
      Result { () throws(DecodeError) -> Draft in try RecordDecoder.decodeDraft(raw) }
    }
    if case .success = outcome, case .failure(let error) = draft {
      problems.append("a record refused as a draft: \(error)")
    }
    if case .failure(let error) = draft, !(0...line.count).contains(error.offset) {
      problems.append("draft error offset \(error.offset) outside the line")
    }
    return problems
  }

  @Test func theDecoderRefusesEveryDamagedLineWithAPositionInsideIt() {
    var random = FuzzRandom(seed: FuzzSettings.seed)
    let lines = FuzzCorpus.lines
    #expect(lines.count > 1_000)
    var refused = 0
    var seen: [Mutation: Int] = [:]
    for index in 0..<FuzzSettings.iterations {
      let (line, mutations) = FuzzMutator.mutate(random.pick(lines), using: &random, allowHuge: index % 50 == 0)
      for mutation in mutations { seen[mutation, default: 0] += 1 }
      let problems = Self.problems(decoding: line)
      #expect(
        problems.isEmpty,
        "seed \(FuzzSettings.seed) input \(index) \(mutations): \(String(decoding: line.prefix(400), as: UTF8.self)): \(problems)"
      )
      let accepted = line.withUnsafeBytes { raw in (try? RecordDecoder.decode(raw)) != nil }
      if !accepted { refused += 1 }
    }
    #expect(Set(seen.keys) == Set(Mutation.allCases), "every mutation was tried")
    #expect(refused > FuzzSettings.iterations / 4, "most damaged lines are refused")
    #expect(refused < FuzzSettings.iterations, "some mutations keep a line valid")
    print(
      "hardening: decoder fuzz (seed \(FuzzSettings.seed)): \(FuzzSettings.iterations) mutated lines, "
        + "\(seen.count) kinds of mutation, \(refused) refused with a position, 0 crashes")
  }

  /// A number that no double can hold is refused; one that rounds (to 1e+23, to 0) is read as the nearest double.
  @Test(arguments: [
    ("1e400", "malformed"), ("99999999999999999999999", ""), ("-0", ""), ("1e-400", ""), ("-1e400", "malformed"),
    ("1E+999999999999999999", "malformed"),
  ])
  func hugeNumbersInANumberField(_ number: String, _ rule: String) {
    let line =
      #"{"seq":9,"time":"2026-11-29T10:00:01.000000Z","type":"pan","controller":"home","direction":"left","touches":1,"distance":\#(number),"velocity":300,"outcome":"committed"}"#
    let outcome = Result { () throws(DecodeError) -> Record in try RecordDecoder.decode(line) }
    switch outcome {
    case .success(let record):
      #expect(rule == "", "\(number) accepted as \(record.ndjson)")
      #expect(Self.problems(decoding: Array(line.utf8)).isEmpty)
    case .failure(let error):
      #expect(error.rule.rawValue == rule, "\(number): \(error)")
    }
  }

  /// What a reader yielded, comparable whole.
  enum Item: Hashable {
    case record(Record, line: Int, offset: Int64)
    case finding(Diagnostic)
  }

  static func read(_ bytes: [UInt8], options: ReadOptions, chunkSize: Int) -> [Item] {
    let reader = JournalReader(bytes: bytes, name: "j", options: options, chunkSize: chunkSize)
    var items: [Item] = []
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, let offset): items.append(.record(record, line: line, offset: offset))
      case .diagnostic(let diagnostic): items.append(.finding(diagnostic))
      }
    }
    return items
  }

  /// The reader's invariants over one input: every line is accounted for (a
  /// record, or a finding on that line saying why not), findings name lines
  /// that exist, and the items do not depend on how the input was cut into reads.
  static func problems(reading bytes: [UInt8], options: ReadOptions, smallChunk: Int) -> [String] {
    var problems: [String] = []
    let items = read(bytes, options: options, chunkSize: 1 << 20)
    let lineCount =
      bytes.isEmpty
      ? 0 : bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count - (bytes.last == 0x0A ? 1 : 0)
    var accounted = Set<Int>()
    var lastRecordLine = 0
    for item in items {
      switch item {
      case .record(_, let line, _):
        if line <= lastRecordLine { problems.append("record line \(line) after line \(lastRecordLine)") }
        lastRecordLine = line
        accounted.insert(line)
      case .finding(let d):
        if !(1...max(lineCount, 1)).contains(d.line) { problems.append("finding on line \(d.line) of \(lineCount)") }
        if d.message.isEmpty { problems.append("empty message on line \(d.line)") }
        if [.malformed, .framing, .blankLine, .tornTail].contains(d.rule) { accounted.insert(d.line) }
        if d.rule == .tornTail, let offset = d.offset, let length = d.length, offset + Int64(length) != bytes.count {
          problems.append("torn tail \(offset)+\(length) does not end the input of \(bytes.count) bytes")
        }
      }
    }
    let missing = Set(1...max(lineCount, 1)).subtracting(accounted)
    if lineCount > 0 && !missing.isEmpty { problems.append("lines neither read nor reported: \(missing.sorted())") }
    if read(bytes, options: options, chunkSize: smallChunk) != items {
      problems.append("reading in chunks of \(smallChunk) bytes gives other items")
    }
    return problems
  }

  @Test func theReaderAccountsForEveryLineOfDamagedJournals() {
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x5EED)
    let count = FuzzSettings.scaled(30, minimum: 20)
    var findings = 0
    for index in 0..<count {
      let source = random.pick(FuzzCorpus.journals)
      let (bytes, mutations) = FuzzMutator.mutate(source.bytes, using: &random, allowHuge: index % 20 == 0)
      var options = ReadOptions(strict: random.percent(20))
      if random.percent(25) { options.limits.maxLineLength = 80 + random.below(200) }
      if random.percent(25) { options.limits.maxDepth = 1 + random.below(70) }
      let smallChunk = 1 + random.below(random.percent(25) ? 16 : 4_096)
      let problems = Self.problems(reading: bytes, options: options, smallChunk: smallChunk)
      #expect(
        problems.isEmpty, "seed \(FuzzSettings.seed) journal \(index) (\(source.name), \(mutations)): \(problems)")
      findings +=
        Self.read(bytes, options: options, chunkSize: 1 << 20).filter {
          if case .finding = $0 { return true } else { return false }
        }.count
    }
    #expect(findings >= count / 2, "the mutations damage the journals")
    print(
      "hardening: reader fuzz (seed \(FuzzSettings.seed)): \(count) mutated journals, each read whole and in "
        + "small chunks, \(findings) findings, every line accounted for, 0 crashes")
  }
}
