import Journal
import Projection

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
