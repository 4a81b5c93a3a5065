import Journal
import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every command that reads a journal, fed mutated journals: in process for
/// the bulk (the command's whole `run`, output captured), through the built
/// binary for a sample (exit status, signal, timeout, peak memory).
///
/// Asserted for every run: it ends with 0, 1 or 2; every finding it prints
/// names a line of the journal; the text outputs carry nothing that could
/// change a terminal's state; the input files are left as they were.
@Suite struct FuzzCommandTests {
  /// One command line over a mutated journal `J` and its original `O`.
  struct Invocation: CustomStringConvertible {
    var arguments: [String]
    /// Whether its stdout is text for a terminal (not NDJSON or CSV data copied from the journal).
    var textOutput: Bool
    var description: String { arguments.joined(separator: " ") }
  }

  /// The command lines run on each mutated journal (paths substituted by ``invocations(_:original:seq:)``).
  static func invocations(_ journal: String, original: String, seq: Int, random: inout FuzzRandom) -> [Invocation] {
    let table = random.pick(["events", "visits", "moves", "pans", "findings"])
    let keys = random.pick(["G f f ] [ :\(seq) /didAppear n q", "l l PgDn End F H Esc q", "g ] ] ] ?move N q"])
    let lines: [([String], Bool)] = [
      (["check", journal], true),
      (["check", "--model", "--strict", journal], true),
      (["check", "--json", "--max-depth", "8", "--max-line-bytes", "300", journal], false),
      (["cat", journal], false),
      (["log", journal], true),
      (["log", "--json", "--type", "move", journal], false),
      (["at", journal, String(seq)], true),
      (["at", "--json", journal, String(seq)], false),
      (["map", journal], true),
      (["map", "--at", String(seq), "--ascii", "--width", "40", journal], true),
      (["stats", journal, original], true),
      (["stats", "--json", journal], false),
      (["export", "--table", table, "--format", random.pick(["ndjson", "csv"]), journal], false),
      (["diff", original, journal], true),
      (["diff", "--lenient", "--match", "class", "--include", "pan", journal, original], true),
      (["diff", "--json", "--lenient", original, journal], false),
      (["bisect", original, journal], true),
      (["bisect", "--check", "--lenient", original, original, journal], true),
      (["step", "--keys", keys, journal], true),
      (["step", "--keys", "d d D G q", "--size", "100x30", original, journal], true),
      (["tail", "-n", "30", journal], true),
      (["tail", "--json", "-n", "5", journal], false),
    ]
    return lines.map { Invocation(arguments: $0.0, textOutput: $0.1) }
  }

  /// What a command printed, checked: the problems found (empty when all is well).
  static func problems(
    stdout: [UInt8], stderr: [UInt8], status: Int32?, invocation: Invocation, journals: [String]
  ) -> [String] {
    var problems: [String] = []
    // A SEQ past the end of a sound journal is the one usage error a journal's content can cause.
    let pastTheEnd = status == 64 && String(decoding: stderr, as: UTF8.self).contains("is out of range")
    if let status, ![0, 1, 2].contains(status), !pastTheEnd { problems.append("exit status \(status)") }
    if invocation.textOutput, let hazard = terminalHazard(in: stdout) { problems.append("stdout: \(hazard)") }
    if let hazard = terminalHazard(in: stderr) { problems.append("stderr: \(hazard)") }
    var findingLines = String(decoding: stderr, as: UTF8.self).split(separator: "\n")
    if invocation.arguments.first == "check" && invocation.textOutput {
      findingLines += String(decoding: stdout, as: UTF8.self).split(separator: "\n")
    }
    for line in findingLines where !isLocatedOrCommandLevel(line, journals: journals) {
      problems.append("a finding without a line: \(line.prefix(200))")
    }
    return problems
  }

