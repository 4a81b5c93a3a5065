import Foundation
import Testing

@testable import TestSupport

/// A folder stands for every journal below it, links included: nothing skipped in silence,
/// nothing read twice, no loop followed forever.
@Suite struct FolderWalkTests {
  static let journals = CheckJournals.directory

  @Test func linksToJournalsAndFoldersAreFollowedAndReportedWhenTheyLeadNowhere() throws {
    let files = FileManager.default
    let root = TemporaryFiles.directory()
    defer { try? files.removeItem(atPath: root) }
    let fleet = root + "/fleet"
    try files.createDirectory(atPath: fleet + "/sub", withIntermediateDirectories: true)
    try files.createDirectory(atPath: root + "/elsewhere/more", withIntermediateDirectories: true)
    try files.copyItem(atPath: Self.journals + "/notes.intended.ndjson", toPath: fleet + "/a.ndjson")
    try files.copyItem(atPath: Self.journals + "/demo.intended.ndjson", toPath: root + "/elsewhere/b.ndjson")
    try files.copyItem(atPath: Self.journals + "/cycle.intended.ndjson", toPath: root + "/elsewhere/more/c.ndjson")
    // A linked journal, a linked folder, a dangling link, a loop and a second name for a.ndjson.
    try files.createSymbolicLink(atPath: fleet + "/b.ndjson", withDestinationPath: root + "/elsewhere/b.ndjson")
    try files.createSymbolicLink(atPath: fleet + "/more", withDestinationPath: root + "/elsewhere/more")
    try files.createSymbolicLink(atPath: fleet + "/gone.ndjson", withDestinationPath: root + "/nowhere.ndjson")
    try files.createSymbolicLink(atPath: fleet + "/sub/up", withDestinationPath: "..")
    try files.createSymbolicLink(atPath: fleet + "/again.ndjson", withDestinationPath: "a.ndjson")

    let result = try Binary.run(["check", "-q", fleet])
    #expect(result.status == 2, "the dangling link is unreadable: \(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "\(fleet)/a.ndjson: 153 events, 0 errors, 0 warnings",
        "\(fleet)/b.ndjson: 229 events, 0 errors, 0 warnings",
        "\(fleet)/more/c.ndjson: 131 events, 0 errors, 0 warnings",
        "total: 4 files, 513 events, 0 errors, 0 warnings, 1 unreadable",
      ])
    #expect(result.stderr.contains("\(fleet)/gone.ndjson: cannot open"))
    #expect(result.stderr.contains("\(fleet)/sub/up: a link to a folder already read (a loop): skipped"))
    #expect(result.stderr.contains("\(fleet)/again.ndjson is the same file as \(fleet)/a.ndjson: read once"))

    let stats = try Binary.run(["stats", "--json", fleet + "/more", fleet + "/b.ndjson"])
    #expect(stats.status == 0, "\(stats)")
    #expect(stats.stdout.contains(#""journals":2"#), "\(stats.stdout.prefix(300))")
  }
}
