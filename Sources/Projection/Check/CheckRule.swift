import Journal

/// A rule of the lifecycle checker: a stable id and a severity (spec "Lifecycle rules (what
/// check reports)"); what it finds is said in `Rendering` (`summary`).
///
/// The journal-integrity rules (`malformed`, `seq-gap`, ...) come from the reader
/// (``FormatRule``; ``Rule`` is either); these are the lifecycle and graph rules
/// the ``Checker`` adds, and `model-divergence` from ``Conformance``. The fold's
/// anomalies (``Anomaly/rule``) and the navigator's refusals
/// (``NavigatorError/Kind/rule(_:)``) name theirs by these cases.
///
/// ```swift
/// CheckRule(rawValue: "will-repeated")?.severity  // .error
/// CheckRule.modalLeak.id                          // "modal-leak"
/// ```
public enum CheckRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case selfLink = "self-link"
  case slotOccupied = "slot-occupied"
  case idReused = "id-reused"
  case unknownController = "unknown-controller"
  case useAfterDealloc = "use-after-dealloc"
  case loadRepeated = "load-repeated"
  case appearBeforeLoad = "appear-before-load"
  case didRepeated = "did-repeated"
  case didWithoutWill = "did-without-will"
  case willRepeated = "will-repeated"
  case misattributed = "misattributed"
  case incompleteTransition = "incomplete-transition"
  case order = "order"
  case focusMismatch = "focus-mismatch"
  case notNeighbour = "not-neighbour"
  case modalLeak = "modal-leak"
  case deallocForbidden = "dealloc-forbidden"
  case visibleCount = "visible-count"
  case touchesViolated = "touches-violated"
  /// Found by `check --model` (``Conformance``), not by the ``Checker``.
  case modelDivergence = "model-divergence"

  /// The stable id, e.g. `will-repeated`.
  public var id: String { rawValue }
  public var description: String { rawValue }

  /// Every lifecycle and graph rule is an error.
  public var severity: Diagnostic.Severity { .error }

  /// The rules the streaming ``Checker`` applies (all but `model-divergence`).
  public static let lifecycleRules: [CheckRule] = allCases.filter { $0 != .modelDivergence }

  /// The bit of this rule in a ``RuleSelection``, numbered by the rule's position in `allCases`: a new
  /// rule takes its bit wherever it is declared (`CheckSelectionTests` selects each rule alone).
  ///
  /// Implementation note: a case without a payload is stored as its position among the cases,
  /// in declaration order (`allCases`' order), in one byte; read so, the bit costs a shift. The
  /// checker asks for a rule's bit at every finding it may report, too often to search
  /// `allCases` each time. `CheckSelectionTests` compares the two for every rule.
  @inline(__always)
  var bit: UInt32 { 1 << UInt32(position) }

  /// The rule's position in `allCases`.
  var position: UInt8 { unsafeBitCast(self, to: UInt8.self) }
}
