import Journal

/// Which rules `check` reports: all of them, only some (`--rule`), or all but
/// some (`--no-rule`). Integrity rules (from the reader) and lifecycle rules
/// (from the ``Checker``) are selected alike, by id.
///
/// ```swift
/// let only = try RuleSelection(only: ["modal-leak", "will-repeated"])
/// only.contains(.modalLeak)      // true
/// only.contains("seq-gap")       // false
/// let most = try RuleSelection(excluding: ["visible-count"])
/// try RuleSelection(only: ["modal-leek"])  // throws UnknownRuleError, suggestion "modal-leak"
/// ```
public struct RuleSelection: Sendable, Hashable {
  /// The selected rules of the model, by ``CheckRule``'s bit.
  private var bits: UInt32
  /// The selected rules of the format, by ``FormatRule``'s position.
  private var formatBits: UInt32

  /// Every rule.
  public static let all = RuleSelection(bits: ~0, formatBits: ~0)

  private init(bits: UInt32, formatBits: UInt32) {
    self.bits = bits
    self.formatBits = formatBits
  }

  /// The rules in `only` (every rule when it is empty), minus those in `excluding`.
  public init(only: [Rule], excluding: [Rule] = []) {
    var selection = only.isEmpty ? RuleSelection.all : RuleSelection(bits: 0, formatBits: 0)
    for rule in only { selection.set(rule, true) }
    for rule in excluding { selection.set(rule, false) }
    self = selection
  }

  /// The rules named in `only` (every rule when it is empty), minus those in `excluding`.
  ///
  /// - Throws: ``UnknownRuleError`` for the first id that names no rule.
  public init(only: [String] = [], excluding: [String] = []) throws(UnknownRuleError) {
    var rules: [Rule] = []
    for id in only + excluding {
      guard let rule = Rule(id: id) else { throw UnknownRuleError(id: id) }
      rules.append(rule)
    }
    self.init(only: Array(rules[..<only.count]), excluding: Array(rules[only.count...]))
  }

  private mutating func set(_ rule: Rule, _ on: Bool) {
    switch rule {
    case .check(let rule): if on { bits |= rule.bit } else { bits &= ~rule.bit }
    case .format(let rule): if on { formatBits |= rule.bit } else { formatBits &= ~rule.bit }
    }
  }

  /// Whether a lifecycle (or model) rule is selected.
  @inline(__always)
  public func contains(_ rule: CheckRule) -> Bool { bits & rule.bit != 0 }

  /// Whether a rule of the format is selected.
  @inline(__always)
  public func contains(_ rule: FormatRule) -> Bool { formatBits & rule.bit != 0 }

  /// Whether the rule is selected.
  public func contains(_ rule: Rule) -> Bool {
    switch rule {
    case .check(let rule): contains(rule)
    case .format(let rule): contains(rule)
    }
  }

  /// Whether the rule with this id is selected (an unknown id never is).
  public func contains(_ id: String) -> Bool { Rule(id: id).map(contains) ?? false }

  /// Whether any lifecycle rule of the ``Checker`` is selected.
  public var containsLifecycleRules: Bool { CheckRule.lifecycleRules.contains { contains($0) } }
}

extension FormatRule {
  /// The bit of this rule in a ``RuleSelection``.
  @inline(__always)
  var bit: UInt32 { 1 << UInt32(position) }
}

/// A rule id that names no rule, and the closest id: `Rendering` says it (`description`).
public struct UnknownRuleError: Error, Sendable, Hashable {
  /// The id as given.
  public var id: String
  /// The known id it begins, else one close by edit distance, ignoring case (the first listed on a tie).
  public var suggestion: String?

  public init(id: String) {
    self.id = id
    // An id it begins is the likeliest ("model" for model-divergence); else the nearest by edit distance.
    let lowered = id.lowercased()
    if !lowered.isEmpty, let prefixed = Rule.ids.first(where: { $0.hasPrefix(lowered) }) {
      suggestion = prefixed
      return
    }
    suggestion = closestWord(to: lowered, in: Rule.ids)
  }
}
