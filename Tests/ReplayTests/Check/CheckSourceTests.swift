import Foundation
import Journal
import Testing

@testable import TestSupport

/// A finding of an event that carries `source` (the app's call site) is located at that
/// Swift line as well as at the journal's: text, JSON, SARIF and GitHub outputs.
@Suite struct CheckSourceTests {
  /// `Journals/notes.legacy.ndjson` with every event's call site set to `Notes/Screen.swift:<seq + 100>`.
  static func journalWithCallSites(in dir: TemporaryDirectory) throws -> String {
    let text = try String(contentsOfFile: Repository.journals + "/notes.legacy.ndjson", encoding: .utf8)
    var out = ""
    for line in text.split(separator: "\n") {
      var record = try RecordDecoder.decode(String(line))
      if record.seq > 0 { record.source = "Notes/Screen.swift:\(record.seq + 100)" }
      out += record.ndjson + "\n"
    }
    return try dir.write("notes.ndjson", out)
  }

  @Test func everyFindingNamesTheCallSiteOfItsEvent() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.journalWithCallSites(in: dir)
    let json = try Binary.run(["check", "--json", path])
    #expect(json.status == 1)
    let findings = json.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.filter { $0["summary"] == nil }
    #expect(findings.count == 38)
    for finding in findings {
      let seq = try #require(finding["seq"] as? Int)
      #expect(finding["source"] as? String == "Notes/Screen.swift:\(seq + 100)", "\(finding)")
    }
    // Every finding names the call site of the event on its line (a modal leak's among them).
    let journal = try dir.text(path).split(separator: "\n")
    for finding in findings {
      let line = try #require(finding["line"] as? Int)
      let source = try #require(finding["source"] as? String)
      #expect(journal[line - 1].hasSuffix(#","source":"\#(source)"}"#))
    }

    let text = try Binary.run(["check", path])
    let lines = text.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
    #expect(lines.count == 38)
    for (line, finding) in zip(lines, findings) {
      #expect(line.hasSuffix(" (recorded at Notes/Screen.swift:\(finding["seq"] as! Int + 100))"), "\(line)")
    }
  }

  @Test func sarifLocatesAFindingInTheAppsCodeFirstThenInTheJournal() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.journalWithCallSites(in: dir)
    for root in [nil, "Sources"] as [String?] {
      let run = try Binary.run(["check", "--format", "sarif", path] + (root.map { ["--source-root", $0] } ?? []))
      #expect(run.status == 1)
      let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      let runs = try #require(log["runs"] as? [[String: Any]])
      let results = try #require(runs.first?["results"] as? [[String: Any]])
      #expect(results.count == 38)
      for result in results {
        let locations = try #require(result["locations"] as? [[String: Any]])
        #expect(locations.count == 2)
        let swift = try #require(locations[0]["physicalLocation"] as? [String: Any])
        let journal = try #require(locations[1]["physicalLocation"] as? [String: Any])
        let seq = try #require((result["properties"] as? [String: Any])?["seq"] as? Int)
        #expect(
          (swift["artifactLocation"] as? [String: Any])?["uri"] as? String == (root.map { $0 + "/" } ?? "")
            + "Notes/Screen.swift")
        #expect((swift["region"] as? [String: Any])?["startLine"] as? Int == seq + 100)
        #expect(((journal["artifactLocation"] as? [String: Any])?["uri"] as? String)?.hasSuffix("notes.ndjson") == true)
      }
    }
  }

  @Test func githubAnnotatesTheSwiftLineAndNamesTheJournalLine() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.journalWithCallSites(in: dir)
    let run = try Binary.run(["check", "--format", "github", "--source-root", "App/Sources", path])
    let commands = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
    #expect(commands.count == 38)
    for command in commands {
      #expect(command.hasPrefix("::error file=App/Sources/Notes/Screen.swift,line="), "\(command)")
      #expect(command.contains("notes.ndjson%3A") || command.contains("notes.ndjson:"), "\(command)")
    }
  }

  @Test func sourceRootIsForTheFormatsThatLocateInTheAppsCode() throws {
    let run = try Binary.run(["check", "--source-root", "Sources", Repository.journals + "/notes.legacy.ndjson"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--source-root Sources is for --format sarif or github"))
  }
}

/// `log`, the report and the stepper show an event's call site too.
@Suite struct CallSiteDisplayTests {
  @Test func logEndsAnEventsLineWithItsCallSite() throws {
    let dir = try TemporaryDirectory()
    let path = try CheckSourceTests.journalWithCallSites(in: dir)
    let run = try Binary.run(["log", path])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 144)
    #expect(!lines[0].contains("recorded at"))
    for (seq, line) in lines.enumerated().dropFirst() {
      #expect(line.hasSuffix(" (recorded at Notes/Screen.swift:\(seq + 100))"), "\(line)")
    }
  }

  @Test func theReportCarriesEachFindingsCallSite() throws {
    let dir = try TemporaryDirectory()
    let path = try CheckSourceTests.journalWithCallSites(in: dir)
    let page = dir.file("report.html")
    let run = try Binary.run(["report", path, "-o", page])
    #expect(run.status == 0 || run.status == 1, "\(run)")
    let html = try dir.text(page)
    let check = try Binary.run(["check", "--json", path])
    let sources = check.stdout.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: #""source":""#) else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    #expect(sources.count == 38)
    for source in Set(sources) { #expect(html.contains("\"\(source)\""), "\(source)") }
  }
}
