import Journal
import Projection

extension EventSelection {
  /// `type move, pan; controller compose` (ids escaped for display), nil when empty.
  public var summary: String? {
    var parts: [String] = []
    if !types.isEmpty { parts.append("type " + types.sorted().map { displayText($0) }.joined(separator: ", ")) }
    if !controllers.isEmpty {
      parts.append("controller " + controllers.map(\.rawValue).sorted().map { displayText($0) }.joined(separator: ", "))
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }
}
