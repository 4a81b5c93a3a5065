import Journal
import Projection
import Testing

@Suite struct MapRendererTests {
  func render(_ journal: FixtureJournal, _ options: MapRenderer.Options = .init()) -> String {
    var out = ""
    MapRenderer(options: options).render(MapLayout(state: journal.state), to: &out)
    return out
  }

  /// A cell holding two controllers (h, g on (0,1)), a stretched link (b down
  /// c, a cycle that does not close on the grid) and a detached pair.
  static var collisions: FixtureJournal {
    var j = FixtureJournal(session: "COLLIDE")
    j.alloc("a", "b", "c", "d", "e", "f", "g", "h", "x", "y")
    j.show("a")
    j.link("a", .right, "b")
    j.link("b", .down, "c")
    j.link("c", .left, "d")
    j.link("d", .down, "a")
    j.link("a", .left, "e")
    j.link("e", .down, "f")
    j.link("f", .right, "g")
    j.link("a", .down, "h")
    j.link("x", .left, "y")
    return j
  }

  /// `text` without its `ESC [ ... m` sequences.
  static func strippingANSI(_ text: String) -> String {
    var out = ""
    var inEscape = false
    for character in text {
      if inEscape {
        if character == "m" { inEscape = false }
      } else if character == "\u{1B}" {
        inEscape = true
      } else {
        out.append(character)
      }
    }
    return out
  }

  @Test func unicodeShowsFocusModalAndDoubleEdge() {
    let text = render(.notesApp)
    GoldenFile.check(text, "map-notes.unicode.txt")
    #expect(text.contains("║[compose]* ║"))
    #expect(text.contains("╥"))
    #expect(text.contains("detached (1): help"))
  }

  @Test func asciiUsesOnlyASCII() {
    let text = render(.notesApp, .init(glyphs: .ascii))
    GoldenFile.check(text, "map-notes.ascii.txt")
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    #expect(text.contains("[compose]*"))
  }

  @Test func colourHighlightsTheFocusAndStaysAligned() {
    let text = render(.notesApp, .init(color: true))
    GoldenFile.check(text, "map-notes.color.txt")
    #expect(text.contains("\u{1B}[1;7m[compose]"))
    #expect(Self.strippingANSI(text) == render(.notesApp))
  }

  @Test func demoPathFitsEightyColumns() {
    let text = render(.demoPath(focusLast: true))
    GoldenFile.check(text, "map-demo.unicode.txt")
    #expect(!text.contains("cropped"))
    #expect(!text.contains("out of view"))
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    #expect(text.contains("legend: [id] focus, * modal, ─│ link, ═║ 2+ fingers, +N shared cell, ? stretched\n"))
  }

