import Foundation
import Testing

@testable import Journal
@testable import Projection
@testable import Report
@testable import TestSupport

/// The page's "download trace" (docs/report.md), with `report --trace`: the
/// Chrome trace the page carries is, byte for byte, what `trace --format chrome` writes for the same
/// journals and options. The browser test (`.ci/report_browser.py`) clicks the
/// link and compares the file Chromium saves in the same way.
@Suite struct ReportTraceTests {
  /// The page's trace block: its attributes and the trace, decompressed.
  struct Embedded {
    var file: String
    var bytes: Int
    var encoding: String
    var trace: [UInt8]
  }

  static func embedded(_ page: [UInt8]) throws -> Embedded? {
    let text = String(decoding: page, as: UTF8.self)
    guard let open = text.range(of: #"<script type="application/json" id="trace-data""#) else { return nil }
    let tagEnd = try #require(text.range(of: ">", range: open.upperBound..<text.endIndex))
    let close = try #require(text.range(of: "</script>", range: tagEnd.upperBound..<text.endIndex))
    let tag = String(text[open.upperBound..<tagEnd.lowerBound])
    func attribute(_ name: String) throws -> String {
      let start = try #require(tag.range(of: " \(name)=\""))
      let end = try #require(tag.range(of: "\"", range: start.upperBound..<tag.endIndex))
      return String(tag[start.upperBound..<end.lowerBound])
    }
    let json = Data(text[tagEnd.upperBound..<close.lowerBound].utf8)
    let base64 = try #require(try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed) as? String)
    let gzip = try #require(Data(base64Encoded: base64))
    return Embedded(
      file: try attribute("data-file"), bytes: try #require(Int(try attribute("data-bytes"))),
      encoding: try attribute("data-encoding"), trace: try inflate(Array(gzip)))
  }

  static func inflate(_ gzip: [UInt8]) throws -> [UInt8] {
    let inflater = gzip.withUnsafeBytes { GzipInflater(initial: $0) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = try chunk.withUnsafeMutableBytes { buffer in
        try inflater.read(into: buffer.baseAddress!, count: buffer.count) { _, _ in 0 }
      }
      if n == 0 { return out }
      out.append(contentsOf: chunk[..<n])
    }
  }

  /// A case: the report's options and journals, and the trace command's that must give the same bytes.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var report: [String]
    var trace: [String]
    var file: String
    var testDescription: String { name }
  }

  static let journals = Repository.root + "/Journals/"

