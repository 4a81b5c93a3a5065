import Journal

/// What folding an event may change of the map ``MapLayout`` lays out from the
/// state: the one decision the report's page (which redraws its layout) and the
/// stepper (which keeps a drawn map while it stays the same) read.
package enum MapChange: Sendable, Hashable {
  /// Nothing the map shows: the header, pans, callbacks, marks, unknown types.
  case nothing
  /// The focus alone (a move): the map marks another controller, and a terminal crops around it.
  case focus
  /// What the map lays out: the root, links, touch minimums, modals or the
  /// controllers alive (a first root also sets the focus).
  case layout
}

extension Event {
  /// What folding this event may change of the map (``MapChange``); `MapChangeTests`
  /// checks it against the layouts of the bundled journals, event by event.
  package var mapChange: MapChange {
    switch self {
    case .alloc, .root, .link, .unlink, .modal, .touches, .dealloc: .layout
    case .move: .focus
    case .session, .pan, .lifecycle, .mark, .unknown: .nothing
    }
  }
}
