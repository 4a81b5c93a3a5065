import Journal
import Projection
import Testing

@testable import spatial_replay

/// The README and docs/ say what the tool does, and stand on their own.
@Suite struct DocsTests {
  static let root = Repository.root

  static func text(_ relative: String) throws -> String {
    String(decoding: try TemporaryDirectory().read(root + "/" + relative), as: UTF8.self)
  }

  @Test func theReadmeNamesTheRulesTheLegacyRecordingShows() throws {
    let readme = try Self.text("README.md")
    let result = try Binary.run(["check", "--json", CheckJournals.directory + "/notes.legacy.ndjson"])
    let rules = Set(
      result.stdout.split(separator: "\n").compactMap { line -> String? in
        guard !line.contains(#""summary":true"#), let start = line.range(of: #""rule":""#) else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
      })
    try #require(!rules.isEmpty)
    let start = try #require(readme.range(of: "in `notes.legacy` the legacy"))
    let sentence = readme[start.lowerBound...].prefix { $0 != ";" }
    let named = Set(
      sentence.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    #expect(named.subtracting(["notes.legacy"]) == rules, "README names \(named), check finds \(rules)")
  }

  @Test func everyHunkKindIsListed() throws {
    let readme = try Self.text("README.md")
    let diff = try Self.text("docs/diff.md")
    let help = DiffCommand.help
    for kind in HunkKind.allCases {
      #expect(readme.contains(kind.rawValue), "README misses \(kind)")
      #expect(diff.contains("| `\(kind.rawValue)` |"), "docs/diff.md misses \(kind)")
      #expect(help.contains("  \(kind.rawValue) "), "diff --help misses \(kind)")
    }
  }

  @Test func theJqRecipeCountsFindingsOnly() throws {
    let readme = try Self.text("README.md")
    #expect(readme.contains("jq -r 'select(.rule) | .rule'"))
    #expect(!readme.contains("| jq -r .rule |"))
  }

  @Test(arguments: [
    "README.md", "docs/bisect.md", "docs/check.md", "docs/cli.md", "docs/diff.md", "docs/hardening.md",
    "docs/journal-format.md", "docs/model.md", "docs/tables.md", "docs/trace.md",
  ])
  func theDocsStandOnTheirOwn(_ file: String) throws {
    let text = try Self.text(file)
    #expect(!text.contains("../shared"), "\(file) sends readers outside the repository")
    #expect(!text.contains("shared/spec"), "\(file) sends readers outside the repository")
  }

  @Test func everyRuleIsInCheckHelpAndTheDocs() throws {
    let help = CheckCommand.help
    let model = try Self.text("docs/model.md")
    let format = try Self.text("docs/journal-format.md")
    for rule in RuleInfo.all {
      #expect(help.contains(rule.id), "check --help misses \(rule.id)")
      #expect((rule.kind == .format ? format : model).contains("`\(rule.id)`"), "the docs miss \(rule.id)")
    }
  }
}
