import Journal

/// Where the rules report while one record is checked: turns a rule, the
/// controllers and a ``Finding/Fact`` into a ``Finding`` at the record's
/// line and `seq`, with the transition it happened in, and drops rules not
/// selected. No words are written here: an output renders the ``Finding``.
struct CheckFindings {
  let rules: RuleSelection
  /// Line and `seq` of the record being checked.
  var line = 0
  var seq: Int?
  /// The call site (`source`) of the record being checked.
  var source: String?
  var found: [Finding] = []

  init(rules: RuleSelection) {
    self.rules = rules
  }

  /// Whether `rule` is selected (check before gathering an expensive fact).
  @inline(__always)
  func wants(_ rule: CheckRule) -> Bool { rules.contains(rule) }

  /// Reports one finding at the current record, or at `line`/`seq` when given.
  ///
  /// - Parameters:
  ///   - transition: the move or initial display it happened in; its `seq` becomes the
  ///     finding's `move`, and the message ends with it: `(in move at seq 41: home → notes)`.
  mutating func report(
    _ rule: CheckRule, _ controllers: [ControllerID], _ fact: Finding.Fact, in transition: Transition?,
    line: Int? = nil, seq: Int?? = nil, source: String?? = nil
  ) {
    guard rules.contains(rule) else { return }
    found.append(
      Finding(
        rule, fact, in: transition.map(Finding.Context.init), line: line ?? self.line, seq: seq ?? self.seq,
        controllers: controllers, move: transition?.seq, source: source ?? self.source))
  }
}

extension Transition {
  /// The ends of the transition, `from` first.
  var ends: [ControllerID] { (from.map { [$0] } ?? []) + [to] }
}
