import Foundation
import Testing

@testable import TestSupport

/// `Projection` gives values and `Rendering` puts them into words: a source of `Projection` that
/// writes a terminal escape, draws with a glyph or builds one of the renderers' sentences fails here.
@Suite struct ModelWordsTests {
  /// What only a renderer writes: an ANSI escape, the styling and glyph types, a check output, box
  /// drawing, arrows and marks.
  static let forbidden =
    [#"\u{1B}"#, "TerminalStyle", "MapRenderer", "LogLine", "Glyphs", "CheckOutput", "conformanceText"]
    + ["─", "│", "┌", "┐", "└", "┘", "═", "║", "╔", "╗", "╚", "╝", "●", "○", "→", "←", "↑", "↓", "▶", "█", "⌈", "≠"]

  /// Sentences of the renderers (log, at, map, diff, a finding and an anomaly of `check`, the
  /// transition a finding names) and a table's column notes (said once, in docs/tables.md).
  static let sentences = [
    "presented by", "\" presenter ", "before any event", "\"legend:", "\"collisions: ", "first divergence",
    "matched by", "not animated", "\\(callback) again", "is not part of the transition",
    "controllers appeared at rest", "model refuses \\(", "model expects", "still linked and alive",
    ") was never allocated", "neighbour is \"", "slot, which holds", "(in move at seq", "(in initial display",
    "nullable: true, \"", "nullable: false, \"", "<testcase", "\"$schema\"", "::error",
  ]

  /// Each source of `Projection` (relative path) with its lines that are not comments.
  static func sources() throws -> [(path: String, code: [Substring])] {
    let root = Repository.root + "/Sources/Projection/"
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }
    return try paths.sorted().map { path in
      let text = try String(contentsOfFile: root + path, encoding: .utf8)
      let code = text.split(separator: "\n").filter { !$0.drop(while: { $0 == " " }).hasPrefix("//") }
      return (path, code)
    }
  }

  @Test func projectionWritesNoEscapeGlyphOrSentence() throws {
    let sources = try Self.sources()
    #expect(sources.count > 50)
    for (path, code) in sources {
      for line in code {
        for word in Self.forbidden + Self.sentences where line.contains(word) {
          Issue.record("Sources/Projection/\(path) writes '\(word)': \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
  }
}
