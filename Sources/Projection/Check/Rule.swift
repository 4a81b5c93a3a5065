import Journal

/// A rule of `check`: one of the journal format (``FormatRule``, read by the
/// reader) or one of the model (``CheckRule``: graph, lifecycle and
/// `model-divergence`). The one type of a rule wherever a finding, a count
/// or a selection names one; its id is spelled once, by its case.
///
/// ```swift
/// Rule(id: "seq-gap")      // .format(.seqGap)
/// Rule.check(.modalLeak).id  // "modal-leak"
/// ```
public enum Rule: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case format(FormatRule)
  case check(CheckRule)

  /// Every rule `check` knows: format rules (errors, then warnings), then the model's rules, `model-divergence` last.
  public static let allCases: [Rule] = FormatRule.allCases.map(Rule.format) + CheckRule.allCases.map(Rule.check)

  /// Every rule's id, in the order of ``allCases``.
  public static let ids: [String] = allCases.map(\.id)

  /// The rule with this id.
  public init?(id: String) {
    if let rule = FormatRule(rawValue: id) {
      self = .format(rule)
    } else if let rule = CheckRule(rawValue: id) {
      self = .check(rule)
    } else {
      return nil
    }
  }

  /// The stable id, e.g. `seq-gap` or `modal-leak`.
  public var id: String {
    switch self {
    case .format(let rule): rule.rawValue
    case .check(let rule): rule.rawValue
    }
  }

  public var description: String { id }

  /// The severity the rule has by default (in strict mode every warning is an error).
  public var severity: Diagnostic.Severity {
    switch self {
    case .format(let rule): rule.severity
    case .check(let rule): rule.severity
    }
  }

  /// Whether the rule is about the format, the graph, the lifecycle or the model.
  public var kind: RuleInfo.Kind {
    switch self {
    case .format: .format
    case .check(let rule): rule.kind
    }
  }

  /// The position of the rule in ``allCases``.
  public var index: Int {
    switch self {
    case .format(let rule): Int(rule.position)
    case .check(let rule): FormatRule.allCases.count + Int(rule.position)
    }
  }
}

extension FormatRule {
  /// The rule's position in `allCases`: a case without a payload is stored as its position in one byte.
  @inline(__always)
  var position: UInt8 { unsafeBitCast(self, to: UInt8.self) }
}