  /// Whether an output line is a finding that names its line (`J:12[:3]: error: … [rule]`), or not a finding.
  static func isLocatedOrCommandLevel(_ line: Substring, journals: [String]) -> Bool {
    guard line.contains("error:") || line.contains("warning:") else { return true }
    if line.hasPrefix("spatial-replay: ") {
      // Command-level outcomes about the whole run; none of them is about one line.
      let commandLevel = [
        "out of range", "has no event", "unusable for comparing", "journal error", "make the run unusable",
      ]
      return commandLevel.contains { line.contains($0) }
    }
    for name in journals where line.hasPrefix(name + ":") {
      let rest = line.dropFirst(name.count + 1)
      let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber)
      return (Int(digits) ?? 0) >= 1 && rest.dropFirst(digits.count).hasPrefix(":")
    }
    return false
  }

  static let originalName = "original.ndjson"

  /// Runs one command line in this process with stdout and stderr captured.
  static func runInProcess(_ arguments: [String]) throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
    let output = try AnonymousFile([])
    let errors = try AnonymousFile([])
    var context = Context()
    context.stdout = FileOutput(fd: output.fd)
    context.stderr = FileOutput(fd: errors.fd, capacity: 1 << 12)
    context.stdinIsTerminal = false
    context.stdoutIsTerminal = false
    context.stderrIsTerminal = false
    let status = SpatialReplay.run(arguments, context: &context)
    context.flush()
    return (status, try output.contents(), try errors.contents())
  }

  /// A journal of the corpus, mutated, written into `directory` as `mutated.ndjson`
  /// beside its original; returns both paths, relative names and the last seq to ask for.
  static func prepare(
    _ directory: TemporaryDirectory, index: Int, random: inout FuzzRandom
  ) throws -> (journal: [UInt8], original: [UInt8], mutations: [Mutation], corpusName: String) {
    let source = random.pick(FuzzCorpus.journals)
    let (bytes, mutations) = FuzzMutator.mutate(source.bytes, using: &random, allowHuge: index % 4 == 0)
    try directory.write("mutated-\(index).ndjson", bytes)
    try directory.write(Self.originalName, source.bytes)
    return (bytes, source.bytes, mutations, source.name)
  }

  @Test func everyCommandSurvivesMutatedJournalsInProcess() throws {
    let count = FuzzSettings.scaled(250, minimum: 10)
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x0C0_FFEE)
    let directory = try TemporaryDirectory()
    var runs = 0
    var failed = 0
    for index in 0..<count {
      let (bytes, original, mutations, corpusName) = try Self.prepare(directory, index: index, random: &random)
      let name = "mutated-\(index).ndjson"
      let journal = directory.file(name)
      let seq = random.below(FuzzMutator.splitLines(bytes).count + 2)
      for invocation in Self.invocations(
        journal, original: directory.file(Self.originalName), seq: seq, random: &random)
      {
        let (status, stdout, stderr) = try Self.runInProcess(invocation.arguments)
        runs += 1
        let problems = Self.problems(
          stdout: stdout, stderr: stderr, status: status, invocation: invocation,
          journals: [journal, directory.file(Self.originalName)])
        if !problems.isEmpty { failed += 1 }
        #expect(
          problems.isEmpty,
          "seed \(FuzzSettings.seed) journal \(index) (\(corpusName), \(mutations)): \(invocation): \(problems)")
      }
      #expect(try directory.read(journal) == bytes, "\(name) was changed")
      #expect(try directory.read(Self.originalName) == original, "the original was changed")
      unlink(journal)
    }
    #expect(directoryEntries(directory.path) == [Self.originalName], "no command wrote a file")
    #expect(runs == count * 22)
    print(
      "hardening: command fuzz in process (seed \(FuzzSettings.seed)): \(count) mutated journals, "
        + "\(runs) command runs, \(failed) with problems, 0 crashes")
  }

  @Test func everyCommandSurvivesNonsenseJournalsInProcess() throws {
    let count = FuzzSettings.scaled(250, minimum: 10)
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x5E_7A17)
    let directory = try TemporaryDirectory()
    let original = try directory.write(Self.originalName, FuzzGenerator.journal(events: 300, using: &random))
    var runs = 0
    var failed = 0
    for index in 0..<count {
      let bytes = FuzzGenerator.journal(events: 1 + random.below(400), using: &random)
      let journal = try directory.write("nonsense-\(index).ndjson", bytes)
      for invocation in Self.invocations(journal, original: original, seq: random.below(400), random: &random) {
        runs += 1
        let (status, stdout, stderr) = try Self.runInProcess(invocation.arguments)
        let problems = Self.problems(
          stdout: stdout, stderr: stderr, status: status, invocation: invocation, journals: [journal, original])
        if !problems.isEmpty { failed += 1 }
        #expect(problems.isEmpty, "seed \(FuzzSettings.seed) nonsense journal \(index): \(invocation): \(problems)")
      }
      #expect(try directory.read(journal) == bytes)
      unlink(journal)
    }
    print(
      "hardening: command fuzz in process (seed \(FuzzSettings.seed)): \(count) nonsense journals, "
        + "\(runs) command runs, \(failed) with problems, 0 crashes")
  }

  @Test func theBinarySurvivesNonsenseJournals() throws {
    let count = FuzzSettings.scaled(2_500, minimum: 3)
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x5E_7A18)
    let directory = try TemporaryDirectory()
    let original = try directory.write(Self.originalName, FuzzGenerator.journal(events: 300, using: &random))
    var runs = 0
    var crashes = 0
    for index in 0..<count {
      let bytes = FuzzGenerator.journal(events: 1 + random.below(400), using: &random)
      let journal = try directory.write("nonsense-\(index).ndjson", bytes)
      for invocation in Self.invocations(journal, original: original, seq: random.below(400), random: &random) {
        let outcome = try Subprocess.run(invocation.arguments, timeout: .seconds(60))
        runs += 1
        if !outcome.endedCleanly { crashes += 1 }
        #expect(outcome.endedCleanly, "seed \(FuzzSettings.seed) nonsense journal \(index): \(outcome)")
        let problems = Self.problems(
          stdout: outcome.stdout, stderr: outcome.stderr, status: outcome.exitStatus, invocation: invocation,
          journals: [journal, original])
        #expect(problems.isEmpty, "nonsense journal \(index): \(invocation): \(problems)")
      }
      unlink(journal)
    }
    print(
      "hardening: command fuzz through the binary (seed \(FuzzSettings.seed)): \(count) nonsense journals, "
        + "\(runs) processes, \(crashes) crashes or hangs")
  }

  /// `append` fed damaged journals on standard input: it ends cleanly (0, or 2 naming
  /// `<stdin>:LINE`), and the journal it builds up stays whole: every line decodes, seq runs on.
  @Test func appendTakesDamagedInputAndKeepsItsJournalWhole() throws {
    let count = FuzzSettings.scaled(500, minimum: 20)
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0xA_99E0)
    let directory = try TemporaryDirectory()
    let target = directory.file("target.ndjson")
    var refused = 0
    var crashes = 0
    for index in 0..<count {
      let (bytes, _, mutations, corpusName) = try Self.prepare(directory, index: index, random: &random)
      let outcome = try Subprocess.run(["append", target], stdin: bytes, timeout: .seconds(60))
      if !outcome.endedCleanly { crashes += 1 }
      #expect(outcome.endedCleanly, "\(corpusName) \(mutations): \(outcome)")
      #expect(outcome.exitStatus == 0 || outcome.exitStatus == 2, "\(corpusName) \(mutations): \(outcome)")
      if outcome.exitStatus == 2 {
        refused += 1
        #expect(outcome.stderrText.hasPrefix("<stdin>:"), "the bad line is named: \(outcome)")
      }
      if let hazard = terminalHazard(in: outcome.stderr) { Issue.record("append's stderr: \(hazard)") }
    }
    let lines = try directory.read(target).split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(lines.last?.isEmpty == true, "the journal ends with a line end")
    for (i, line) in lines.dropLast().enumerated() {
      let record = try? RecordDecoder.decode(String(decoding: line, as: UTF8.self))
      #expect(record?.seq == i, "line \(i + 1) of the journal append built")
    }
    #expect(refused > 0 && refused < count, "some inputs are refused, some appended whole: \(refused) of \(count)")
    print(
      "hardening: append fuzz (seed \(FuzzSettings.seed)): \(count) damaged inputs, \(refused) stopped at a "
        + "named line, \(lines.count - 1) events appended, seq contiguous, \(crashes) crashes")
  }

  @Test func theBinarySurvivesMutatedJournals() throws {
    let count = FuzzSettings.scaled(2_500, minimum: 3)
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0xB1_0A7)
    let directory = try TemporaryDirectory()
    var peak = 0
    var runs = 0
    var crashes = 0
    for index in 0..<count {
      let (bytes, _, mutations, corpusName) = try Self.prepare(directory, index: index, random: &random)
      let journal = directory.file("mutated-\(index).ndjson")
      let seq = random.below(FuzzMutator.splitLines(bytes).count + 2)
      for invocation in Self.invocations(
        journal, original: directory.file(Self.originalName), seq: seq, random: &random)
      {
        let outcome = try Subprocess.run(invocation.arguments, timeout: .seconds(60))
        peak = max(peak, outcome.peakMemoryKiB)
        runs += 1
        if !outcome.endedCleanly { crashes += 1 }
        #expect(outcome.endedCleanly, "seed \(FuzzSettings.seed) journal \(index) (\(mutations)): \(outcome)")
        let problems = Self.problems(
          stdout: outcome.stdout, stderr: outcome.stderr, status: outcome.exitStatus, invocation: invocation,
          journals: [journal, directory.file(Self.originalName)])
        #expect(problems.isEmpty, "\(corpusName) \(mutations): \(invocation): \(problems)")
        #expect(outcome.peakMemoryKiB < 256 * 1024, "\(outcome)")
      }
      #expect(try directory.read(journal) == bytes)
      unlink(journal)
    }
    #expect(peak > 0, "peak memory is measured")
    print(
      "hardening: command fuzz through the binary (seed \(FuzzSettings.seed)): \(count) mutated journals, "
        + "\(runs) processes, \(crashes) crashes or hangs, peak memory \(peak / 1024) MiB")
  }
}
