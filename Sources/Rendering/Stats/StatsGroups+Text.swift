import Projection

extension StatsGroups {
  /// Writes one text block per group (as `stats` writes a journal's), then the overall block.
  public func writeText(to out: inout some TextOutputStream) {
    for group in groups {
      StatsReport.writeBlock(
        group.stats, title: HeaderGroups<SessionStats>.title(group.key, keys: keys) + ": " + journals(group.stats),
        to: &out)
      out.write("\n")
    }
    StatsReport.writeBlock(overall, title: "overall: " + journals(overall), to: &out)
  }

  private func journals(_ stats: SessionStats) -> String {
    stats.journals == 1 ? "1 journal" : "\(stats.journals) journals"
  }
}
