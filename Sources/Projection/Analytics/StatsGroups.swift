import Journal

/// A field of the session header that `stats --by` groups journals by.
public enum StatsKey: String, CaseIterable, Sendable {
  case build, app, device, session, profile

  /// The journal's value of this field; nil when its header has none.
  public func value(in stats: SessionStats) -> String? {
    switch self {
    case .build: stats.build
    case .app: stats.app
    case .device: stats.device
    case .session: stats.session
    case .profile: stats.profile
    }
  }

  /// The header's value of this field; nil without a header or when it has none.
  public func value(in header: SessionHeader?) -> String? {
    switch self {
    case .build: header?.build
    case .app: header?.app
    case .device: header?.device
    case .session: header?.session
    case .profile: header?.profile
    }
  }
}

/// The stats of journals grouped by header fields (`stats --by build,device`):
/// one merged ``SessionStats`` per combination of the fields' values, and
/// every journal merged.
///
/// A journal without a field goes to the group whose value for it is nil.
/// Groups are listed by their values, compared field by field in byte order,
/// nil after every value. Memory: one ``SessionStats`` per group, whatever the
/// number of journals.
///
/// ```swift
/// var groups = StatsGroups(by: [.build])
/// groups.add(stats1)
/// groups.add(stats2)
/// groups.groups.first?.key  // ["3.2 (41)"]
/// ```
public struct StatsGroups: Sendable {
  /// One group: the fields' values (in the order of ``keys``) and the merged stats.
  public struct Group: Sendable {
    public var key: [String?]
    public var stats: SessionStats
  }

  /// The fields grouped by, in the order given.
  public var keys: [StatsKey] { index.keys }
  private var index: HeaderGroups<SessionStats>
  /// Every journal merged.
  public private(set) var overall = SessionStats()

  public init(by keys: [StatsKey]) {
    index = HeaderGroups(by: keys, empty: Self.empty)
    overall.journals = 0
  }

  /// Adds one journal's stats to its group and to the overall stats.
  public mutating func add(_ session: SessionStats) {
    let key = keys.map { $0.value(in: session) }
    index.update(key) { $0.merge(session) }
    overall.merge(session)
  }

  /// The groups, sorted by their values (version order, nil last).
  public var groups: [Group] {
    index.groups.map { Group(key: $0.key, stats: $0.value) }
  }

  private static var empty: SessionStats {
    var stats = SessionStats()
    stats.journals = 0
    return stats
  }
}
