import Foundation
import Testing

/// `export --partition` never writes through a symbolic link that leads out of its output
/// folder: a partition folder that is a link to the folder of an input (whose journal has the
/// partition file's name) would otherwise replace the journal with a table.
@Suite struct PartitionLinkTests {
  @Test func aLinkedPartitionFolderIsRefusedAndTheInputKept() throws {
    let files = FileManager.default
    let root = NSTemporaryDirectory() + "spatial-replay-links-\(UUID().uuidString)"
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
