import Foundation
import Testing

@testable import Report
@testable import TestSupport

/// The page's script and styles are the files in `Sources/Report/Assets/`:
/// the embedded copy (`ReportAssets+Files.swift`, written by `Assets/embed.sh`)
/// is theirs byte for byte, and the script names only positions `ReportData` declares.
@Suite struct ReportAssetsTests {
  static let folder = Repository.root + "/Sources/Report/Assets/"

  @Test(arguments: [("report.js", ReportAssets.scriptFile), ("report.css", ReportAssets.styleFile)])
  func embeddedFilesAreCurrent(_ name: String, _ embedded: [UInt8]) throws {
    let file = try #require(FileManager.default.contents(atPath: Self.folder + name), "\(name) is missing")
    #expect(
      [UInt8](file) == embedded,
      "ReportAssets+Files.swift is stale: run bash Sources/Report/Assets/embed.sh")
  }

  /// Every `ROW.phase`-like name the script reads is a case of the matching `ReportData` enum.
  @Test func scriptReadsDeclaredPositions() throws {
    let script = String(decoding: ReportAssets.scriptFile, as: UTF8.self)
    let declared: [String: [String]] = [
      "ROW": ReportData.Row.allCases.map { "\($0)" },
      "STATUS": ReportData.Status.allCases.map { "\($0)" },
      "TRANSITION": ReportData.Transition.allCases.map { "\($0)" },
      "FINDING": ReportData.Finding.allCases.map { "\($0)" },
      "PLACEMENT": ReportData.Placement.allCases.map { "\($0)" },
      "DETACHED": ReportData.Detached.allCases.map { "\($0)" },
      "EDGE": ReportData.Edge.allCases.map { "\($0)" },
    ]
    let pattern = try NSRegularExpression(pattern: #"\b(ROW|STATUS|TRANSITION|FINDING|PLACEMENT|DETACHED|EDGE)\.(\w+)"#)
    let range = NSRange(script.startIndex..., in: script)
    var uses = 0
    for match in pattern.matches(in: script, range: range) {
      let table = String(script[Range(match.range(at: 1), in: script)!])
      let member = String(script[Range(match.range(at: 2), in: script)!])
      #expect(declared[table]?.contains(member) == true, "report.js reads \(table).\(member), which ReportData lacks")
      uses += 1
    }
    #expect(uses > 20)
    #expect(ReportAssets.script.hasPrefix(ReportData.javaScript))
    #expect(ReportData.javaScript.contains("const ROW = Object.freeze({ lane: 0, phase: 1,"))
    // No positional reads of the block's arrays are left (`f[7]`, `s.t[3]`).
    #expect(!script.contains("f[7]") && !script.contains("s.t[3]") && !script.contains("row[1]"))
  }
}
