import Journal

/// What `check` can report about one rule: its id, kind and default severity
/// (what it finds is `Rendering`'s `summary`). The one list behind `check --help`,
/// `--rule` validation, the docs table and the SARIF rule metadata.
///
/// ```swift
/// RuleInfo.all.first { $0.id == "seq-gap" }?.kind   // .format
/// ```
public struct RuleInfo: Sendable, Hashable {
  /// Where a rule comes from.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The journal format (``FormatRule``): read by the reader.
    case format
    /// The map's graph: links, ids, the focus (``CheckRule``).
    case graph
    /// The appearance callbacks of the model (``CheckRule``).
    case lifecycle
    /// `check --model`: the recording against the reference model.
    case model
  }

  public var rule: Rule
  public var id: String
  public var kind: Kind
  public var severity: Diagnostic.Severity

  /// Every rule, format rules first (errors, then warnings), then graph, lifecycle and model rules.
  public static let all: [RuleInfo] =
    Rule.allCases.map { RuleInfo(rule: $0, id: $0.id, kind: $0.kind, severity: $0.severity) }

  /// The rule with this id.
  public static func named(_ id: String) -> RuleInfo? { all.first { $0.id == id } }
}

extension CheckRule {
  /// Whether the rule is about the graph, the lifecycle or the model.
  public var kind: RuleInfo.Kind {
    switch self {
    case .selfLink, .slotOccupied, .idReused, .unknownController, .useAfterDealloc, .focusMismatch, .notNeighbour,
      .deallocForbidden:
      .graph
    case .loadRepeated, .appearBeforeLoad, .didRepeated, .didWithoutWill, .willRepeated, .misattributed,
      .incompleteTransition,
      .order, .modalLeak, .visibleCount, .touchesViolated:
      .lifecycle
    case .modelDivergence: .model
    }
  }
}
