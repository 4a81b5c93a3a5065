import Journal

/// Which controllers a state's text and JSON list (`at --controller`,
/// `at --alive`): every one, those with the ids given, those alive, or both
/// (a controller listed passes every part given). The rest of the state (root,
/// focus, transition, counts, the map) is always the whole state's.
///
/// ```swift
/// let alive = ControllerSelection(aliveOnly: true)
/// state.writeText(listing: alive, to: &out)  // controllers: 15025 (289 alive), 289 listed
/// ```
public struct ControllerSelection: Sendable, Hashable {
  /// The ids listed; nil for every id.
  public var ids: Set<ControllerID>?
  /// Only the controllers alive in the state.
  public var aliveOnly: Bool

  public init(ids: Set<ControllerID>? = nil, aliveOnly: Bool = false) {
    self.ids = ids
    self.aliveOnly = aliveOnly
  }

  /// Every controller.
  public static let all = ControllerSelection()

  /// Whether every controller is listed.
  public var isAll: Bool { ids == nil && !aliveOnly }

  /// Whether `controller` is listed.
  public func selects(_ controller: ControllerState) -> Bool {
    if aliveOnly && !controller.isAlive { return false }
    if let ids, !ids.contains(controller.id) { return false }
    return true
  }
}
