import Foundation
import Projection
import Rendering
import Testing

@testable import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// docs/tables.md documents every column of every table, in order, with its type and
/// its DuckDB, Spark and BigQuery types as `export --schema` prints them.
@Suite struct ExportDocsTests {
  struct DocumentedColumn: Equatable {
    var name: String
    var type: String
    var nullable: Bool
    var engines: [String]
  }

  /// The rows `| `name` | type | null | `DuckDB` | `Spark` | `BigQuery` | meaning |` of the
  /// section that starts with `heading`.
  static func documentedColumns(under heading: String) throws -> [DocumentedColumn] {
    let text = try String(decoding: TemporaryDirectory().read(Repository.root + "/docs/tables.md"), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0 == heading }, "no section \(heading)")
    var columns: [DocumentedColumn] = []
    for line in lines[(start + 1)...] {
      if line.hasPrefix("## ") { break }
      // `|` inside a cell is written `\|`; none of the first six cells has one.
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: " ") }
      guard cells.count >= 7, cells[0].hasPrefix("`") else { continue }
      let unquoted = cells[0...5].map {
        String($0.dropFirst($0.hasPrefix("`") ? 1 : 0).dropLast($0.hasSuffix("`") ? 1 : 0))
      }
      columns.append(
        DocumentedColumn(
          name: unquoted[0], type: unquoted[1], nullable: unquoted[2] == "yes", engines: Array(unquoted[3...5])))
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

  /// The engines' types of the tables of docs/tables.md are those `export --schema` prints.
  @Test(arguments: Table.allCases)
  func documentedEngineTypesAreThoseOfTheSchemaCommand(_ table: Table) throws {
    let result = try Binary.run(["export", "--schema", table.rawValue])
    #expect(result.status == 0, "\(result)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
    #expect(object["table"] as? String == table.rawValue)
    let schema = try #require(object["columns"] as? [[String: Any]])
    let printed = schema.map { column in
      DocumentedColumn(
        name: column["name"] as? String ?? "?", type: column["type"] as? String ?? "?",
        nullable: column["nullable"] as? Bool ?? false,
        engines: ["duckdb", "spark", "bigquery"].map { column[$0] as? String ?? "?" })
    }
    let documented =
      try Self.documentedColumns(under: "## Common columns")
      + Self.documentedColumns(under: "## `\(table)`")
    #expect(printed == documented)
    #expect(printed.count == table.columns.count)
  }

  /// One line per column, so that a diff of two schemas reads column by column.
  @Test func theSchemaHasOneColumnALine() {
    let lines = Table.visits.schemaJSON.split(separator: "\n")
    #expect(lines.count == Table.visits.columns.count + 2)
    #expect(
      lines[1]
        == #"{"name":"session","type":"string","nullable":true,"duckdb":"VARCHAR","spark":"string","bigquery":"STRING"},"#
    )
    #expect(lines.last == "]}")
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}
