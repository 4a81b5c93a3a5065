import Journal
import Projection

// The model's small values as a developer reads them in a log or a failing test: the model gives
// the values, these are their words.

extension Arrival: CustomStringConvertible {
  /// `home willAppear`.
  public var description: String { "\(controller) \(callback)" }
}

extension Links: CustomStringConvertible {
  /// `left=a up=b` for the linked slots, in slot order.
  public var description: String {
    Direction.slotOrder.compactMap { d in self[d].map { "\(d)=\($0)" } }.joined(separator: " ")
  }
}

extension Column: CustomStringConvertible {
  /// `name (kind)`, `name (kind, nullable)`.
  public var description: String { "\(name) (\(kind)\(nullable ? ", nullable" : ""))" }
}

extension MapLayout.Position: CustomStringConvertible {
  /// `(x,y)`.
  public var description: String { "(\(x),\(y))" }
}