  static let cases: [Case] = {
    var cases: [Case] = []
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: journals)) ?? []).sorted()
    for name in names where name.hasSuffix(".ndjson") {
      cases.append(Case(name: name, report: [journals + name], trace: [journals + name], file: ""))
    }
    let a = journals + "bisect/build-07.ndjson"
    let b = journals + "bisect/build-08.ndjson"
    let demo = journals + "demo.legacy.ndjson"
    let notes = journals + "notes.legacy.ndjson"
    cases += [
      Case(name: "two runs", report: [a, b], trace: [a, b], file: "D1C74892-vs-D1C752F0.trace.json"),
      Case(
        name: "--from/--to and --controller",
        report: ["--from", "20", "--to", "200", "--controller", "home,editor", demo],
        trace: ["--from", "20", "--to", "200", "--controller", "home,editor", demo], file: ""),
      Case(
        name: "--since/--until",
        report: ["--since", "2026-11-29T09:00:08.520000Z", "--until", "2026-11-29T09:00:16.483000Z", notes],
        trace: ["--since", "2026-11-29T09:00:08.520000Z", "--until", "2026-11-29T09:00:16.483000Z", notes],
        file: "NOTES-7F3A.trace.json"),
      // --type chooses the log's events; a trace draws every type.
      Case(name: "--type", report: ["--type", "move", notes], trace: [notes], file: "NOTES-7F3A.trace.json"),
      // The automatic window (its first 40 events, seq 0 to 39): the trace ends with it.
      Case(name: "--max-events", report: ["--max-events", "40", notes], trace: ["--to", "39", notes], file: ""),
      Case(
        name: "--max-events in --from/--to", report: ["--from", "10", "--to", "100", "--max-events", "25", notes],
        trace: ["--from", "10", "--to", "34", notes], file: ""),
    ]
    return cases
  }()

  @Test(arguments: cases)
  func thePagesTraceIsTheTraceCommands(_ test: Case) throws {
    let directory = try TemporaryDirectory()
    let page = directory.file("page.html")
    let results = try Binary.runAll([
      (["report", "--trace"] + test.report + ["-o", page], []), (["trace", "--format", "chrome"] + test.trace, []),
    ])
    #expect(results[0].status == results[1].status, "report \(results[0])\ntrace \(results[1])")
    let embedded = try #require(try Self.embedded(Array(try directory.text(page).utf8)))
    let same = embedded.trace == results[1].stdoutBytes
    #expect(
      same,
      "\(test.name): the page's trace has \(embedded.trace.count) bytes, trace writes \(results[1].stdoutBytes.count)")
    #expect(embedded.bytes == results[1].stdoutBytes.count)
    #expect(embedded.encoding == "gzip+base64")
    #expect(embedded.file.hasSuffix(".trace.json"))
    if !test.file.isEmpty { #expect(embedded.file == test.file) }
  }

  @Test func aBrokenJournalsPageCarriesTheSameTraceAsTrace() throws {
    // Format errors (the reader's findings), a finding the checker holds back, and lines after the last event:
    // trace reads batches checked on another thread, the report item by item, and both give the same bytes.
    var lines = try String(contentsOfFile: Self.journals + "notes.legacy.ndjson", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    lines.insert("{\"seq\":", at: 30)
    lines.insert("not json", at: 60)
    lines.append("")
    lines.append("{\"seq\":999999,\"time\":\"2026-11-29T09:59:00.000000Z\",\"type\":\"lifecycle\"}")
    let directory = try TemporaryDirectory()
    let journal = directory.file("broken.ndjson")
    try (lines.joined(separator: "\n") + "\n").write(toFile: journal, atomically: true, encoding: .utf8)
    let page = directory.file("page.html")
    let results = try Binary.runAll([
      (["report", "--trace", journal, "-o", page], []), (["trace", "--format", "chrome", journal], []),
    ])
    #expect(results[0].status == 2 && results[1].status == 2, "report \(results[0])\ntrace \(results[1])")
    let embedded = try #require(try Self.embedded(Array(try directory.text(page).utf8)))
    let same = embedded.trace == results[1].stdoutBytes
    #expect(same, "the page's trace has \(embedded.trace.count) bytes, trace writes \(results[1].stdoutBytes.count)")
  }

  @Test func aChurnSessionsPageCarriesTheSameTraceAsTrace() throws {
    let directory = try TemporaryDirectory()
    let journal = directory.file("churn.ndjson")
    let simulated = try Binary.run(["simulate", "--shape", "churn", "--events", "6000", "--seed", "3", "-o", journal])
    #expect(simulated.status == 0, "\(simulated)")
    let page = directory.file("page.html")
    let results = try Binary.runAll([
      (["report", "--trace", journal, "-o", page], []), (["trace", "--format", "chrome", journal], []),
    ])
    let embedded = try #require(try Self.embedded(Array(try directory.text(page).utf8)))
    let same = embedded.trace == results[1].stdoutBytes
    #expect(same, "the page's trace has \(embedded.trace.count) bytes, trace writes \(results[1].stdoutBytes.count)")
  }

  @Test func standardInputIsNamedByItsSession() throws {
    let journal = try #require(FileManager.default.contents(atPath: Self.journals + "notes.intended.ndjson"))
    let results = try Binary.runAll([
      (["report", "--trace", "-"], Array(journal)), (["trace", "--format", "chrome", "-"], Array(journal)),
    ])
    let embedded = try #require(try Self.embedded(results[0].stdoutBytes))
    #expect(embedded.trace == results[1].stdoutBytes)
    #expect(embedded.file == "NOTES-7F3A.trace.json")
  }

  @Test func theDefaultPageHasNoTrace() throws {
    // The trace is opt-in (--trace): the default page carries no trace block and no link, and --no-trace
    // spells the default; for one run and for two.
    let notes = Self.journals + "notes.legacy.ndjson"
    let a = Self.journals + "bisect/build-07.ndjson"
    let b = Self.journals + "bisect/build-08.ndjson"
    let results = try Binary.runAll([
      (["report", notes], []), (["report", "--no-trace", notes], []), (["report", a, b], []),
      (["report", "--trace", notes], []),
    ])
    for result in results { #expect(result.status == 0, "\(result)") }
    for result in results.prefix(3) {
      #expect(try Self.embedded(result.stdoutBytes) == nil)
      #expect(!result.stdout.contains(#"id="trace-data""#))
      // The script makes `a#trace-download` only from `#trace-data`; no markup carries one either.
      #expect(!result.stdout.contains(#"<a id="trace-download""#))
      #expect(!result.stdout.contains(#"id="trace-download""#))
    }
    #expect(results[0].stdoutBytes == results[1].stdoutBytes, "--no-trace is the default")
    #expect(try Self.embedded(results[3].stdoutBytes) != nil)
    #expect(results[3].stdout.contains(#"id="trace-data""#))
  }

  @Test func theFleetPageTakesNoTrace() throws {
    let results = try Binary.runAll([
      (["report", "--trace", Self.journals], []),
      (["report", "--trace", "--no-trace", Self.journals + "demo.legacy.ndjson"], []),
    ])
    #expect(results[0].status == 64 && results[0].stderr.contains("the fleet page has no trace"), "\(results[0])")
    #expect(results[1].status == 64 && results[1].stderr.contains("--trace and --no-trace"), "\(results[1])")
  }

  @Test(arguments: [
    (["NOTES-7F3A"], "NOTES-7F3A.trace.json"),
    (["D1", "D2"], "D1-vs-D2.trace.json"),
    (["</script><b>"], "_script_b_.trace.json"),
    (["../../etc/passwd"], "_.._etc_passwd.trace.json"),
    ([".hidden"], "hidden.trace.json"),
    (["séance 2"], "s_ance_2.trace.json"),
    ([""], "session.trace.json"),
    ([String(repeating: "x", count: 100)], String(repeating: "x", count: 60) + ".trace.json"),
  ])
  func fileNamesAreSafe(_ names: [String], _ file: String) {
    #expect(ReportTrace.fileName(names) == file)
  }

  @Test func baseNamesDropFoldersAndExtensions() {
    #expect(ReportTrace.baseName(of: "Journals/notes.legacy.ndjson") == "notes.legacy")
    #expect(ReportTrace.baseName(of: "/tmp/a.ndjson.gz") == "a")
    #expect(ReportTrace.baseName(of: "run") == "run")
  }
}
