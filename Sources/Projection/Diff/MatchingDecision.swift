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

extension MatchingDecision {
  /// How the text of `diff` says it: `id`, `class and order of allocation`,
  /// and after `auto`'s choice what decided it:
  /// `class and order of allocation (auto: the ids of both runs are instance counters or addresses)`,
  /// `id (auto: B names its controllers)`.
  public var text: String {
    let how = used == .className ? "class and order of allocation" : "id"
    guard requested == .auto else { return how }
    if used == .className { return how + " (auto: the ids of both runs are instance counters or addresses)" }
    if !a.isGenerated && !b.isGenerated && a.generated == 0 && b.generated == 0 && a.allocated > 0 && b.allocated > 0 {
      return how + " (auto: both runs name their controllers)"
    }
    let reasons = [("A", a), ("B", b)].compactMap { side, census -> String? in
      if census.isGenerated { return nil }
      if census.allocated == 0 { return "\(side) allocates no controller" }
      if census.generated == 0 { return "\(side) names its controllers" }
      return
        "\(side) names \((census.allocated - census.generated).grouped) of the \(census.allocated.grouped) controllers it allocates"
    }
    return how + " (auto: \(reasons.joined(separator: ", ")))"
  }
}
