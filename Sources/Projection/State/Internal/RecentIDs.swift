import Journal

/// The last four controller ids looked up, each with what it mapped to (a
/// position in a ``State``, a controller of a diff's vocabulary), replaced in turn.
///
/// Implementation note: a move names two controllers and its four callbacks
/// name them again, so most lookups of the checker's and the diff's hot paths
/// hit here; comparing two ids is one word compare, cheaper than a probe of the index. The slots are
/// unrolled: no array, no bounds checks, no allocation.
package struct RecentIDs: Sendable {
  private var id0: ControllerID = ""
  private var id1: ControllerID = ""
  private var id2: ControllerID = ""
  private var id3: ControllerID = ""
  private var value0: Int32 = -1
  private var value1: Int32 = -1
  private var value2: Int32 = -1
  private var value3: Int32 = -1
  private var next = 0

  package init() {}

  /// What `id` mapped to when it was kept; nil when it is not kept.
  @inline(__always)
  package func find(_ id: ControllerID) -> Int32? {
    if value0 >= 0 && id0 == id { return value0 }
    if value1 >= 0 && id1 == id { return value1 }
    if value2 >= 0 && id2 == id { return value2 }
    if value3 >= 0 && id3 == id { return value3 }
    return nil
  }

  /// Keeps `id` and `value` (0 or more) in place of the oldest.
  package mutating func insert(_ id: ControllerID, _ value: Int32) {
    switch next {
    case 0:
      id0 = id
      value0 = value
    case 1:
      id1 = id
      value1 = value
    case 2:
      id2 = id
      value2 = value
    default:
      id3 = id
      value3 = value
    }
    next = (next + 1) & 3
  }

  /// The position of `id` in `state` (kept here once looked up), or nil if it was never allocated.
  ///
  /// An id keeps its position for a whole journal (a reused id takes over its
  /// old one), so a kept position never goes stale.
  @inline(__always)
  mutating func position(of id: ControllerID, in state: State) -> Int32? {
    if let p = find(id) { return p }
    guard let p = state.position(of: id) else { return nil }
    insert(id, p)
    return p
  }
}
