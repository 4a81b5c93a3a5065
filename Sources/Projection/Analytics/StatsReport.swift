import Journal

/// What `stats` reports: the ``SessionStats`` of each journal and of all of them merged.
/// A value: Rendering writes it as text and JSON.
///
/// ```swift
/// let report = StatsReport(sessions: [stats1, stats2])
/// var text = ""
/// report.writeText(to: &text)  // import Rendering
/// let json = report.json  // one JSON document, see docs/tables.md
/// ```
public struct StatsReport: Sendable, Hashable {
  /// One entry per journal, in the order given.
  public var sessions: [SessionStats]
  /// Every journal merged: controllers are merged by id, dwell summed.
  ///
  /// Implementation note: merged when asked (the JSON document, the text's `overall` block of
  /// several journals), not when the report is made: the text of one journal does not show it,
  /// and merging tens of thousands of controllers by id is most of what `stats` does once the
  /// journal is read.
  public var overall: SessionStats {
    var overall = SessionStats()
    overall.journals = 0
    for session in sessions { overall.merge(session) }
    return overall
  }

  public init(sessions: [SessionStats]) {
    self.sessions = sessions
  }

  /// The order rules are listed in: integrity rules, then lifecycle rules, as `check` lists them.
  public static let ruleOrder: [String] = Rule.ids
}
