/// The wire schema of the event types: each type's keys, stated once.
extension Event.Kind {
  /// The keys the type defines after the envelope (`seq`, `time`, `type`), in
  /// the order writers put them: the spec's order, which the encoder writes and
  /// the decoder predicts (a reader accepts them in any order).
  ///
  /// Everything else about a type's keys is derived from this list, once, in
  /// ``WireTables``: the mask of the type's keys, the decoder's prediction of
  /// the next key, and the text the encoder writes before each value. Only
  /// `session`'s keys after `session` are optional (``Event/value(of:)`` has no
  /// value for a key not given); `mark`'s free fields follow `label`.
  var keyOrder: [JournalKey] {
    switch self {
    case .session: [.v, .session, .app, .build, .device, .profile, .scenario]
    case .alloc: [.controller, .className]
    case .root: [.controller]
    case .link: [.from, .direction, .to]
    case .unlink: [.from, .direction]
    case .modal: [.controller, .presenter]
    case .touches: [.controller, .direction, .min]
    case .pan: [.controller, .direction, .touches, .distance, .velocity, .outcome]
    case .move: [.from, .to, .direction, .trigger, .animated]
    case .lifecycle: [.controller, .callback]
    case .dealloc: [.controller]
    case .mark: [.label]
    }
  }
}
