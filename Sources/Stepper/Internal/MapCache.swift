import Projection
import Rendering
import Synchronization

/// The maps a ``Stepper`` drew lately, by what they depend on: the last event
/// before the cursor that can change the map, the side, and how it is drawn.
///
/// Implementation note: laying out and drawing the map is linear in the
/// controllers (milliseconds for thousands), while most events (lifecycle
/// callbacks, pans, marks) leave it as it was; stepping over them reuses the
/// lines drawn. The cache only ever returns what drawing again would give, so
/// rendering stays a function of the state and the size.
final class MapCache: Sendable {
  struct Key: Hashable {
    var side: DiffSide
    var version: Int
    /// The renderer's options: the map is a function of the state and of them.
    var options: MapRenderer.Options
  }

  /// Maps kept at most; the cache starts over when full.
  static let capacity = 64

  private let entries = Mutex<[Key: [String]]>([:])

  subscript(key: Key) -> [String]? {
    get { entries.withLock { $0[key] } }
    set {
      entries.withLock { entries in
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = newValue
      }
    }
  }
}
