import Journal

/// Everything `check` does to one journal, streaming: the reader's integrity
/// findings, the lifecycle ``Checker`` and, with a model profile, the
/// ``Conformance`` check, merged into one list sorted by line, filtered by a
/// ``RuleSelection``. It is the one place findings are merged: `check`,
/// `stats`, `export --table findings`, `report` and `step` all read theirs
/// from it.
///
/// A finding is passed on as soon as nothing still to come can sort before
/// it, so a consumer that attaches context to findings as they come (the
/// common columns of `export`, which change at the session header) sees each
/// finding at its place in the file: a finding is held only while the checker
/// holds a didAppear's findings back (``Checker/heldSince``), the model
/// comparison reads an input (``Conformance/pendingLine``), or, after the
/// last record, until the end of the journal, whose findings are reported at
/// the last record's line.
///
/// At most ``maxWaiting`` findings wait, so that memory stays bounded whatever
/// the input: past that, the earliest waiting ones are passed on, and a
/// finding still to come may then be at an earlier line than some passed on
/// before it. Only a degenerate journal does that: more than 10,000 lines of
/// findings without an event (fifty million blank lines after the last event,
/// or inside a cleanup), where the findings of the journal's end (or of the
/// cleanup) then come after them. Every finding is still passed on once.
///
/// ```swift
/// let reader = try JournalReader(path: "Journals/demo.legacy.ndjson")
/// var check = JournalCheck(rules: .all, model: .intended)
/// var findings: [CheckFinding] = []
/// while let item = reader.next() { check.consume(item, into: &findings) }
/// check.finish(into: &findings)
/// check.summary.errors
/// ```
///
/// - Complexity: O(1) amortised per item; memory is the model's state plus the
///   findings that wait for an earlier one (a cleanup, or one input's events),
///   at most ``maxWaiting``.
public struct JournalCheck: Sendable {
  /// The rules reported.
  public let rules: RuleSelection
  /// The most findings that wait for earlier ones; past it the earliest are passed on.
  public static let maxWaiting = 10_000
  /// Totals of what was reported so far.
  public private(set) var summary = CheckSummary()

  /// Implementation note: not optionals, so that each record mutates them in place.
  private var checker: Checker
  private let checks: Bool
  private var conformance: Conformance
  private let conforms: Bool
  /// Findings waiting for earlier ones, sorted by line (stable).
  private var queue: [CheckFinding] = []
  private var scratch: [Finding] = []
  private var divergences: [ModelDivergence] = []
  /// The line of the last item read.
  private var line = 0
  /// The line of the last record read: the checker reports the end of the journal there.
  private var recordLine: Int?
  /// The checker's ``Checker/heldSince`` after the last record.
  private var heldSince: Int?
  /// The rule counted last and its entry in the summary's counts by rule: a storm of one rule is
  /// counted without hashing its id for each finding (only ``count(_:times:)`` inserts a rule,
  /// and it keeps this entry's index up to date).
  private var lastCounted: (rule: Rule, index: Dictionary<Rule, Int>.Index)?

  /// - Parameters:
  ///   - rules: the rules to report.
  ///   - model: compare the recording with this profile of the reference model (`check --model`).
  ///
  /// The findings are facts (``Finding``): the output that shows one renders it.
  public init(rules: RuleSelection = .all, model: Profile? = nil) {
    self.rules = rules
    checker = Checker(rules: rules)
    checks = rules.containsLifecycleRules
    conformance = Conformance(profile: model ?? .intended)
    conforms = model != nil && rules.contains(.modelDivergence)
  }

  /// The model's state after the last record (folded only when a lifecycle rule is selected).
  package var state: State { checker.state }

  /// Takes the reader's next item; appends the findings that are final, sorted by line.
  public mutating func consume(_ item: JournalItem, into findings: inout [CheckFinding]) {
    switch item {
    case .diagnostic(let diagnostic): consume(diagnostic, into: &findings)
    case .record(let record, let line, _): consume(record, line: line, into: &findings)
    }
  }

