import Journal
import Projection

extension HeaderGroups {
  /// A group's title in text: `build 3.2 (41), device (none)`.
  public func title(_ key: [String?]) -> String { Self.title(key, keys: keys) }

  /// The title of the group `key` of journals grouped by `keys`.
  static func title(_ key: [String?], keys: [StatsKey]) -> String {
    zip(keys, key).map { "\($0.rawValue) " + ($1.map { displayText($0) } ?? "(none)") }.joined(separator: ", ")
  }
}

extension HeaderGroups {
  /// Writes a block per group, `TITLE: N sessions` and the group's `body`, then the same block for
  /// `overall` titled `overall: N sessions` (the layout of `paths` and `funnel` with header fields in `--by`).
  /// - Parameter sessions: how many sessions a value holds.
  public func writeText<Out: TextOutputStream>(
    overall: Value, sessions: (Value) -> Int, to out: inout Out, _ body: (Value, inout Out) -> Void
  ) {
    for group in groups {
      out.write(title(group.key) + ": " + Self.sessions(sessions(group.value)) + "\n")
      body(group.value, &out)
      out.write("\n")
    }
    out.write("overall: " + Self.sessions(sessions(overall)) + "\n")
    body(overall, &out)
  }

  /// `1 session`, `12 sessions`.
  static func sessions(_ count: Int) -> String {
    count == 1 ? "1 session" : "\(count.grouped) sessions"
  }
}
