import Foundation
import Journal
import Projection
import Rendering
import Testing

@testable import TestSupport

/// `--ascii`: one ``Glyphs`` value for every renderer, and nothing but ASCII
/// in the output of every command that draws arrows, boxes or marks.
@Suite struct GlyphsTests {
  /// The bytes that are not printable ASCII (or a line end), as text for a message.
  static func nonASCII(_ bytes: some Sequence<UInt8>) -> String {
    var found: [String] = []
    var line = 1
    for byte in bytes {
      if byte == 0x0A { line += 1 }
      if byte >= 0x80 || (byte < 0x20 && byte != 0x0A) {
        found.append("line \(line): byte \(byte)")
        if found.count == 5 { break }
      }
    }
    return found.joined(separator: "; ")
  }

  @Test func asciiGlyphsAreASCII() {
    let g = Glyphs.ascii
    let text =
      [g.arrow, g.range, g.through, String(g.ellipsis), g.more, g.ceilingOpen, g.ceilingClose, g.separator]
      + [g.columns, g.differing, String(g.rule), g.cursor, g.caret]
    #expect(Self.nonASCII(text.joined().utf8) == "")
    #expect(Glyphs(ascii: true) == .ascii)
    #expect(Glyphs(ascii: false) == .unicode)
    #expect(Glyphs.unicode.arrow == "→", "without --ascii the output stays as it was")
  }

  @Test func sentencesTakeTheGlyphs() {
    let move = Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true)
    #expect(Event.move(move).sentence(.ascii) == "home -> notes (left, pan, animated)")
    #expect(Event.move(move).sentence == "home → notes (left, pan, animated)")
    #expect(Event.link(from: "home", direction: .up, to: "compose").sentence(.ascii) == "link home up -> compose")
  }

  /// Every golden file of an ASCII rendering (`*.ascii.txt`, `step/ascii.txt`) holds only ASCII.
  @Test func asciiGoldenFilesArePureASCII() throws {
    let directory = GoldenFile.directory
    let names = try #require(FileManager.default.subpaths(atPath: directory)).filter {
      ($0 as NSString).lastPathComponent.contains("ascii")
    }
    #expect(names.count >= 3, "the ASCII golden files: \(names)")
    for name in names {
      let bytes = try #require(TemporaryFiles.read(directory + name), "cannot read \(name)")
      #expect(!bytes.isEmpty, "\(name) is empty")
      #expect(Self.nonASCII(bytes) == "", "\(name) has bytes outside ASCII")
    }
  }

  static let journals = Repository.journals + "/"

  /// Each command that prints arrows or boxes, on the legacy notes run (which has
  /// moves, links and lifecycle findings), with the exit status it must end with.
  static let commands: [(arguments: [String], status: Int32)] = {
    let legacy = journals + "notes.legacy.ndjson"
    let intended = journals + "notes.intended.ndjson"
    let builds = (1...9).map { journals + "bisect/build-0\($0).ndjson" }
    return [
      (["log", legacy], 0),
      (["at", legacy, "30"], 0),
      (["map", "--width", "60", legacy], 0),
      (["diff", intended, legacy], 1),
      (["check", legacy], 1),
      (["check", "--model", legacy], 1),
      (["step", "--keys", "] ] ] f f H", "--size", "100x40", legacy], 0),
      (["step", "--keys", "d d l", "--size", "120x40", intended, legacy], 0),
      (["tail", "-n", "40", legacy], 0),
      (["bisect"] + builds, 1),
      (["bisect", "--check"] + builds, 1),
    ]
  }()

  @Test(arguments: 0..<commands.count)
  func asciiOutputIsPureASCII(_ k: Int) throws {
    let (arguments, status) = Self.commands[k]
    let unicode = try Binary.run(arguments)
    #expect(unicode.status == status, "\(arguments): \(unicode)")
    #expect(Self.nonASCII(unicode.stdoutBytes) != "", "\(arguments) draws Unicode by default")
    var withASCII = arguments
    withASCII.insert("--ascii", at: 1)
    let ascii = try Binary.run(withASCII)
    #expect(ascii.status == status, "\(withASCII): \(ascii)")
    #expect(!ascii.stdoutBytes.isEmpty)
    #expect(Self.nonASCII(ascii.stdoutBytes) == "", "\(withASCII) printed:\n\(ascii.stdout)")
    #expect(Self.nonASCII(ascii.stderrBytes) == "", "\(withASCII) printed on stderr:\n\(ascii.stderr)")
    #expect(ascii.stdout.split(separator: "\n").count == unicode.stdout.split(separator: "\n").count)
  }

  /// Journal text cut to fit (ids, classes, labels over 64 characters) ends
  /// with the glyphs' mark: `…` by default, `~` with `--ascii`.
  @Test func cutJournalTextEndsWithTheGlyphsMark() throws {
    let long = String(repeating: "c", count: 80)
    let dir = try TemporaryDirectory()
    let journal = try dir.write(
      "long.ndjson",
      """
      {"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"s"}
      {"seq":1,"time":"2026-01-01T00:00:00.001000Z","type":"alloc","controller":"home","class":"H"}
      {"seq":2,"time":"2026-01-01T00:00:00.002000Z","type":"alloc","controller":"\(long)","class":"\(long)"}
      {"seq":3,"time":"2026-01-01T00:00:00.003000Z","type":"root","controller":"home"}
      {"seq":4,"time":"2026-01-01T00:00:00.004000Z","type":"link","from":"home","direction":"left","to":"\(long)"}
      {"seq":5,"time":"2026-01-01T00:00:00.005000Z","type":"move","from":"home","to":"\(long)","direction":"left",\
      "trigger":"pan","animated":true}
      {"seq":6,"time":"2026-01-01T00:00:00.006000Z","type":"mark","label":"\(long)"}

      """)
    let other = try dir.write(
      "other.ndjson", try dir.text(journal).replacingOccurrences(of: #""class":"\#(long)""#, with: #""class":"X""#))
    let cut = String(repeating: "c", count: 64)
    let commands = [
      ["log", journal], ["at", journal, "6"], ["check", journal], ["tail", journal],
      ["diff", "--include", "alloc", other, journal],
      ["step", "--keys", "G f", journal],
    ]
    for arguments in commands {
      let unicode = try Binary.run(arguments)
      #expect(unicode.stdout.contains(cut + "…"), "\(arguments): \(unicode)")
      var withASCII = arguments
      withASCII.insert("--ascii", at: 1)
      let ascii = try Binary.run(withASCII)
      #expect(ascii.stdout.contains(cut + "~"), "\(withASCII): \(ascii)")
      #expect(Self.nonASCII(ascii.stdoutBytes) == "", "\(withASCII) printed:\n\(ascii.stdout)")
      #expect(Self.nonASCII(ascii.stderrBytes) == "", "\(withASCII) printed on stderr:\n\(ascii.stderr)")
    }
  }

  @Test func asciiIsForCheckTextOnly() throws {
    let result = try Binary.run(["check", "--ascii", "--format", "json", Self.journals + "notes.legacy.ndjson"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--ascii is for the text format"))
  }
}