  /// Takes a finding of the reader (a line's findings come before its record).
  public mutating func consume(_ diagnostic: Diagnostic, into findings: inout [CheckFinding]) {
    line = max(line, diagnostic.line)
    let selected = rules.contains(diagnostic.rule)
    if selected && queue.isEmpty && diagnostic.line <= finalBound() {
      // Final at once, nothing waiting before it (a storm of blank lines): passed on as it is,
      // as the queue would pass it on.
      let finding = CheckFinding.format(diagnostic)
      count(finding, times: 1)
      findings.append(finding)
    } else if selected {
      enqueue(.format(diagnostic))
    } else if diagnostic.severity == .error {
      summary.unreported[.format(diagnostic.rule), default: 0] += 1
    }
    if diagnostic.severity == .error { summary.formatErrors += 1 }
    releaseFinal(into: &findings)
    if queue.count > Self.maxWaiting { releaseEarliest(into: &findings) }
  }

  /// Passes on the earliest half of the waiting findings, which are too many (``maxWaiting``).
  @inline(never)
  private mutating func releaseEarliest(into findings: inout [CheckFinding]) {
    release(through: queue[queue.count - Self.maxWaiting / 2].line - 1, into: &findings)
    if queue.count > Self.maxWaiting {
      // Every waiting finding is on one line: release by count.
      let n = queue.count - Self.maxWaiting / 2
      for finding in queue[..<n] { count(finding, times: 1) }
      findings.append(contentsOf: queue[..<n])
      queue.removeFirst(n)
    }
  }

  /// Takes a record of the reader, at its 1-based line.
  public mutating func consume(_ record: Record, line: Int, into findings: inout [CheckFinding]) {
    if checks {
      checker.check(record, line: line, into: &scratch)
      heldSince = checker.heldSince
    }
    // The checker has folded the record already: the conformance check reads its state.
    consumeChecked(record, line: line, transition: checks ? checker.state.transition : nil, into: &findings)
  }

  /// Takes a batch of the reader's items that a ``CheckerPass`` (of the same
  /// rules and model) has checked, on another thread: the same findings
  /// as ``consume(_:into:)`` for each item in turn.
  public mutating func consume(
    _ batch: inout JournalBatch, checked: CheckedBatch, into findings: inout [CheckFinding]
  ) {
    batch.forEachItem { i, item in consume(&item, at: i, checked: checked, into: &findings) }
  }

  /// Takes item `i` of a batch that a ``CheckerPass`` checked, after the items
  /// before it: the findings ``consume(_:into:)`` would pass on at that item, so
  /// that a caller that draws each finding where it is passed on (the trace) does
  /// so at the same item whether the journal came in batches or item by item.
  /// The item is read in place and left as it was.
  @inline(__always)
  public mutating func consume(
    _ item: inout JournalItem, at i: Int, checked: CheckedBatch, into findings: inout [CheckFinding]
  ) {
    guard checks else { return consume(item, into: &findings) }
    // The record's line through withRecord: matching the item (`case .record(_, let line, _)`)
    // copied the whole record out of it and destroyed the copy.
    guard let line = item.withRecord({ _, line in line }) else {
      if case .diagnostic(let diagnostic) = item { consume(diagnostic, into: &findings) }
      return
    }
    takeChecked(at: i, checked)
    // The record itself only for the model comparison, borrowed in place: bound, it was copied.
    if conforms {
      item.withRecord { record, line in
        consumeChecked(record, line: line, transition: checked.transitions[i], into: &findings)
      }
    } else {
      noteRecord(line: line)
      merge(into: &findings)
    }
  }

  /// ``consume(_:at:checked:into:)`` for a record the caller holds (item `i` of the batch, at
  /// `line`): a consumer that reads the record too (`stats`) borrows it once for both.
  @inline(__always)
  public mutating func consume(
    _ record: borrowing Record, line: Int, at i: Int, checked: CheckedBatch, into findings: inout [CheckFinding]
  ) {
    guard checks else { return consume(copy record, line: line, into: &findings) }
    takeChecked(at: i, checked)
    if conforms {
      consumeChecked(copy record, line: line, transition: checked.transitions[i], into: &findings)
    } else {
      noteRecord(line: line)
      merge(into: &findings)
    }
  }

