import Journal

/// Every finding about one journal in line order: the reader's integrity
/// findings merged with the lifecycle ``Checker``'s.
///
/// The checker holds some findings back while a cleanup after a didAppear
/// passes (a `modal-leak` is reported at the didAppear); the reader's findings
/// of those lines wait with them and are merged by line once the checker lets go.
struct FindingStream {
  private var checker: Checker
  private var held: [Diagnostic] = []
  private var found: [Diagnostic] = []

  init(rules: RuleSelection = .all) { checker = Checker(rules: rules) }

  /// The model's state after the last record.
  var state: State { checker.state }

  /// Takes the reader's next item; appends the findings that are final, in line order.
  mutating func consume(_ item: JournalItem, into out: inout [Diagnostic]) {
    switch item {
    case .record(let record, let line, _):
      consume(record, line: line, into: &out)
    case .diagnostic(let diagnostic):
      found.append(diagnostic)
      settle(into: &out)
    }
  }

  /// Takes a record of the reader.
  mutating func consume(_ record: Record, line: Int, into out: inout [Diagnostic]) {
    checker.check(record, line: line, into: &found)
    settle(into: &out)
  }

  /// Passes on what was found, unless the checker is holding findings back.
  @inline(__always)
  private mutating func settle(into out: inout [Diagnostic]) {
    guard !found.isEmpty || !held.isEmpty else { return }
    if held.isEmpty && checker.heldSince == nil {
      out.append(contentsOf: found)
    } else {
      held.append(contentsOf: found)
      if checker.heldSince == nil { release(into: &out) }
    }
    found.removeAll(keepingCapacity: true)
  }

  /// Ends the journal: the findings only its end shows, and everything held.
  mutating func finish(into out: inout [Diagnostic]) {
    checker.finish(into: &found)
    held.append(contentsOf: found)
    found.removeAll()
    release(into: &out)
  }

  /// Appends the held findings sorted by line (keeping the order of findings of one line).
  private mutating func release(into out: inout [Diagnostic]) {
    let sorted = held.enumerated().sorted { a, b in
      a.element.line != b.element.line ? a.element.line < b.element.line : a.offset < b.offset
    }
    out.append(contentsOf: sorted.map(\.element))
    held.removeAll(keepingCapacity: true)
  }
}
