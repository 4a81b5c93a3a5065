import Journal
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Python with the `jsonschema` package: `SPATIAL_REPLAY_SCHEMA_PYTHON` (what
/// `.ci/run` sets, a virtual environment under /tmp), else `python3` if it has it.
private let schemaPython: String? = {
  if let python = FuzzSettings.environment("SPATIAL_REPLAY_SCHEMA_PYTHON") { return python }
  return system("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0 ? "python3" : nil
}()

/// `docs/journal.schema.json`, judged by Python's `jsonschema` (the real
/// validator, through `.ci/journal_schema.py`), says of every line what
/// `check` says: a line is valid for the schema exactly when `check` reports
/// no `malformed` or `framing` finding on it.
///
/// The corpus: every line of the bundled journals (the fuzz corpus), lines
/// the fuzz mutator made of them, and lines written for the edges of each
/// event type. `SPATIAL_REPLAY_FUZZ_ITERATIONS` sets how many mutated lines.
@Suite(.enabled(if: schemaPython != nil, "needs Python with the jsonschema package (PyPI)"))
struct SchemaAgreementTests {
  static let root = Repository.root

  /// Lines at the edges of the format, valid and not.
  static let edges: [String] = {
    let t = #""time":"2026-11-29T10:00:00.000000Z""#
    let long = String(repeating: "é", count: 129)  // 258 bytes, 129 characters
    return [
      #"{"seq":1,\#(t),"type":"alloc","controller":"a","class":"A"}"#,
      #"{"seq":1,\#(t),"type":"alloc","controller":"a"}"#,
      #"{"seq":1,\#(t),"type":"alloc","controller":"","class":"A"}"#,
      #"{"seq":1,\#(t),"type":"alloc","controller":"\#(long)","class":"A"}"#,
      #"{"seq":1,\#(t),"type":"alloc","controller":"\#(long.dropFirst(2))","class":"A"}"#,
      #"{"seq":1,\#(t),"type":"root","controller":17}"#,
      #"{"seq":1.0,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":1e0,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":-1,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":-0,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":9223372036854775807,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":9223372036854775808,\#(t),"type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-02-29T10:00:00Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2028-02-29T10:00:00Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29T10:00:60.123456789z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29T23:59:60.123456789z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29T10:00:00.1234567891Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29T10:00:00+01:00","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29t10:00:00Z","type":"root","controller":"a"}"#,
      #"{"seq":1,"time":"2026-11-29T10:00Z","type":"root","controller":"a"}"#,
      #"{"seq":1,\#(t),"type":"link","from":"a","direction":"left","to":"b"}"#,
      #"{"seq":1,\#(t),"type":"link","from":"a","direction":"north","to":"b"}"#,
      #"{"seq":1,\#(t),"type":"link","from":"a","direction":"left","to":"b","class":[1,{"x":null}]}"#,
      #"{"seq":1,\#(t),"type":"unlink","from":"a","direction":"up"}"#,
      #"{"seq":1,\#(t),"type":"modal","controller":"m","presenter":"p"}"#,
      #"{"seq":1,\#(t),"type":"modal","controller":"m"}"#,
      #"{"seq":1,\#(t),"type":"touches","controller":"a","direction":"down","min":1}"#,
      #"{"seq":1,\#(t),"type":"touches","controller":"a","direction":"down","min":0}"#,
      #"{"seq":1,\#(t),"type":"touches","controller":"a","direction":"down","min":2.0}"#,
      #"{"seq":1,\#(t),"type":"pan","controller":"a","direction":"up","touches":-3,"distance":1e308,"velocity":-0,"outcome":"blocked"}"#,
      #"{"seq":1,\#(t),"type":"pan","controller":"a","direction":"up","touches":1,"distance":1e999,"velocity":0,"outcome":"blocked"}"#,
      #"{"seq":1,\#(t),"type":"pan","controller":"a","direction":"up","touches":1,"distance":"1","velocity":0,"outcome":"blocked"}"#,
      #"{"seq":1,\#(t),"type":"pan","controller":"a","direction":"up","touches":1,"distance":1,"velocity":0,"outcome":"snapback"}"#,
      #"{"seq":1,\#(t),"type":"move","from":"a","to":"b","direction":"left","trigger":"fling","animated":false}"#,
      #"{"seq":1,\#(t),"type":"move","from":"a","to":"b","direction":"left","trigger":"fling","animated":0}"#,
      #"{"seq":1,\#(t),"type":"lifecycle","controller":"a","callback":"didLoad"}"#,
      #"{"seq":1,\#(t),"type":"lifecycle","controller":"a","callback":"viewDidLoad"}"#,
      #"{"seq":1,\#(t),"type":"dealloc","controller":"a"}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"x","any":{"deep":[true,null,1.5e-7]}}"#,
      #"{"seq":1,\#(t),"type":"mark"}"#,
      #"{"seq":1,\#(t),"type":"session","v":1,"session":"s","app":"A","build":"1","device":"d","profile":"p","scenario":"s"}"#,
      #"{"seq":1,\#(t),"type":"session","v":1.5,"session":"s"}"#,
      #"{"seq":1,\#(t),"type":"session","v":1,"session":"s","app":7}"#,
      #"{"seq":1,\#(t),"type":"swipe","anything":[1,2,{"x":"y"}]}"#,
      #"{"seq":1,\#(t),"type":"Root","controller":17}"#,
      #"{"seq":1,\#(t),"type":7}"#,
      #"{"seq":1,\#(t)}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"x","label":"y"}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"\ud800"}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"\ud83d\ude00"}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"x","n":NaN}"#,
      #"{"seq":1,\#(t),"type":"mark","label":"x","n":01}"#,
      #" {"seq":1,\#(t),"type":"mark","label":"x"} "#,
      #"{"seq":1,\#(t),"type":"mark","label":"x"} x"#,
      #"[1,2]"#, #""text""#, "null", "{", "}",
      #"{"seq":1,\#(t),"type":"mark","label":"x","d":"# + String(repeating: "[", count: 63)
        + String(repeating: "]", count: 63) + "}",
      #"{"seq":1,\#(t),"type":"mark","label":"x","d":"# + String(repeating: "[", count: 64)
        + String(repeating: "]", count: 64) + "}",
    ]
  }()

  @Test func theSchemaAndCheckGiveEveryLineTheSameVerdict() throws {
    let python = try #require(schemaPython)
    var lines: [[UInt8]] = FuzzCorpus.lines + Self.edges.map { Array($0.utf8) }
    var random = FuzzRandom(seed: FuzzSettings.seed &+ 0x5C4E)
    let sources = FuzzCorpus.lines
    for index in 0..<max(FuzzSettings.iterations, 2_000) {
      lines.append(FuzzMutator.mutate(random.pick(sources), using: &random, allowHuge: index % 200 == 0).bytes)
    }
    // Event lines only: a mutation can add line ends, `\r` or leave a blank line, which are framing, not lines.
    lines = lines.flatMap { $0.split(separator: 0x0A, omittingEmptySubsequences: true).map { Array($0) } }
      .filter { line in line.last != 0x0D && !line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    let directory = try TemporaryDirectory()
    // The first line is a header, so that no corpus line is the file's first (a BOM there is allowed).
    let header = #"{"seq":0,"time":"2026-11-29T10:00:00.000000Z","type":"session","v":1,"session":"corpus"}"#
    let corpus = try directory.write("corpus.ndjson", Array(header.utf8) + [0x0A] + lines.flatMap { $0 + [0x0A] })

    let check = try Subprocess.run(["check", "--json", corpus], timeout: .seconds(600))
    #expect(check.exitStatus == 2, "format errors: \(check)")
    var refusedByCheck: [Int: String] = [:]
    for finding in check.stdoutText.split(separator: "\n") {
      guard let rule = jsonField(finding, "rule"), rule == "malformed" || rule == "framing",
        let line = jsonField(finding, "line").flatMap({ Int($0) })
      else { continue }
      refusedByCheck[line] = jsonField(finding, "message") ?? rule
    }

    let script = Self.root + "/.ci/journal_schema.py"
    let schema = Self.root + "/docs/journal.schema.json"
    let judged = try Subprocess.run(
      ["-c", #"exec "$0" "$@""#, python, script, "--verdicts", schema, corpus], executable: "/bin/sh",
      timeout: .seconds(600))
    try #require(judged.exitStatus == 0, "\(judged)")
    var disagreements: [String] = []
    var valid = 0
    var invalid = 0
    var judgedLines = 0
    for row in judged.stdoutText.split(separator: "\n") {
      let fields = row.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count >= 2, let number = Int(fields[0]), number > 1 else { continue }
      judgedLines += 1
      let schemaValid = fields[1] == "valid"
      if schemaValid { valid += 1 } else { invalid += 1 }
      let checkValid = refusedByCheck[number] == nil
      if schemaValid != checkValid {
        let text = String(decoding: lines[number - 2].prefix(160), as: UTF8.self)
        disagreements.append(
          "line \(number): schema \(schemaValid ? "valid" : "invalid (\(fields.dropFirst(2).first ?? ""))"), "
            + "check \(checkValid ? "valid" : "invalid (\(refusedByCheck[number]!))"): \(text)")
      }
    }
    #expect(judgedLines == lines.count, "the validator judged every line")
    #expect(valid > 0 && invalid > 0)
    #expect(
      disagreements.isEmpty,
      "\(disagreements.count) disagreements:\n\(disagreements.prefix(8).joined(separator: "\n"))")
    print(
      "schema: \(judgedLines) lines (\(FuzzCorpus.lines.count) of the bundled journals, \(Self.edges.count) edges, "
        + "the rest mutated): \(valid) valid, \(invalid) invalid, \(disagreements.count) disagreements with check")
  }

  @Test func everyBundledJournalIsValid() throws {
    let python = try #require(schemaPython)
    let journals = FuzzCorpus.journals.map { FuzzCorpus.directory + "/" + $0.name }
    let outcome = try Subprocess.run(
      ["-c", #"exec "$0" "$@""#, python, Self.root + "/.ci/journal_schema.py", Self.root + "/docs/journal.schema.json"]
        + journals, executable: "/bin/sh")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.stdoutText.hasSuffix(" in \(journals.count) journals, 0 invalid\n"), "\(outcome)")
  }
}

/// The value of a top-level key of a one-line JSON object, as text (strings unquoted, escapes kept).
private func jsonField(_ line: Substring, _ key: String) -> String? {
  guard let range = line.range(of: "\"\(key)\":") else { return nil }
  var rest = line[range.upperBound...]
  if rest.first == "\"" {
    rest = rest.dropFirst()
    var value = ""
    var escaped = false
    for character in rest {
      if escaped {
        value.append(character)
        escaped = false
      } else if character == "\\" {
        value.append(character)
        escaped = true
      } else if character == "\"" {
        return value
      } else {
        value.append(character)
      }
    }
    return nil
  }
  return String(rest.prefix { $0 != "," && $0 != "}" })
}