  /// The checker's findings of item `i` and what it held back there.
  @inline(__always)
  private mutating func takeChecked(at i: Int, _ checked: CheckedBatch) {
    let start = i == 0 ? 0 : Int(checked.ends[i - 1])
    let end = Int(checked.ends[i])
    if end > start { scratch.append(contentsOf: checked.findings[start..<end]) }
    let held = checked.held[i]
    heldSince = held == CheckedBatch.none ? nil : held
  }

  /// Ends the journal checked by a ``CheckerPass``, given what its ``CheckerPass/finish()`` returned.
  public mutating func finish(checked: [Finding], into findings: inout [CheckFinding]) {
    guard checks else { return finish(into: &findings) }
    scratch.append(contentsOf: checked)
    if conforms { conformance.finish(into: &divergences) }
    drainScratch()
    release(through: .max, into: &findings)
  }

  /// A record the checker (when lifecycle rules are selected) has checked into
  /// ``scratch``: `transition` is the one of its fold after the record.
  private mutating func consumeChecked(
    _ record: Record, line: Int, transition: Transition?, into findings: inout [CheckFinding]
  ) {
    noteRecord(line: line)
    if conforms {
      if checks {
        conformance.feed(record, line: line, transition: transition, into: &divergences)
      } else {
        conformance.feed(record, line: line, into: &divergences)
      }
    }
    merge(into: &findings)
  }

  private mutating func noteRecord(line: Int) {
    self.line = line
    recordLine = line
    summary.events += 1
  }

  /// After a record: passes on or queues the findings of the checker and the model comparison.
  @inline(__always)
  private mutating func merge(into findings: inout [CheckFinding]) {
    if queue.isEmpty && divergences.isEmpty {
      if !scratch.isEmpty { passChecked(into: &findings) }
      return
    }
    drainScratch()
    releaseFinal(into: &findings)
  }

  /// The checker's findings of a record when none is waiting: those already
  /// final pass straight on, the rest wait.
  ///
  /// Implementation note: the checker's findings come sorted by line, so with
  /// nothing waiting the queue would take them in that order and give back the
  /// same ones; passing them on directly saves an insertion and a removal
  /// each, most of what merging would cost on a journal with many findings
  /// (a legacy one has one finding every two events).
  private mutating func passChecked(into findings: inout [CheckFinding]) {
    let bound = finalBound()
    var i = 0
    while i < scratch.count, scratch[i].line <= bound {
      let finding = CheckFinding.rule(scratch[i])
      count(finding, times: 1)
      findings.append(finding)
      i += 1
    }
    while i < scratch.count {
      enqueue(.rule(scratch[i]))
      i += 1
    }
    scratch.removeAll(keepingCapacity: true)
  }

  /// Ends the journal: appends every remaining finding.
  public mutating func finish(into findings: inout [CheckFinding]) {
    if checks { checker.finish(into: &scratch) }
    if conforms { conformance.finish(into: &divergences) }
    drainScratch()
    release(through: .max, into: &findings)
  }

  private mutating func drainScratch() {
    for finding in scratch { enqueue(.rule(finding)) }
    scratch.removeAll(keepingCapacity: true)
    for divergence in divergences { enqueue(.divergence(divergence)) }
    divergences.removeAll(keepingCapacity: true)
  }

  /// Counts `times` findings like `finding` in the summary.
  @inline(__always)
  private mutating func count(_ finding: CheckFinding, times: Int) {
    let rule = finding.rule
    if let last = lastCounted, last.rule == rule {
      switch finding.severity {
      case .error: summary.errors += times
      case .warning: summary.warnings += times
      }
      summary.byRule.values[last.index] += times
    } else {
      summary.count(finding, times: times)
      lastCounted = (rule, summary.byRule.index(forKey: rule)!)
    }
  }

  /// Inserts after every finding of the same or an earlier line.
  private mutating func enqueue(_ finding: CheckFinding) {
    var i = queue.endIndex
    let line = finding.line
    while i > queue.startIndex, queue[i - 1].line > line { i -= 1 }
    // Nearly always last: an insertion at the end went through the general replacement of a range.
    if i == queue.endIndex { queue.append(finding) } else { queue.insert(finding, at: i) }
  }

