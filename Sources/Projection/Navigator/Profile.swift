/// Which behaviour the reference navigator reproduces.
public enum Profile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The documented behaviour (spec rules 1-11): the oracle `check` compares recordings against.
  case intended
  /// What the 2013 library actually did (spec deviations L1-L6), to show the tools finding regressions.
  case legacy

  public var description: String { rawValue }
}
