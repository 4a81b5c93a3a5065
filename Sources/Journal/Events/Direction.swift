/// One of the four neighbour slots of a controller.
///
/// The raw value is the wire spelling used by journals and scenario scripts.
public enum Direction: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
  case left, right, up, down

  /// The slot that points back: left/right and up/down are opposites.
  public var opposite: Direction {
    switch self {
    case .left: .right
    case .right: .left
    case .up: .down
    case .down: .up
    }
  }

  /// Grid offset of a step in this direction (x grows right, y grows down).
  public var offset: (dx: Int, dy: Int) {
    switch self {
    case .left: (-1, 0)
    case .right: (1, 0)
    case .up: (0, -1)
    case .down: (0, 1)
    }
  }

  /// Slot order used by modal cleanup and dealloc: left, right, up, down.
  public static let slotOrder: [Direction] = [.left, .right, .up, .down]

  /// Neighbour order of the breadth-first walks (goToRoot, map): up, left, down, right.
  public static let walkOrder: [Direction] = [.up, .left, .down, .right]

  /// Index in slot order (left 0, right 1, up 2, down 3), handy for fixed-size tables.
  public var index: Int {
    switch self {
    case .left: 0
    case .right: 1
    case .up: 2
    case .down: 3
    }
  }

  public static func < (lhs: Direction, rhs: Direction) -> Bool { lhs.index < rhs.index }

  public var description: String { rawValue }
}