  /// Appends the findings no later one can come before: every finding still
  /// to come is at ``line`` or later, at the checker's held didAppear, at the
  /// model comparison's pending input, or (the end of the journal) at the last
  /// record's line; one of the same line comes after those already queued.
  @inline(__always)
  private mutating func releaseFinal(into findings: inout [CheckFinding]) {
    guard !queue.isEmpty else { return }
    release(through: finalBound(), into: &findings)
  }

  /// The line up to which findings are final (see ``releaseFinal(into:)``).
  @inline(__always)
  private func finalBound() -> Int {
    var bound = line
    if checks, let earliest = heldSince ?? recordLine { bound = min(bound, earliest) }
    if conforms, let pending = conformance.pendingLine { bound = min(bound, pending) }
    return bound
  }

  private mutating func release(through line: Int, into findings: inout [CheckFinding]) {
    var n = 0
    while n < queue.count, queue[n].line <= line {
      // A run of findings of one rule and severity (a storm of blank lines) is counted at once.
      let first = n
      n += 1
      while n < queue.count, queue[n].line <= line,
        queue[n].severity == queue[first].severity,
        queue[n].rule == queue[first].rule
      {
        n += 1
      }
      count(queue[first], times: n - first)
    }
    guard n > 0 else { return }
    findings.append(contentsOf: queue[..<n])
    queue.removeFirst(n)
  }
}

/// The checker's share of a ``JournalCheck``, for a caller that runs it on
/// another thread than the merging, the model comparison and the output (a
/// ``JournalPass`` does): it checks the reader's items batch by batch, folding
/// each record once, and hands on with each batch what it found (a
/// ``CheckedBatch``: the checker's findings and, when asked, each record's
/// ``RecordFacts``). The journal check given each ``CheckedBatch`` with its
/// items (``JournalCheck/consume(_:checked:into:)``) goes on as if it had
/// checked them itself, and any other consumer reads the fold's facts rather
/// than folding again.
///
/// ```swift
/// var pass = CheckerPass(rules: rules, model: model)   // on thread A
/// var check = JournalCheck(rules: rules, model: model)  // on thread B
/// let checked = pass.check(&batch)                      // A, then hands both to B
/// check.consume(&batch, checked: checked, into: &findings)
/// check.finish(checked: pass.finish(), into: &findings)
/// ```
///
/// Implementation note: on a legacy journal the checker costs about as much as
/// writing the findings out; with `--model`, the checker runs
/// beside the model comparison. Each batch carries, per item, the end of its
/// findings, the checker's ``Checker/heldSince``, (for the model comparison)
/// the transition after it and (when asked) its ``RecordFacts``.
public struct CheckerPass: Sendable {
  private var checker: Checker
  private let checks: Bool
  private let keepsTransitions: Bool
  private let keepsFacts: Bool
  private var recent = RecentIDs()
  /// The consumer that steps through the checker's fold, as it is after the records checked so far.
  public private(set) var folding: (any FoldConsumer)?

  /// - Parameters:
  ///   - rules: the rules to report.
  ///   - model: compare the recording with this profile of the reference model (`check --model`).
  ///   - facts: also keep each record's ``RecordFacts`` (the trace and stats read them), with
  ///     lifecycle rules only.
  ///   - folding: a consumer given the state before and after each record is folded (the
  ///     report's page), with lifecycle rules only (without them the checker does not fold).
  public init(
    rules: RuleSelection = .all, model: Profile? = nil, facts: Bool = false, folding: (any FoldConsumer)? = nil
  ) {
    checker = Checker(rules: rules)
    checks = rules.containsLifecycleRules
    keepsTransitions = checks && model != nil && rules.contains(.modelDivergence)
    keepsFacts = checks && facts
    self.folding = folding
  }

  /// Checks a batch of the reader's items, in file order. The items are read in place and left as
  /// they were.
  public mutating func check(_ batch: inout JournalBatch) -> CheckedBatch {
    guard checks else { return CheckedBatch() }
    var checked = CheckedBatch.Parts()
    let count = batch.count
    checked.ends.reserveCapacity(count)
    checked.held.reserveCapacity(count)
    if keepsTransitions { checked.transitions.reserveCapacity(count) }
    if keepsFacts { checked.facts.reserveCapacity(count) }
    batch.forEachItem { _, item in
      let isRecord = item.withRecord { record, line in check(record, line: line, into: &checked) } != nil
      if !isRecord {
        if keepsTransitions { checked.transitions.append(nil) }
        if keepsFacts { checked.facts.append(.none) }
      }
      checked.ends.append(Int32(checked.findings.count))
      checked.held.append(checker.heldSince ?? CheckedBatch.none)
    }
    return CheckedBatch(checked)
  }

