import Journal

/// One finding of `check`: the reader's about the format, or a rule's of
/// the model (with, for a model divergence, its diff). Where it is and which
/// rule are read alike from either.
public enum CheckFinding: Sendable, Hashable {
  /// A rule of the format, found by the reader.
  case format(Diagnostic)
  /// A lifecycle or graph rule, found by the ``Checker``.
  case rule(Finding)
  /// `model-divergence`, found by ``Conformance``: the finding and its diff.
  indirect case divergence(ModelDivergence)

  /// The rule found.
  public var rule: Rule {
    switch self {
    case .format(let diagnostic): .format(diagnostic.rule)
    case .rule(let finding): .check(finding.rule)
    case .divergence(let divergence): .check(divergence.finding.rule)
    }
  }

  public var severity: Diagnostic.Severity {
    switch self {
    case .format(let diagnostic): diagnostic.severity
    case .rule(let finding): finding.severity
    case .divergence(let divergence): divergence.finding.severity
    }
  }

  /// 1-based line number in the journal.
  public var line: Int {
    switch self {
    case .format(let diagnostic): diagnostic.line
    case .rule(let finding): finding.line
    case .divergence(let divergence): divergence.finding.line
    }
  }

  /// The `seq` of the event, when it has one.
  public var seq: Int? {
    switch self {
    case .format(let diagnostic): diagnostic.seq
    case .rule(let finding): finding.seq
    case .divergence(let divergence): divergence.finding.seq
    }
  }

  /// The rule's finding (a divergence's too); nil for the reader's.
  public var finding: Finding? {
    switch self {
    case .format: nil
    case .rule(let finding): finding
    case .divergence(let divergence): divergence.finding
    }
  }

  /// The reader's finding; nil for a rule's of the model.
  public var diagnostic: Diagnostic? {
    if case .format(let diagnostic) = self { diagnostic } else { nil }
  }

  /// The diff behind a `model-divergence` finding.
  public var divergence: ModelDivergence? {
    if case .divergence(let divergence) = self { divergence } else { nil }
  }

  /// 1-based byte column within the line, when a finding of the format points inside it.
  public var column: Int? { diagnostic?.column }
  /// Byte offset of the line's start (or of the torn tail) in the file, for a finding of the format.
  public var offset: Int64? { diagnostic?.offset }
  /// Length in bytes of a torn tail.
  public var length: Int? { diagnostic?.length }
  /// Controllers involved (the model's rules).
  public var controllers: [ControllerID] { finding?.controllers ?? [] }
  /// The `seq` of the move (or initial display) a rule's finding happened in.
  public var move: Int? { finding?.move }
  /// The app's call site of the event that shows a rule's finding, when it carries one.
  public var source: String? { finding?.source }
}

/// What `check` found in one journal (or several, added up): events read,
/// findings by severity and by rule, and the format errors that decide
/// whether the journal could be read at all.
public struct CheckSummary: Sendable, Hashable {
  /// Records read (lines that decoded).
  public internal(set) var events = 0
  /// Findings reported, by severity.
  public internal(set) var errors = 0
  public internal(set) var warnings = 0
  /// Findings reported, by rule.
  public internal(set) var byRule: [Rule: Int] = [:]
  /// Format errors (``FormatRule`` findings of error severity, warnings
  /// included in strict mode) whether reported or not: a journal with any
  /// cannot be read correctly, and never gets a clean verdict.
  public internal(set) var formatErrors = 0
  /// Format errors that the rule selection left out of the report, by rule.
  public internal(set) var unreported: [Rule: Int] = [:]

  public init() {}

  /// Findings reported per rule, in the order of ``Rule/allCases`` (format
  /// rules, then lifecycle and graph rules, then the model), those with none left out.
  public var ruleCounts: [(rule: Rule, count: Int)] {
    Rule.allCases.compactMap { rule in byRule[rule].map { (rule, $0) } }
  }

  /// Format errors left out of the report per rule, in the same order.
  public var unreportedCounts: [(rule: Rule, count: Int)] {
    Rule.allCases.compactMap { rule in unreported[rule].map { (rule, $0) } }
  }

  /// Adds another journal's summary (for totals over several files).
  public mutating func add(_ other: CheckSummary) {
    events += other.events
    errors += other.errors
    warnings += other.warnings
    formatErrors += other.formatErrors
    byRule.merge(other.byRule, uniquingKeysWith: +)
    unreported.merge(other.unreported, uniquingKeysWith: +)
  }

  mutating func count(_ finding: CheckFinding, times: Int) {
    switch finding.severity {
    case .error: errors += times
    case .warning: warnings += times
    }
    byRule[finding.rule, default: 0] += times
  }
}
