/// One of the five spacial lifecycle callbacks.
public enum Callback: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case didLoad, willAppear, didAppear, willDisappear, didDisappear

  public var description: String { rawValue }

  /// Position in `allCases` (didLoad 0 … didDisappear 4), handy for fixed-size tables.
  @inlinable
  public var index: Int {
    switch self {
    case .didLoad: 0
    case .willAppear: 1
    case .didAppear: 2
    case .willDisappear: 3
    case .didDisappear: 4
    }
  }

  /// True for the four appearance callbacks (everything but didLoad).
  public var isAppearance: Bool { self != .didLoad }
}

/// What became of a finished pan gesture.
public enum PanOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case committed, snapBack, blocked, refused, cancelled
  public var description: String { rawValue }

  /// Position in `allCases` (committed 0 … cancelled 4), handy for fixed-size tables.
  @inlinable
  public var index: Int {
    switch self {
    case .committed: 0
    case .snapBack: 1
    case .blocked: 2
    case .refused: 3
    case .cancelled: 4
    }
  }
}

/// What caused a move.
public enum MoveTrigger: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case programmatic, pan, fling, goToRoot
  public var description: String { rawValue }

  /// Position in `allCases` (programmatic 0 … goToRoot 3), handy for fixed-size tables.
  @inlinable
  public var index: Int {
    switch self {
    case .programmatic: 0
    case .pan: 1
    case .fling: 2
    case .goToRoot: 3
    }
  }
}