  private mutating func check(_ record: Record, line: Int, into batch: inout CheckedBatch.Parts) {
    let before = keepsFacts ? RecordFacts.before(record, in: checker.state, &recent) : 0
    folding?.willFold(record, state: checker.state)
    checker.check(record, line: line, into: &batch.findings)
    folding?.didFold(record, state: checker.state)
    if keepsTransitions { batch.transitions.append(checker.state.transition) }
    if keepsFacts {
      batch.facts.append(
        RecordFacts.after(record, in: checker.state, before: before, position: checker.lifecyclePosition, &recent))
    }
  }

  /// Ends the journal: the checker's last findings.
  public mutating func finish() -> [Finding] {
    var findings: [Finding] = []
    if checks { checker.finish(into: &findings) }
    return findings
  }

  /// The model's state after the last record checked (folded only when a lifecycle rule is selected).
  package var state: State { checker.state }
}

/// What a ``CheckerPass`` found in a batch of items, for every consumer of the
/// batch: the checker's findings (``JournalCheck/consume(_:checked:into:)``
/// merges them) and, when the pass keeps them, each record's ``RecordFacts``.
public struct CheckedBatch: Sendable {
  /// What the pass found, per item, as it builds it.
  fileprivate struct Parts {
    /// Per item: the end of its findings in ``findings``.
    var ends: [Int32] = []
    var findings: [Finding] = []
    /// Per item: the checker's ``Checker/heldSince`` after it, ``none`` for nil.
    var held: [Int] = []
    /// Per item, with the model comparison: the transition of the checker's fold after it.
    var transitions: [Transition?] = []
    /// Per item, when the pass keeps them: what the fold says of its record (``RecordFacts/none`` for a finding).
    var facts: [RecordFacts] = []
  }

  /// The parts, shared once built.
  ///
  /// Implementation note: one reference, not five arrays: a consumer's closure that copies the
  /// batch for each item (stats, the trace) then retains one object rather than five, and the
  /// `let`s are read without the exclusivity checks of a class's `var`s.
  fileprivate final class Storage: Sendable {
    let ends: [Int32]
    let findings: [Finding]
    let held: [Int]
    let transitions: [Transition?]
    let facts: [RecordFacts]

    init(_ parts: Parts) {
      ends = parts.ends
      findings = parts.findings
      held = parts.held
      transitions = parts.transitions
      facts = parts.facts
    }

    static let empty = Storage(Parts())
  }

  private let storage: Storage

  fileprivate var ends: [Int32] { storage.ends }
  fileprivate var findings: [Finding] { storage.findings }
  fileprivate var held: [Int] { storage.held }
  fileprivate var transitions: [Transition?] { storage.transitions }
  fileprivate var facts: [RecordFacts] { storage.facts }

  fileprivate static let none = Int.min

  public init() { storage = .empty }

  fileprivate init(_ parts: Parts) { storage = Storage(parts) }

  /// Items `range` of the batch, as what the pass found in a batch of those items alone (the
  /// report's trace ends its window inside a batch).
  package func slice(_ range: Range<Int>) -> CheckedBatch {
    var slice = Parts()
    guard !ends.isEmpty else { return CheckedBatch() }
    let base = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
    slice.ends = ends[range].map { $0 - base }
    slice.findings = Array(findings[Int(base)..<Int(range.isEmpty ? base : ends[range.upperBound - 1])])
    slice.held = Array(held[range])
    if !transitions.isEmpty { slice.transitions = Array(transitions[range]) }
    if !facts.isEmpty { slice.facts = Array(facts[range]) }
    return CheckedBatch(slice)
  }

  /// Whether the pass kept each record's facts (``facts(at:)``).
  public var hasFacts: Bool { !facts.isEmpty }

  /// What the fold says of item `i`'s record (the pass must keep facts: ``hasFacts``).
  @inline(__always)
  public func facts(at i: Int) -> RecordFacts { storage.facts[i] }
}
