import Projection

extension MapLayout.Collision: CustomStringConvertible {
  /// `cell (1,0): b, c` or `link a right → d: (0,0) to (3,0)`, ids escaped for a terminal.
  public var description: String { description(.unicode) }

  /// The description drawn with `glyphs`: `link a right -> d: (0,0) to (3,0)` in ASCII.
  public func description(_ glyphs: Glyphs) -> String {
    switch self {
    case .sharedCell(let position, let ids):
      return "cell \(position): " + ids.map { glyphs.id($0) }.joined(separator: ", ")
    case .stretchedLink(let from, let direction, let to, let a, let b):
      return "link \(glyphs.id(from)) \(direction) \(glyphs.arrow) \(glyphs.id(to)): \(a) to \(b), not one step"
    }
  }
}
