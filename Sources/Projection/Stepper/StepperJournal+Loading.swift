import Dispatch
import Journal
import Synchronization

extension StepperJournal {
  /// Reads a journal file and checks it; returns once both are done.
  ///
  /// ```swift
  /// let journal = try StepperJournal.load(path: "Journals/notes.legacy.ndjson")
  /// journal.isChecked   // true
  /// ```
  ///
  /// - Parameters: as ``open(path:name:options:rules:model:glyphs:whenChecked:)``.
  /// - Throws: ``JournalFileError`` when the file cannot be opened or read.
  public static func load(
    path: String, name: String? = nil, options: ReadOptions = .init(), rules: RuleSelection = .all,
    model: Profile? = nil, glyphs: Glyphs = .unicode
  ) throws(JournalFileError) -> StepperJournal {
    let (journal, check) = try open(
      path: path, name: name, options: options, rules: rules, model: model, glyphs: glyphs)
    return journal.withFindings(check.wait())
  }

  /// Reads a journal file for stepping and starts its check on another
  /// thread: returns as soon as the records are read and the timeline built,
  /// before the check has necessarily finished.
  ///
  /// Every line is decoded once. The check (the reader's integrity findings
  /// and every lifecycle rule, exactly as `check` reports them) starts once
  /// the timeline is built, on a serial queue of its own, over the records
  /// already in memory.
  ///
  /// Implementation note: checking while the file is read looks faster, but
  /// both threads then retain and release the same records' strings and
  /// compete for memory; measured on 1M events (step-bench), the first screen
  /// came 1.9 times later, and the findings no sooner.
  ///
  /// ```swift
  /// let (journal, check) = try StepperJournal.open(path: path) { wakeUpTheLoop() }
  /// // ... show journal (its findings pending) ...
  /// if let findings = check.result { journal = journal.withFindings(findings) }
  /// ```
  ///
  /// - Parameters:
  ///   - path: the journal, `-` for standard input.
  ///   - name: the name shown (default: the path, `<stdin>` for `-`).
  ///   - options: reading options (line and depth limits, strict mode).
  ///   - rules: the rules whose findings are shown.
  ///   - model: also compare the recording with this profile of the reference model (`check --model`).
  ///   - whenChecked: called on the check's thread once ``PendingCheck/result`` is set (before
  ///     ``PendingCheck/wait()`` returns).
  /// - Returns: the journal without its findings, and the check that computes them.
  /// - Throws: ``JournalFileError`` when the file cannot be opened or read.
  public static func open(
    path: String, name: String? = nil, options: ReadOptions = .init(), rules: RuleSelection = .all,
    model: Profile? = nil, glyphs: Glyphs = .unicode, whenChecked: @escaping @Sendable () -> Void = {}
  ) throws(JournalFileError) -> (journal: StepperJournal, check: PendingCheck) {
    let reader = try JournalReader(path: path, options: options)
    var records: [Record] = []
    var lines: [Int32] = []
    var findings: [Diagnostic] = []
    while let item = reader.next() {
      switch item {
      case .record(let record, let line, _):
        records.append(record)
        lines.append(Int32(truncatingIfNeeded: line))
      case .diagnostic(let diagnostic):
        findings.append(diagnostic)
      }
    }
    if let error = reader.readError { throw error }
    let journal = StepperJournal(
      name: name ?? (path == "-" ? "<stdin>" : path), records: records, lineNumbers: lines, findings: nil)
    let check = PendingCheck(
      records: journal.records, lines: lines, readerFindings: findings, rules: rules, model: model, glyphs: glyphs,
      whenChecked: whenChecked)
    return (journal, check)
  }
}

/// The check of a journal in memory, running on its own serial queue; it
/// ends with the findings sorted by line, exactly those `check` reports (it
/// runs the same ``JournalCheck`` over the reader's items again, in file order).
public final class PendingCheck: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let finished = Mutex<[Diagnostic]?>(nil)
  /// The reader's findings of error severity: the journal could not be read correctly.
  public let formatErrors: Int

  /// Starts checking.
  ///
  /// - Parameters:
  ///   - records: the records, in file order.
  ///   - lines: the 1-based journal line of each record.
  ///   - readerFindings: the reader's findings, in file order.
  ///   - rules: the rules reported.
  ///   - model: also compare with this profile of the reference model.
  ///   - whenChecked: called on the check's thread once ``result`` is set.
  init(
    records: [Record], lines: [Int32], readerFindings: [Diagnostic], rules: RuleSelection, model: Profile?,
    glyphs: Glyphs = .unicode, whenChecked: @escaping @Sendable () -> Void
  ) {
    formatErrors = readerFindings.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) }
    let queue = DispatchQueue(label: "spatial-replay.step.check")
    queue.async { [self] in
      let findings = Self.check(records, lines, readerFindings, rules: rules, model: model, glyphs: glyphs)
      finished.withLock { $0 = findings }
      whenChecked()
      done.signal()
    }
  }

  /// The findings once the check is done, nil before.
  public var result: [Diagnostic]? { finished.withLock { $0 } }

  /// Blocks until the check is done; its findings.
  public func wait() -> [Diagnostic] {
    if let result { return result }
    done.wait()
    done.signal()
    return result ?? []
  }

  private static func check(
    _ records: [Record], _ lines: [Int32], _ readerFindings: [Diagnostic], rules: RuleSelection, model: Profile?,
    glyphs: Glyphs
  ) -> [Diagnostic] {
    var check = JournalCheck(rules: rules, model: model, glyphs: glyphs)
    var diagnostics: [Diagnostic] = []
    // Implementation note: the findings the check passes on are taken out as
    // they come; kept as `CheckFinding`s (with room for a model divergence)
    // until the end, the findings of a 1M-event legacy journal cost 300 MiB more.
    var passed: [CheckFinding] = []
    func take() {
      for finding in passed { diagnostics.append(finding.diagnostic) }
      passed.removeAll(keepingCapacity: true)
    }
    // The reader's items again, in file order: a line's findings before its record.
    var k = 0
    for (i, record) in records.enumerated() {
      let line = Int(lines[i])
      while k < readerFindings.count && readerFindings[k].line <= line {
        check.consume(readerFindings[k], into: &passed)
        k += 1
      }
      check.consume(record, line: line, into: &passed)
      if !passed.isEmpty { take() }
    }
    for finding in readerFindings[k...] { check.consume(finding, into: &passed) }
    check.finish(into: &passed)
    take()
    return diagnostics
  }
}