  @Test(arguments: [(true, "map-demo.cropped-end.txt"), (false, "map-demo.cropped-root.txt")])
  func narrowWidthCropsAroundTheFocus(focusLast: Bool, golden: String) {
    let text = render(.demoPath(focusLast: focusLast), .init(width: 40, glyphs: .ascii))
    GoldenFile.check(text, golden)
    let lines = text.split(separator: "\n")
    #expect(lines.prefix { !$0.hasPrefix("cropped") }.allSatisfy { $0.count <= 40 })
    #expect(text.contains(focusLast ? "[n16]" : "[n00]"))
    #expect(
      text.contains(
        focusLast ? "cropped around the focus: x 1..4 of -1..4" : "cropped around the focus: x -1..2 of -1..4"))
  }

  @Test func collisionsAndDetachedAreDrawnAndListed() {
    let text = render(Self.collisions)
    GoldenFile.check(text, "map-collisions.unicode.txt")
    #expect(text.contains("+1"))
    #expect(text.contains("?"))
    #expect(text.contains("collisions (2):\n  cell (0,1): h, g\n  link b down → c: (1,0) to (1,-1), not one step\n"))
    #expect(text.hasSuffix("detached (2): x, y\n"))
  }

  /// On a shared cell the focus is drawn, whichever controller was placed there first.
  @Test func theFocusIsDrawnOnASharedCell() {
    var j = FixtureJournal.sharedCell
    #expect(
      render(j, .init(glyphs: .ascii)).contains(" e    |"), "e, placed first, is drawn while the focus is elsewhere")
    j.go("a", .down, "b")
    j.go("b", .right, "c")
    j.go("c", .up, "d")
    let text = render(j, .init(glyphs: .ascii))
    #expect(text.contains("[d]"), "\(text)")
    #expect(!text.contains(" e    |"), "\(text)")
    #expect(text.contains("+1"))
  }

  @Test func emptyMapSaysSo() {
    var j = FixtureJournal()
    j.alloc("a")
    #expect(render(j) == "(nothing to draw: no root)\ncollisions: none\ndetached (1): a\n")
  }

  @Test func longAndHostileIDsAreEscapedAndTruncated() {
    var j = FixtureJournal()
    j.alloc("a-very-long-controller-id", "evil\u{1B}[2J", "漢字漢字")
    j.show("a-very-long-controller-id")
    j.link("a-very-long-controller-id", .right, "evil\u{1B}[2J")
    j.link("a-very-long-controller-id", .down, "漢字漢字")
    let text = render(j, .init(idWidth: 8))
    GoldenFile.check(text, "map-escaped.unicode.txt")
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("[…ller-id]"))
    #expect(text.contains(" …{1B}[2J "))
    #expect(text.contains(" 漢字漢字 "))
  }

  /// Ids as the recording guide makes them (`Type#n`) are drawn whole when the width allows.
  @Test func wholeIDsWhenTheyFit() {
    var j = FixtureJournal()
    let ids: [ControllerID] = [
      "NotesListViewController#1", "NoteEditorViewController#2", "SettingsViewController#3",
      "NotesListViewController#12",
    ]
    j.alloc(ids[0], ids[1], ids[2], ids[3])
    j.show(ids[0])
    j.link(ids[0], .right, ids[1])
    j.link(ids[0], .down, ids[2])
    j.link(ids[1], .right, ids[3])
    let text = render(j, .init(width: 220))
    for id in ids.map(\.rawValue) {
      #expect(text.contains(" " + id + " ") || text.contains("[" + id + "]"), "\(id): \(text)")
    }
  }

  /// Cut only when they cannot fit, keeping the end, and never two alike.
  @Test func idsCutKeepTheirEndAndNeverLookAlike() {
    var j = FixtureJournal()
    let ids: [ControllerID] = ["NotesListViewController#1", "NoteEditorViewController#1", "SettingsViewController#12"]
    j.alloc(ids[0], ids[1], ids[2])
    j.show(ids[0])
    j.link(ids[0], .right, ids[1])
    j.link(ids[1], .right, ids[2])
    let text = render(j, .init(width: 60))
    #expect(!text.contains("cropped"), "\(text)")
    let labels = text.split(separator: "\n")[1].split(whereSeparator: { "│║[]├┤╟╢─ ".contains($0) }).map(String.init)
    #expect(labels.count == Set(labels).count, "\(labels)")
    #expect(labels.allSatisfy { $0.hasPrefix("…") || $0.contains("…") }, "\(labels)")
    #expect(labels.count == 3 && labels.contains { $0.hasPrefix("…") && $0.hasSuffix("troller#12") }, "\(labels)")
    #expect(labels.filter { $0.hasSuffix("#1") }.count == 2, "\(labels)")
  }

  @Test func heightCropsRowsAroundTheFocus() {
    let text = render(.demoPath(focusLast: true), .init(height: 7, glyphs: .ascii))
    GoldenFile.check(text, "map-demo.cropped-height.txt")
    #expect(text.contains("cropped around the focus: y 0..1 of -2..3"))
    // Links to the cropped rows end in arrows on the frames, and the legend says so.
    #expect(text.hasPrefix("+------+  +------+  +---^--+  +---^--+"))
    #expect(text.contains("<>^v link out of view"))
  }
}
