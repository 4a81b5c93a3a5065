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
/// try RuleSelection(only: ["modal-leek"])  // throws: unknown rule 'modal-leek' (did you mean 'modal-leak'?)
/// ```
public struct RuleSelection: Sendable, Hashable {
  private var bits: UInt32
  private var integrity: Set<String>

  /// Every rule.
  public static let all = RuleSelection(bits: ~0, integrity: Set(CheckRule.integrityRuleIDs))

  private init(bits: UInt32, integrity: Set<String>) {
    self.bits = bits
    self.integrity = integrity
  }

  /// The rules named in `only` (every rule when it is empty), minus those in `excluding`.
  ///
  /// - Throws: ``UnknownRuleError`` for the first id that names no rule.
  public init(only: [String] = [], excluding: [String] = []) throws(UnknownRuleError) {
    for id in only + excluding where !CheckRule.allRuleIDs.contains(id) { throw UnknownRuleError(id: id) }
    var selection = only.isEmpty ? RuleSelection.all : RuleSelection(bits: 0, integrity: [])
    for id in only { selection.set(id, true) }
    for id in excluding { selection.set(id, false) }
    self = selection
  }

  private mutating func set(_ id: String, _ on: Bool) {
    if let rule = CheckRule(rawValue: id) {
      if on { bits |= rule.bit } else { bits &= ~rule.bit }
    } else if on {
      integrity.insert(id)
    } else {
      integrity.remove(id)
    }
  }

  /// Whether a lifecycle (or model) rule is selected.
  @inline(__always)
  public func contains(_ rule: CheckRule) -> Bool { bits & rule.bit != 0 }

  /// Whether the rule with this id is selected (an unknown id never is).
  public func contains(_ id: String) -> Bool {
    if let rule = CheckRule(rawValue: id) { return contains(rule) }
    return integrity.contains(id)
  }

  /// Whether any lifecycle rule of the ``Checker`` is selected.
  public var containsLifecycleRules: Bool { CheckRule.lifecycleRules.contains { contains($0) } }
}

/// A rule id that names no rule; the message names the closest id.
public struct UnknownRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The id as given.
  public var id: String
  /// The known id it begins, else one close by edit distance, ignoring case (the first listed on a tie).
  public var suggestion: String?

  public init(id: String) {
    self.id = id
    // An id it begins is the likeliest ("model" for model-divergence); else the nearest by edit distance.
    let lowered = id.lowercased()
    if !lowered.isEmpty, let prefixed = CheckRule.allRuleIDs.first(where: { $0.hasPrefix(lowered) }) {
      suggestion = prefixed
      return
    }
    suggestion = closestWord(to: lowered, in: CheckRule.allRuleIDs)
  }

  /// `unknown rule 'modal-leek' (did you mean 'modal-leak'?)`.
  public var description: String {
    var s = "unknown rule '\(displayText(id))'"
    if let suggestion { s += " (did you mean '\(suggestion)'?)" }
    return s
  }
}
