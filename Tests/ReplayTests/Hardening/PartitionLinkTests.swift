import Foundation
import Testing

@testable import TestSupport

/// `export --partition` never writes through a symbolic link that leads out of its output
/// folder: a partition folder that is a link to the folder of an input (whose journal has the
/// partition file's name) would otherwise replace the journal with a table.
@Suite struct PartitionLinkTests {
  @Test func aLinkedPartitionFolderIsRefusedAndTheInputKept() throws {
    let files = FileManager.default
    let root = TemporaryFiles.directory()
    defer { try? files.removeItem(atPath: root) }
    try files.createDirectory(atPath: root + "/in", withIntermediateDirectories: true)
    try files.createDirectory(atPath: root + "/lake", withIntermediateDirectories: true)
    let input = root + "/in/part.ndjson"
    try files.copyItem(atPath: CheckJournals.directory + "/notes.intended.ndjson", toPath: input)
    let before = try Data(contentsOf: URL(fileURLWithPath: input))
    try files.createSymbolicLink(atPath: root + "/lake/session=NOTES-7F3A", withDestinationPath: root + "/in")

    let result = try Binary.run(["export", "--table", "events", "--partition", "session", "-o", root + "/lake", input])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("a symbolic link leads out of the output folder"), "\(result.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "the input journal is untouched")

    // A partition folder that is a link inside the output folder is written as usual.
    try files.removeItem(atPath: root + "/lake/session=NOTES-7F3A")
    try files.createDirectory(atPath: root + "/lake/real", withIntermediateDirectories: true)
    try files.createSymbolicLink(atPath: root + "/lake/session=NOTES-7F3A", withDestinationPath: root + "/lake/real")
    let inside = try Binary.run(["export", "--table", "events", "--partition", "session", "-o", root + "/lake", input])
    #expect(inside.status == 0, "\(inside)")
    #expect(files.fileExists(atPath: root + "/lake/real/part.ndjson"))
  }
}

/// `export --table events --partition device`: every row of a journal goes to its header's
/// device, while the table's own `device` column is the event's key, on the header's row only
/// (as DuckDB reads the journal's lines); docs/tables.md says which is which.
@Suite struct PartitionDeviceTests {
  @Test func aJournalsRowsGoToItsHeadersDeviceAndTheColumnStaysTheEvents() throws {
    let dir = try TemporaryDirectory()
    let input = try dir.write(
      "j.ndjson",
      #"{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"D","device":"iPad"}"# + "\n"
        + #"{"seq":1,"time":"2026-01-01T00:00:01.000000Z","type":"mark","label":"a"}"# + "\n"
        + #"{"seq":2,"time":"2026-01-01T00:00:02.000000Z","type":"mark","label":"b"}"# + "\n")
    let lake = dir.file("lake")
    let result = try Binary.run(["export", "--table", "events", "--partition", "device", "-o", lake, input])
    #expect(result.status == 0, "\(result)")
    let rows = try dir.text(lake + "/device=iPad/part.ndjson").split(separator: "\n")
    #expect(rows.count == 3, "every row in the header's device's folder")
    #expect(rows.filter { $0.contains(#""device":"iPad""#) }.count == 1, "the column on the header's row only")
    #expect(rows.filter { $0.contains(#""device":null"#) }.count == 2)
  }
}
