import Journal
import Testing

@testable import Projection
@testable import Rendering
@testable import TestSupport

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
    #expect(text.contains("[a-v…r-id]"), "\(text)")
    #expect(text.contains(" evi…}[2J "), "\(text)")
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

  /// Shortened only when they cannot fit, in the middle: each keeps its start (the class tells boxes
  /// apart) and its number (`#1`, `#12`), and never two alike.
  @Test func idsShortenedInTheMiddleKeepTheirStartAndNumber() {
    var j = FixtureJournal()
    let ids: [ControllerID] = ["NotesListViewController#1", "NoteEditorViewController#1", "SettingsViewController#12"]
    j.alloc(ids[0], ids[1], ids[2])
    j.show(ids[0])
    j.link(ids[0], .right, ids[1])
    j.link(ids[1], .right, ids[2])
    let text = render(j, .init(width: 60))
    #expect(!text.contains("cropped"), "\(text)")
    let labels = text.split(separator: "\n")[1].split(whereSeparator: { "│║[]├┤╟╢─ ".contains($0) }).map(String.init)
    #expect(labels.count == 3 && labels.count == Set(labels).count, "\(labels)")
    for label in labels {
      let parts = label.split(separator: "…", omittingEmptySubsequences: false)
      #expect(parts.count == 2 && !parts[0].isEmpty, "\(label) is not shortened in the middle")
      #expect(
        ids.contains { $0.rawValue.hasPrefix(parts[0]) && $0.rawValue.hasSuffix(parts.last!) },
        "\(label) is no id's start and end")
    }
    #expect(labels.filter { $0.hasSuffix("#1") }.count == 2 && labels.contains { $0.hasSuffix("#12") }, "\(labels)")
  }

  /// The recording guide's ids (`Class#n`, numbers up to four digits): at every width a box may have,
  /// each label keeps its `#n` and, when there is room, the start of its class, and no two are alike.
  @Test func theRecordingGuidesIDsKeepTheirNumberAtEveryWidth() {
    let classes = [
      "CheckoutViewController", "NotesListViewController", "ShareSheetController", "FeedViewController",
      "AttachmentPickerViewController",
    ]
    let ids = (0..<40).map { "\(classes[$0 % 5])#\([1, 7, 42, 115, 1024][$0 / 8] + $0)" }
    for width in 6...40 {
      let labels = IDLabels.labels(ids, width: width, ellipsis: "…")
      #expect(Set(labels.values).count == ids.count, "width \(width): two labels alike")
      for id in ids {
        let label = labels[id]!
        let number = String(id[id.lastIndex(of: "#")!...])
        #expect(label.hasSuffix(number), "width \(width): \(id) drawn as \(label)")
        #expect(TextWidth.columns(of: label) <= width)
        if label != id, width >= number.count + 2 {
          let head = label.prefix { $0 != "…" }
          #expect(!head.isEmpty && id.hasPrefix(head), "width \(width): \(id) drawn as \(label)")
        }
      }
    }
    // Where the room allows, the cut falls after a word of the class.
    #expect(TextWidth.middle("CheckoutViewController#115", to: 23, ellipsis: "…") == "Checkout…Controller#115")
  }

  /// A real app's session (`simulate --shape churn`: `Class#n` ids, new ones all along), drawn at
  /// widths from narrow to wide: every shortened label in a box keeps its `#n`.
  @Test(arguments: [36, 60, 100, 160])
  func churnMapsKeepEveryNumber(width: Int) {
    var state = State()
    Simulator.records(Simulation(events: 3_000, seed: 4, shape: .churn)) { records in
      for record in records { _ = reduce(into: &state, record) }
    }
    var out = ""
    MapRenderer(options: .init(width: width)).render(MapLayout(state: state), to: &out)
    let boxes = out.split(separator: "\n").prefix { !$0.hasPrefix("collisions") }.filter {
      $0.contains("│") || $0.contains("║")
    }
    let labels = boxes.flatMap { $0.split(whereSeparator: { "│║[]├┤╟╢─┼═ *→←↑↓".contains($0) }) }.filter {
      $0.contains("…")
    }
    #expect(!labels.isEmpty, "\(out)")
    for label in labels {
      #expect(label.wholeMatch(of: /.+….*#[0-9]+/) != nil, "width \(width): \(label) lost its number")
    }
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
