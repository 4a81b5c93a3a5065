import Journal
import Projection
import Testing

@testable import TestSupport
@testable import spatial_replay

#if canImport(Glibc)
  import Glibc
#endif

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

  /// The README's install step puts the manual page and the shell completions where man and the
  /// shells look for them (`man spatial-replay` found nothing): its lines after the build, run as
  /// written on a fresh home with this build's binary in place of the release one.
  @Test func theInstallStepPutsTheManPageAndTheCompletionsWhereTheyAreFound() throws {
    let readme = try Self.text("README.md")
    let section = try #require(readme.range(of: "\n## Install\n"))
    let open = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
    let close = try #require(readme.range(of: "\n```", range: open.upperBound..<readme.endIndex))
    let lines = readme[open.upperBound..<close.lowerBound].split(separator: "\n")
    #expect(lines.first?.hasPrefix("swift build -c release && ") == true, "\(lines)")
    let script = #"""
      set -e
      bin="$1"; work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
      export HOME="$work/home"; mkdir -p "$HOME/.local/bin"; cp "$bin" "$HOME/.local/bin/spatial-replay"
      export PATH="$HOME/.local/bin:/usr/bin:/bin"; unset MANPATH XDG_DATA_HOME
      cd "$HOME"
      bash -euo pipefail -c "$2"
      for file in .local/share/man/man1/spatial-replay.1 .local/share/bash-completion/completions/spatial-replay \
        .local/share/zsh/site-functions/_spatial-replay .config/fish/completions/spatial-replay.fish; do
        test -s "$file" && echo "installed $file"
      done
      if command -v man >/dev/null; then man -w spatial-replay | sed "s|^$HOME/|man finds |"; fi
      """#
    let outcome = try Subprocess.run(
      ["-c", script, "sh", Binary.path, lines.dropFirst().joined(separator: "\n")], executable: "/bin/sh")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let out = outcome.stdoutText.split(separator: "\n").map(String.init)
    for file in [
      ".local/share/man/man1/spatial-replay.1", ".local/share/bash-completion/completions/spatial-replay",
      ".local/share/zsh/site-functions/_spatial-replay", ".config/fish/completions/spatial-replay.fish",
    ] {
      #expect(out.contains("installed " + file), "\(outcome)")
    }
    if access("/usr/bin/man", X_OK) == 0 {
      #expect(out.contains("man finds .local/share/man/man1/spatial-replay.1"), "\(outcome)")
    }
    #expect(readme.contains("fpath=(~/.local/share/zsh/site-functions $fpath)"), "zsh needs the line for ~/.zshrc")
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
    "docs/journal-format.md", "docs/model.md", "docs/regression-tests.md", "docs/tables.md", "docs/trace.md",
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
