import Projection
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// docs/tables.md documents every column of every table, in order, with its type.
@Suite struct ExportDocsTests {
  /// The rows `| `name` | type | null | meaning |` of the section that starts with `heading`.
  static func documentedColumns(under heading: String) throws -> [(name: String, type: String, nullable: Bool)] {
    let text = try String(decoding: TemporaryDirectory().read(Repository.root + "/docs/tables.md"), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0 == heading }, "no section \(heading)")
    var columns: [(String, String, Bool)] = []
    for line in lines[(start + 1)...] {
      if line.hasPrefix("## ") { break }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: " ") }
      guard cells.count >= 4, cells[0].hasPrefix("`") else { continue }
      columns.append((String(cells[0].dropFirst().dropLast()), cells[1], cells[2] == "yes"))
    }
    return columns
  }

  @Test(arguments: [("## Common columns", nil)] + Table.allCases.map { ("## `\($0)`", $0) })
  func everyColumnIsDocumentedInOrderWithItsType(_ heading: String, _ table: Table?) throws {
    let documented = try Self.documentedColumns(under: heading)
    let columns = table?.ownColumns ?? Table.commonColumns
    #expect(documented.map(\.name) == columns.map(\.name))
    #expect(documented.map(\.type) == columns.map(\.kind.rawValue))
    #expect(documented.map(\.nullable) == columns.map(\.nullable))
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}
