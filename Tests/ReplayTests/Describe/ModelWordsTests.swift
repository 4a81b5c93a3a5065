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
  /// transition a finding names), a table's column notes (said once, in docs/tables.md), the
  /// navigator's and the scenario's refusals, a script's notes, a rule's summary and ordinals.
  static let sentences =
    [
      "presented by", "\" presenter ", "before any event", "\"legend:", "\"collisions: ", "first divergence",
      "matched by", "not animated", "\\(callback) again", "is not part of the transition",
      "controllers appeared at rest", "model refuses \\(", "model expects", "still linked and alive",
      ") was never allocated", "neighbour is \"", "slot, which holds", "(in move at seq", "(in initial display",
      "nullable: true, \"", "nullable: false, \"", "<testcase", "\"$schema\"", "::error",
    ]
    + [
      "did you mean", "before any root", "already exists", "was deallocated", "cannot link", "cannot present",
      "cannot deallocate", "is not reachable", "cannot be the root", "ids are never reused", "would make a line",
      "given twice", "is reserved", "needs a number", "needs a whole", "needs whole", "must be a number",
      "takes the clock past", "is longer than", "unterminated quote", "unknown escape", "outside quotes",
      "invalid UTF-8", "expected a command", "unknown command", "must be the first command", "missing arguments",
      "too many arguments", "unknown option", "after the options", "unknown direction", "must be true or false",
      "empty mark key", "empty controller id", "empty class", "FROM DIRECTION", "[animated=true|false]",
      ": left out", "a script cannot say it", "the model refuses it", "not an input", "unknown rule",
      "damaged snapshot", "an appearance callback", "a move whose", "\"rd\"", "\"nd\"",
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
