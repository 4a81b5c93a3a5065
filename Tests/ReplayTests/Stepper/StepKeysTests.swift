import Projection
import Stepper
import Testing

@testable import spatial_replay

/// Keys as scripts name them and as terminals send them, and what the
/// terminal layer writes.
@Suite struct StepKeysTests {
  struct Named: CustomTestStringConvertible, Sendable {
    var token: String
    var keys: [StepperKey]?
    var testDescription: String { token }
  }

  @Test(arguments: [
    Named(token: "l", keys: [.character("l")]),
    Named(token: "G", keys: [.character("G")]),
    Named(token: "]", keys: [.character("]")]),
    Named(token: "é", keys: [.character("é")]),
    Named(token: "Right", keys: [.right]),
    Named(token: "left", keys: [.left]),
    Named(token: "Up", keys: [.up]),
    Named(token: "Down", keys: [.down]),
    Named(token: "PgDn", keys: [.pageDown]),
    Named(token: "PageUp", keys: [.pageUp]),
    Named(token: "Home", keys: [.home]),
    Named(token: "End", keys: [.end]),
    Named(token: "Enter", keys: [.enter]),
    Named(token: "Esc", keys: [.escape]),
    Named(token: "Backspace", keys: [.backspace]),
    Named(token: "Space", keys: [.character(" ")]),
    Named(token: "Tab", keys: [.tab]),
    Named(token: "F1", keys: [.f1]),
    Named(token: ":1234", keys: [":", "1", "2", "3", "4"].map { .character($0) } + [.enter]),
    Named(
      token: "/didAppear", keys: ["/", "d", "i", "d", "A", "p", "p", "e", "a", "r"].map { .character($0) } + [.enter]),
    Named(token: "?w", keys: [.character("?"), .character("w"), .enter]),
    Named(token: "?", keys: [.character("?"), .enter]),
    Named(token: ":", keys: [.character(":"), .enter]),
    Named(token: "xyz", keys: nil),
    Named(token: "PgDown", keys: nil),
    Named(token: "", keys: nil),
  ])
  func keyNames(_ named: Named) {
    #expect(StepperKey.sequence(named: named.token) == named.keys)
  }

  @Test func namesRoundTrip() {
    let keys: [StepperKey] = [
      .right, .left, .up, .down, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .tab, .f1,
      .character(" "), .character("l"),
    ]
    for key in keys { #expect(StepperKey.sequence(named: key.description) == [key], "\(key)") }
  }

  struct Sent: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var keys: [StepperKey]
    var testDescription: String { name }
  }

  static let esc: UInt8 = 0x1B

  @Test(arguments: [
    Sent(name: "letters", bytes: Array("lhG".utf8), keys: [.character("l"), .character("h"), .character("G")]),
    Sent(name: "arrows CSI", bytes: Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8), keys: [.up, .down, .right, .left]),
    Sent(name: "arrows SS3", bytes: Array("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD".utf8), keys: [.up, .down, .right, .left]),
    Sent(name: "pages", bytes: Array("\u{1B}[5~\u{1B}[6~".utf8), keys: [.pageUp, .pageDown]),
    Sent(
      name: "home and end", bytes: Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH\u{1B}OF\u{1B}[7~\u{1B}[8~".utf8),
      keys: [.home, .end, .home, .end, .home, .end, .home, .end]),
    Sent(name: "F1", bytes: Array("\u{1B}OP\u{1B}[11~\u{1B}[P".utf8), keys: [.f1, .f1, .f1]),
    Sent(name: "modified arrow", bytes: Array("\u{1B}[1;5C".utf8), keys: [.right]),
    Sent(name: "unknown sequences", bytes: Array("\u{1B}[3~\u{1B}[200~x".utf8), keys: [.character("x")]),
    Sent(name: "enter", bytes: [0x0D, 0x0A], keys: [.enter, .enter]),
    Sent(name: "backspace", bytes: [0x7F, 0x08], keys: [.backspace, .backspace]),
    Sent(name: "tab", bytes: [0x09], keys: [.tab]),
    Sent(name: "control bytes", bytes: [0x01, 0x02, 0x6C], keys: [.character("l")]),
    Sent(name: "UTF-8", bytes: Array("é→😀".utf8), keys: [.character("é"), .character("→"), .character("😀")]),
    Sent(name: "invalid UTF-8", bytes: [0xFF, 0xC3, 0x28], keys: [.character("(")]),
    Sent(name: "alt+key", bytes: [esc, UInt8(ascii: "x")], keys: [.escape, .character("x")]),
  ])
  func terminalBytes(_ sent: Sent) {
    var decoder = KeyDecoder()
    decoder.feed(sent.bytes)
    #expect(decoder.keys(flush: false) == sent.keys)
    #expect(!decoder.isWaiting)
  }

  @Test func sequencesSplitAcrossReadsWaitForTheirEnd() {
    let bytes = Array("l\u{1B}[6~é\u{1B}OP".utf8)
    // Fed one byte at a time, the keys come out whole, each once.
    var decoder = KeyDecoder()
    var keys: [StepperKey] = []
    for byte in bytes {
      decoder.feed([byte])
      keys += decoder.keys(flush: false)
    }
    #expect(keys == [.character("l"), .pageDown, .character("é"), .f1])
    #expect(!decoder.isWaiting)
  }

  @Test func aLoneEscapeIsEscapeOnlyOnceNothingFollows() {
    var decoder = KeyDecoder()
    decoder.feed([Self.esc])
    #expect(decoder.keys(flush: false) == [])
    #expect(decoder.isWaiting)
    #expect(decoder.keys(flush: true) == [.escape])
    #expect(!decoder.isWaiting)
    // An unfinished sequence is dropped on a flush.
    decoder.feed(Array("\u{1B}[5".utf8))
    #expect(decoder.keys(flush: false) == [])
    #expect(decoder.keys(flush: true) == [])
    decoder.feed(Array("q".utf8))
    #expect(decoder.keys(flush: false) == [.character("q")])
  }

  @Test func theScreenWriterRewritesOnlyWhatChanged() {
    var writer = ScreenWriter()
    let first = writer.frame(["one", "▶ two", "status"])
    #expect(
      first
        == "\u{1B}[H\u{1B}[2J\u{1B}[1;1H\u{1B}[2Kone\u{1B}[2;1H\u{1B}[2K\u{1B}[1m▶ two\u{1B}[0m"
        + "\u{1B}[3;1H\u{1B}[2K\u{1B}[7mstatus\u{1B}[0m")
    #expect(writer.frame(["one", "▶ two", "status"]) == "")
    #expect(writer.frame(["one", "three", "status"]) == "\u{1B}[2;1H\u{1B}[2Kthree")
    writer.invalidate()
    #expect(writer.frame(["one", "three", "status"]).hasPrefix("\u{1B}[H\u{1B}[2J"))
    #expect(writer.frame(["a", "b"]).hasPrefix("\u{1B}[H\u{1B}[2J"), "a new height redraws everything")
  }

  @Test func theTerminalSequences() {
    #expect(RawTerminal.enterSequence == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    #expect(RawTerminal.leaveSequence == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
  }
}
