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
  /// - Parameters: as ``open(path:name:options:rules:model:whenChecked:)``.
  /// - Throws: ``JournalFileError`` when the file cannot be opened or read.
  public static func load(
    path: String, name: String? = nil, options: ReadOptions = .init(), rules: RuleSelection = .all,
    model: Profile? = nil
  ) throws(JournalFileError) -> StepperJournal {
    let (journal, check) = try open(path: path, name: name, options: options, rules: rules, model: model)
    return journal.withFindings(check.wait())
  }

  /// Reads a journal file for stepping, checking it on another thread at the
  /// same time: returns as soon as the records are read and the timeline
  /// built, before the check has necessarily finished.
  ///
  /// Every line is decoded once, on the caller's thread; batches of what the
  /// reader yields go to the check (the reader's integrity findings and every
  /// lifecycle rule, as `check` reports them) on a serial queue, which
  /// therefore runs while the file is read and while the timeline folds.
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
    model: Profile? = nil, whenChecked: @escaping @Sendable () -> Void = {}
  ) throws(JournalFileError) -> (journal: StepperJournal, check: PendingCheck) {
    let reader = try JournalReader(path: path, options: options)
    let check = PendingCheck(rules: rules, model: model, whenChecked: whenChecked)
    var records: [Record] = []
    var lines: [Int] = []
    var batch: [JournalItem] = []
    batch.reserveCapacity(PendingCheck.batchSize)
    while let item = reader.next() {
      if case .record(let record, let line, _) = item {
        records.append(record)
        lines.append(line)
      }
      batch.append(item)
      if batch.count == PendingCheck.batchSize {
        check.consume(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    check.consume(batch)
    check.finish()
    if let error = reader.readError { throw error }
    let journal = StepperJournal(
      name: name ?? (path == "-" ? "<stdin>" : path), records: records, lines: lines, findings: nil)
    return (journal, check)
  }
}

/// The check of a journal running on its own serial queue: fed batches of
/// reader items in file order, it ends with the findings sorted by line,
/// exactly those `check` reports.
///
/// Implementation note: the lifecycle rules run in a ``Checker`` directly and
/// the reader's few findings are merged in at the end (a finding of the reader
/// comes before the checker's on the same line, as in ``JournalCheck``); only
/// the model comparison (`--model`) goes through ``JournalCheck``, whose
/// ordering queue costs more per finding.
public final class PendingCheck: Sendable {
  static let batchSize = 4096

  private let queue = DispatchQueue(label: "spatial-replay.step.check")
  private let done = DispatchSemaphore(value: 0)
  private let work: Mutex<Work>
  private let finished = Mutex<[Diagnostic]?>(nil)
  private let whenChecked: @Sendable () -> Void

  /// What runs on the queue.
  private struct Work: Sendable {
    var rules: RuleSelection
    var checker: Checker?
    var journalCheck: JournalCheck?
    var reader: [Diagnostic] = []
    var lifecycle: [Diagnostic] = []
    var combined: [CheckFinding] = []
  }

  init(rules: RuleSelection, model: Profile?, whenChecked: @escaping @Sendable () -> Void) {
    var work = Work(rules: rules)
    if model != nil {
      work.journalCheck = JournalCheck(rules: rules, model: model)
    } else if rules.containsLifecycleRules {
      work.checker = Checker(rules: rules)
    }
    self.work = Mutex(work)
    self.whenChecked = whenChecked
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

  fileprivate func consume(_ items: [JournalItem]) {
    guard !items.isEmpty else { return }
    queue.async { [self] in
      work.withLock { work in
        if var check = work.journalCheck {
          work.journalCheck = nil
          for item in items { check.consume(item, into: &work.combined) }
          work.journalCheck = check
          return
        }
        for item in items {
          switch item {
          case .diagnostic(let diagnostic):
            if work.rules.contains(diagnostic.rule) { work.reader.append(diagnostic) }
          case .record(let record, let line, _):
            work.checker?.check(record, line: line, into: &work.lifecycle)
          }
        }
      }
    }
  }

  fileprivate func finish() {
    queue.async { [self] in
      let findings = work.withLock { work -> [Diagnostic] in
        if var check = work.journalCheck {
          check.finish(into: &work.combined)
          return work.combined.map(\.diagnostic)
        }
        work.checker?.finish(into: &work.lifecycle)
        return Self.merge(work.reader, work.lifecycle)
      }
      finished.withLock { $0 = findings }
      whenChecked()
      done.signal()
    }
  }

  /// Two lists sorted by line as one, `first`'s before `second`'s on a line.
  static func merge(_ first: [Diagnostic], _ second: [Diagnostic]) -> [Diagnostic] {
    guard !first.isEmpty else { return second }
    var out: [Diagnostic] = []
    out.reserveCapacity(first.count + second.count)
    var j = 0
    for finding in first {
      while j < second.count && second[j].line < finding.line {
        out.append(second[j])
        j += 1
      }
      out.append(finding)
    }
    out.append(contentsOf: second[j...])
    return out
  }
}
