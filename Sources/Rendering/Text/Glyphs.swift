import Journal
import Projection

/// The characters every text renderer draws with: Unicode (the default) or
/// plain ASCII for `--ascii`. Each renderer takes one value and asks it,
/// instead of deciding `ascii ? x : y` itself, so the ASCII set is stated once
/// and no Unicode mark can slip into `--ascii` output.
///
/// ```swift
/// Glyphs.ascii.arrow     // "->"
/// Glyphs.unicode.arrow   // "→"
/// Glyphs(ascii: true) == .ascii  // true
/// ```
public struct Glyphs: Sendable, Hashable {
  /// Between the ends of a move or link: `home → notes`.
  public var arrow: String
  /// Between the ends of a range: `seq 3…9`.
  public var range: String
  /// Between the ends of a span of numbers: `seq 3–9`.
  public var through: String
  /// Ends text cut to fit a width (one column).
  public var ellipsis: Character
  /// Stands for what was left out: `… and 3 more`.
  public var more: String
  /// Around a number rounded up: `⌈log2 8⌉`.
  public var ceilingOpen: String
  public var ceilingClose: String
  /// Between items of a status line: `seq 4 · event 5 / 20`.
  public var separator: String
  /// Between two side-by-side columns.
  public var columns: String
  /// Between two side-by-side columns where they differ.
  public var differing: String
  /// A horizontal rule.
  public var rule: Character
  /// Marks the current line.
  public var cursor: String
  /// The text cursor of an input line.
  public var caret: String
  /// The arrow keys as a help names them: right, left, up, down.
  public var arrowKeys: [String]
  /// Whether these are the plain ASCII glyphs.
  public var isASCII: Bool

  /// ASCII for `ascii`, otherwise Unicode.
  public init(ascii: Bool) { self = ascii ? .ascii : .unicode }

  private init(
    arrow: String, range: String, through: String, ellipsis: Character, more: String,
    ceilingOpen: String, ceilingClose: String, separator: String, columns: String, differing: String,
    rule: Character, cursor: String, caret: String, arrowKeys: [String], isASCII: Bool
  ) {
    self.arrow = arrow
    self.range = range
    self.through = through
    self.ellipsis = ellipsis
    self.more = more
    self.ceilingOpen = ceilingOpen
    self.ceilingClose = ceilingClose
    self.separator = separator
    self.columns = columns
    self.differing = differing
    self.rule = rule
    self.cursor = cursor
    self.caret = caret
    self.arrowKeys = arrowKeys
    self.isASCII = isASCII
  }

  /// Box drawing, arrows and marks from Unicode.
  public static let unicode = Glyphs(
    arrow: "→", range: "…", through: "–", ellipsis: "…", more: "…", ceilingOpen: "⌈", ceilingClose: "⌉",
    separator: " · ", columns: " │ ", differing: " ≠ ", rule: "─",
    cursor: "▶", caret: "█", arrowKeys: ["→", "←", "↑", "↓"], isASCII: false)

  /// Only printable ASCII.
  public static let ascii = Glyphs(
    arrow: "->", range: "..", through: "-", ellipsis: "~", more: "...", ceilingOpen: "ceil(", ceilingClose: ")",
    separator: " | ", columns: " | ", differing: " ! ", rule: "-",
    cursor: ">", caret: "_", arrowKeys: ["Right", "Left", "Up", "Down"], isASCII: true)

  /// Text from a journal made safe for a terminal (``displayText(_:limit:cut:)``),
  /// cut after `limit` characters with ``ellipsis``.
  public func text(_ value: String, limit: Int = 64) -> String { displayText(value, limit: limit, cut: ellipsis) }

  /// An id made safe for a terminal, cut with ``ellipsis``.
  public func id(_ id: ControllerID) -> String { displayText(id.rawValue, cut: ellipsis) }

  /// `home willDisappear`, the id made safe for a terminal.
  package func id(_ arrival: Arrival) -> String { "\(id(arrival.controller)) \(arrival.callback)" }
}

/// An id in single quotes, made safe for a terminal and cut with Unicode's ellipsis whatever the
/// output's glyphs: how the navigator's refusals, the scenario's errors and an anomaly's sentences
/// name a controller.
func quoted(_ id: ControllerID) -> String { quoted(id.rawValue) }

/// A text from a journal or a script (a key, a word of a line) in single quotes, made safe for a
/// terminal as an id is.
func quoted(_ text: String) -> String { "'" + Glyphs.unicode.text(text) + "'" }
