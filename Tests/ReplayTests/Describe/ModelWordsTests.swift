import Foundation
import Testing

@testable import TestSupport

/// `Projection` gives values and `Rendering` puts them into words: a source of `Projection` that
/// writes a terminal escape, draws with a glyph or builds one of the renderers' sentences fails here.
@Suite struct ModelWordsTests {
  /// Files of `Projection` that still hold words of their own area (a finding's sentence, the
  /// stats' text, a table's column notes, the glyph set those use), listed so that no other file
  /// gains any; an entry goes when its words live in `Rendering`.
  static let holdingWords: Set<String> = [
    "Analytics/Table.swift",
    "Check/Conformance/Event+ConformanceText.swift",
    "Check/Finding+Text.swift",
    "Describe/Glyphs.swift",
    "State/Anomaly+Text.swift",
  ]

  /// What only a renderer writes: an ANSI escape, the styling type, box drawing, arrows and marks.
  static let forbidden =
    [#"\u{1B}"#, "TerminalStyle", "MapRenderer", "LogLine"]
    + ["─", "│", "┌", "┐", "└", "┘", "═", "║", "╔", "╗", "╚", "╝", "●", "○", "→", "←", "↑", "↓", "▶", "█", "⌈", "≠"]

  /// Sentences of the renderers (log, at, map, diff).
  static let sentences = [
    "presented by", "\" presenter ", "before any event", "\"legend:", "\"collisions: ", "first divergence",
    "matched by", "not animated",
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
    for (path, code) in sources where !Self.holdingWords.contains(path) {
      for line in code {
        for word in Self.forbidden + Self.sentences where line.contains(word) {
          Issue.record("Sources/Projection/\(path) writes '\(word)': \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
  }

  @Test func theFilesHoldingWordsExist() throws {
    let paths = Set(try Self.sources().map(\.path))
    for path in Self.holdingWords { #expect(paths.contains(path), "\(path) is gone: remove it from holdingWords") }
  }
}
