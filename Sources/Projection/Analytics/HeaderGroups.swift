import Journal

/// Results of many journals split by fields of their session headers, as
/// `stats --by build,device` splits its stats (``StatsGroups``), `paths` and
/// `funnel --by build,device` their paths and funnels, and `latency --group`
/// its screens: one value per combination of the fields' values.
///
/// A journal without a field (or without a header) goes to the group whose
/// value for it is nil. Groups are listed by their values, compared field by
/// field in version order (``VersionOrder``: `9.2 < 9.10 < 10.0`), nil after
/// every value. Memory: one value per group, whatever the number of journals.
///
/// ```swift
/// var groups = HeaderGroups(by: [.build], empty: PathTotals())
/// groups.update(groups.key(of: header)) { $0.add(paths, session: "S1") }
/// groups.groups.first?.key  // ["3.2 (41)"]
/// ```
public struct HeaderGroups<Value: Sendable>: Sendable {
  /// The fields grouped by, in the order given.
  public let keys: [StatsKey]
  /// By the bytes of the values (``ExactText``): canonically equivalent values are two groups.
  private var index: [[ExactText?]: Value] = [:]
  private let empty: Value

  /// Groups by `keys`; a group's value starts as `empty`.
  public init(by keys: [StatsKey], empty: Value) {
    self.keys = keys
    self.empty = empty
  }

  /// The group of a journal with this header: its values of ``keys``, in their order.
  public func key(of header: SessionHeader?) -> [String?] {
    keys.map { $0.value(in: header) }
  }

  /// Changes the value of the group `key` (``keys``' values), made from the empty value the first time.
  public mutating func update<R>(_ key: [String?], _ body: (inout Value) throws -> R) rethrows -> R {
    let empty = self.empty
    return try body(&index[key.map { $0.map(ExactText.init) }, default: empty])
  }

  /// The groups, sorted by their values (version order, nil last).
  public var groups: [(key: [String?], value: Value)] {
    index.map { (key: $0.key.map { $0?.text }, value: $0.value) }.sorted { Self.precedes($0.key, $1.key) }
  }

  /// Whether no journal was added.
  public var isEmpty: Bool { index.isEmpty }

  /// Field by field: version order of the values (``VersionOrder``), nil after every value.
  public static func precedes(_ a: [String?], _ b: [String?]) -> Bool {
    for (x, y) in zip(a, b) where x.map(ExactText.init) != y.map(ExactText.init) {
      return VersionOrder.precedes(x, y)
    }
    return false
  }
}
