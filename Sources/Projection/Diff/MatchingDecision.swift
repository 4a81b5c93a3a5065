import Journal

/// How the controllers of two runs were matched: the matching asked for
/// (``DiffOptions/matching``), the one used, and for ``DiffOptions/Matching/auto``
/// what decided it, each run's ``ControllerIDCensus``.
///
/// `auto` matches by class and order of allocation when the ids of both runs
/// are made per instance (``ControllerIDCensus/isGenerated``), since such ids
/// shift when a build allocates one more controller early; it matches by id
/// as soon as one run names its controllers.
///
/// ```swift
/// let decision = MatchingDecision(requested: .auto, a: censusA, b: censusB)
/// decision.used        // .className: both runs count their instances
/// ```
public struct MatchingDecision: Sendable, Hashable {
  /// What was asked for: `.id`, `.className` or `.auto`.
  public var requested: DiffOptions.Matching
  /// What was used: `.id` or `.className`, never `.auto`.
  public var used: DiffOptions.Matching
  /// The ids each run allocated.
  public var a: ControllerIDCensus
  public var b: ControllerIDCensus

  /// Decides `auto` from the two runs' ids; `id` and `class` are used as asked.
  public init(requested: DiffOptions.Matching, a: ControllerIDCensus, b: ControllerIDCensus) {
    self.requested = requested
    self.a = a
    self.b = b
    switch requested {
    case .id, .className: used = requested
    case .auto: used = a.isGenerated && b.isGenerated ? .className : .id
    }
  }
}
