import Journal
import Projection

extension StatsGroups {
  /// `{"by":["build"],"groups":[{"key":{"build":"3.2 (41)"},STATS...}],"overall":STATS}`,
  /// each STATS with the fields of ``StatsReport/json``'s (documented in docs/tables.md).
  public var json: String {
    var json = JSONBuffer()
    json.open("{")
    json.key("by")
    json.strings(keys.map(\.rawValue))
    json.key("groups")
    json.open("[")
    for group in groups {
      json.element()
      StatsReport.appendJSON(group.stats, key: Array(zip(keys.map(\.rawValue), group.key)), to: &json)
    }
    json.close("]")
    json.key("overall")
    StatsReport.appendJSON(overall, to: &json)
    json.close("}")
    return json.text
  }
}
