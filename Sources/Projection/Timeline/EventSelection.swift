import Journal

/// Which events a view lists: by type and by the controllers they name, as
/// `log --type T --controller ID` selects them (both given: an event must pass both).
///
/// ```swift
/// let filter = EventSelection(types: ["move", "pan"], controllers: ["compose"])
/// filter.selects(record.event)   // a move or pan that names compose
/// ```
public struct EventSelection: Sendable, Hashable {
  /// Type names (`move`, `lifecycle`, or an unknown type's name); empty for every type.
  public var types: Set<String>
  /// Controller ids; empty for every event.
  public var controllers: Set<ControllerID>

  public init(types: Set<String> = [], controllers: Set<ControllerID> = []) {
    self.types = types
    self.controllers = controllers
  }

  /// Whether every event passes.
  public var isEmpty: Bool { types.isEmpty && controllers.isEmpty }

  /// Whether `event` passes both filters.
  public func selects(_ event: Event) -> Bool {
    guard types.isEmpty || types.contains(event.typeName) else { return false }
    guard controllers.isEmpty || event.controllers.contains(where: controllers.contains) else { return false }
    return true
  }
}
