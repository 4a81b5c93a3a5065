/// One of the five spacial lifecycle callbacks.
public enum Callback: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case didLoad, willAppear, didAppear, willDisappear, didDisappear

  public var description: String { rawValue }

  /// True for the four appearance callbacks (everything but didLoad).
  public var isAppearance: Bool { self != .didLoad }
}

/// What became of a finished pan gesture.
public enum PanOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case committed, snapBack, blocked, refused, cancelled
  public var description: String { rawValue }
}

/// What caused a move.
public enum MoveTrigger: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case programmatic, pan, fling, goToRoot
  public var description: String { rawValue }
}
