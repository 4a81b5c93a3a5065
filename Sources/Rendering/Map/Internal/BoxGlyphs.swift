import Journal
import Projection

/// The characters a map's boxes and links are drawn with: Unicode box drawing or
/// plain ASCII (``Glyphs/box``; arrows, ranges and ellipses are ``Glyphs``' own).
struct BoxGlyphs: Sendable {
  /// Corners (top left, top right, bottom left, bottom right), horizontal and vertical edges.
  struct Frame: Sendable {
    var topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: Character
  }

  var frame: Frame
  var focusFrame: Frame
  var link: Character
  var doubleLink: Character
  var verticalLink: Character
  var doubleVerticalLink: Character
  var stretched: Character
  /// Where a link leaves a box: indexed by [focus][double][direction.index].
  var junctions: [[[Character]]]
  /// On the frame, instead of the junction, where a link leads to a box outside the
  /// drawn window (a cropped map): indexed by direction.index.
  var offView: [Character]

  /// The legend's entries, in order, with the glyphs they explain.
  var legend: [String] {
    [
      "[id] focus", "* modal", "\(link)\(verticalLink) link", "\(doubleLink)\(doubleVerticalLink) 2+ fingers",
      "+N shared cell", "\(stretched) stretched",
    ]
  }

  /// The legend's entry for ``offView``, added when one is drawn.
  var offViewLegend: String { String(offView) + " link out of view" }

  func junction(_ direction: Direction, focus: Bool, double: Bool) -> Character {
    junctions[focus ? 1 : 0][double ? 1 : 0][direction.index]
  }

  /// Left, right, up, down for each of: plain box single link, plain box double
  /// link, focus box single link, focus box double link.
  static let unicode = BoxGlyphs(
    frame: Frame(topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│"),
    focusFrame: Frame(topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═", vertical: "║"),
    link: "─", doubleLink: "═", verticalLink: "│", doubleVerticalLink: "║", stretched: "?",
    junctions: [
      [["┤", "├", "┴", "┬"], ["╡", "╞", "╨", "╥"]],
      [["╢", "╟", "╧", "╤"], ["╣", "╠", "╩", "╦"]],
    ],
    offView: ["←", "→", "↑", "↓"])

  static let ascii = BoxGlyphs(
    frame: Frame(topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|"),
    focusFrame: Frame(topLeft: "#", topRight: "#", bottomLeft: "#", bottomRight: "#", horizontal: "=", vertical: "|"),
    link: "-", doubleLink: "=", verticalLink: "|", doubleVerticalLink: "H", stretched: "?",
    junctions: [
      [["+", "+", "+", "+"], ["+", "+", "+", "+"]],
      [["+", "+", "+", "+"], ["+", "+", "+", "+"]],
    ],
    offView: ["<", ">", "^", "v"])
}

extension Glyphs {
  /// The characters a map is drawn with, in the same style.
  var box: BoxGlyphs { isASCII ? .ascii : .unicode }
}
