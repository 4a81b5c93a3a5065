import Dispatch
import Journal
import Projection
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
    let reader = try JournalReader(path: path, options: options)
    var loader = Loader(rules: rules, model: model, checkAsRead: true)
    while let item = reader.next() { loader.consume(item) }
    if let error = reader.readError { throw error }
    return loader.finish(name: name ?? (path == "-" ? "<stdin>" : path)).journal
  }

  /// Reads a journal file for stepping and starts its check on another
  /// thread: returns as soon as the records are read and the timeline built,
  /// before the check has necessarily finished.
  ///
  /// Every line is decoded once. The check (the reader's integrity findings
  /// and every lifecycle rule, exactly as `check` reports them) starts once
  /// the timeline is built, on a serial queue of its own, over the records
  /// already in memory (a ``Loader`` that does not check as it reads).
  ///
  /// Implementation note: checking while the file is read on another thread
  /// looks faster, but both threads then retain and release the same records'
  /// strings and compete for memory, so the first screen comes later and the
  /// findings no sooner. Checking
  /// on the reading thread (``Loader/init(rules:model:interval:expectedRecords:checkAsRead:)``)
  /// folds once instead of twice, but the first screen then waits for the
  /// check: for a legacy journal, its 600,000 findings.
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
    var loader = Loader(rules: rules, model: model, checkAsRead: false)
    while let item = reader.next() { loader.consume(item) }
    if let error = reader.readError { throw error }
    return loader.finish(name: name ?? (path == "-" ? "<stdin>" : path), whenChecked: whenChecked)
  }

  /// Builds a ``StepperJournal`` from a reader's items, in file order.
  ///
  /// With `checkAsRead` (what `step --keys` and ``load(path:name:options:rules:model:)``
  /// use: they wait for the findings anyway), the model is folded once: the
  /// check folds each record (as `check` does) and the timeline keeps
  /// snapshots of the check's state instead of folding the whole journal a
  /// second time. Without (what `step` on a terminal uses: the screen comes
  /// before the findings), the loader folds for the timeline itself and
  /// ``finish(name:whenChecked:)`` starts the check on another thread.
  ///
  /// ```swift
  /// var loader = StepperJournal.Loader(checkAsRead: true)
  /// while let item = reader.next() { loader.consume(item) }
  /// let (journal, check) = loader.finish(name: path)
  /// ```
  ///
  /// Implementation note: with decoding on every core, folding is most of the
  /// loading's work, so it is done once: the check's state after each record is the timeline's
  /// (the same ``reduce(into:_:)``), and the snapshots are taken from it. When
  /// the rules leave out every lifecycle rule the check does not fold, and the
  /// loader folds for the snapshots itself.
  public struct Loader: Sendable {
    private var records: [Record] = []
    private var lines: [Int32] = []
    private var check: JournalCheck
    /// The check folds the model (a lifecycle rule is selected).
    private let checkFolds: Bool
    /// The loader's own fold when the check does not fold.
    private var state = State()
    private var schedule: SnapshotSchedule
    private var marks: RecordMarks
    private var passed: [CheckFinding] = []
    private var findings: [CheckFinding] = []
    private var formatErrors = 0
    /// Check each item as it is read (else after, in the background).
    private let checkAsRead: Bool
    /// Without `checkAsRead`: the reader's findings, in file order, for the check.
    private var readerFindings: [Diagnostic] = []
    private let rules: RuleSelection
    private let model: Profile?

    /// - Parameters:
    ///   - rules: the rules whose findings are shown.
    ///   - model: also compare the recording with this profile of the reference model (`check --model`).
    ///   - interval: records between the timeline's snapshots.
    ///   - expectedRecords: the records expected (a guess from the file's size, say), to reserve room.
    ///   - checkAsRead: check each item as it comes; else ``finish(name:whenChecked:)``
    ///     starts the check on another thread.
    public init(
      rules: RuleSelection = .all, model: Profile? = nil,
      interval: Int = Timeline.defaultInterval, expectedRecords: Int = 0, checkAsRead: Bool
    ) {
      check = JournalCheck(rules: rules, model: model)
      checkFolds = checkAsRead && rules.containsLifecycleRules
      self.checkAsRead = checkAsRead
      self.rules = rules
      self.model = model
      schedule = SnapshotSchedule(interval: interval, expected: expectedRecords)
      marks = RecordMarks(expected: expectedRecords)
      records.reserveCapacity(expectedRecords)
      lines.reserveCapacity(expectedRecords)
    }

    /// The records taken so far.
    public var count: Int { records.count }

    /// Takes the reader's next item (a line's findings come before its record).
    ///
    /// Implementation note: the item is consumed, so its record is moved into
    /// the journal; borrowed, it would be copied and the reader's copy
    /// destroyed.
    public mutating func consume(_ item: consuming JournalItem) {
      switch consume item {
      case .record(let record, let line, _):
        let index = records.count
        lines.append(Int32(truncatingIfNeeded: line))
        marks.add(record)
        // Implementation note: passing `check.state` or `state` copies it (a
        // retain and a release of each of its parts), too costly at every
        // record, so it is passed only for a snapshot.
        if checkFolds {
          if schedule.isDue(index) { schedule.before(index, check.state) }
        } else {
          if schedule.isDue(index) { schedule.before(index, state) }
          reduce(into: &state, record)
        }
        if checkAsRead { check.consume(record, line: line, into: &passed) }
        records.append(record)
      case .diagnostic(let diagnostic):
        if diagnostic.severity == .error { formatErrors += 1 }
        if checkAsRead {
          check.consume(diagnostic, into: &passed)
        } else {
          readerFindings.append(diagnostic)
        }
      }
      if !passed.isEmpty { take() }
    }

    /// The findings the check passed on.
    private mutating func take() {
      findings.append(contentsOf: passed)
      passed.removeAll(keepingCapacity: true)
    }

    /// The journal and its check: with `checkAsRead`, the journal with its
    /// findings and the check done; else the journal without its findings and
    /// the check, just started on another thread.
    ///
    /// - Parameters:
    ///   - name: shown in the header.
    ///   - whenChecked: called once ``PendingCheck/result`` is set (with `checkAsRead`, before this returns).
    ///
    /// Call it once, after the last item.
    ///
    /// Implementation note: `mutating`, not `consuming`: consumed, the loader
    /// would be copied into the call, so the findings' array would be shared
    /// and the last findings appended to it would copy it whole, at the peak
    /// of memory.
    public mutating func finish(
      name: String, whenChecked: @escaping @Sendable () -> Void = {}
    ) -> (journal: StepperJournal, check: PendingCheck) {
      guard checkAsRead else {
        schedule.end(records.count, state)
        let timeline = Timeline(records: records, schedule: schedule, state: state)
        let journal = StepperJournal(
          name: name, timeline: timeline, lineNumbers: lines, findings: nil, marks: marks)
        let pending = PendingCheck(
          records: journal.records, lines: lines, readerFindings: readerFindings, rules: rules, model: model,
          whenChecked: whenChecked)
        return (journal, pending)
      }
      var last: [CheckFinding] = []
      check.finish(into: &last)
      findings.append(contentsOf: last)
      let final = checkFolds ? check.state : state
      schedule.end(records.count, final)
      let timeline = Timeline(records: records, schedule: schedule, state: final)
      let journal = StepperJournal(
        name: name, timeline: timeline, lineNumbers: lines, findings: findings, marks: marks)
      let pending = PendingCheck(finished: findings, formatErrors: formatErrors)
      whenChecked()
      return (journal, pending)
    }
  }
}

/// The check of a journal in memory, running on its own serial queue (or done
/// already, when a ``StepperJournal/Loader`` checked as it read); it ends with
/// the findings sorted by line, exactly those `check` reports (the same
/// ``JournalCheck`` over the reader's items, in file order).
public final class PendingCheck: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let finished = Mutex<[CheckFinding]?>(nil)
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
    whenChecked: @escaping @Sendable () -> Void
  ) {
    formatErrors = readerFindings.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) }
    let queue = DispatchQueue(label: "spatial-replay.step.check")
    queue.async { [self] in
      let findings = Self.check(records, lines, readerFindings, rules: rules, model: model)
      finished.withLock { $0 = findings }
      whenChecked()
      done.signal()
    }
  }

  /// A check done already (by a ``StepperJournal/Loader`` that checked as it read).
  ///
  /// - Parameters:
  ///   - findings: its findings, sorted by line.
  ///   - formatErrors: the reader's findings of error severity.
  init(finished findings: [CheckFinding], formatErrors: Int) {
    self.formatErrors = formatErrors
    finished.withLock { $0 = findings }
    done.signal()
  }

  /// The findings once the check is done, nil before.
  public var result: [CheckFinding]? { finished.withLock { $0 } }

  /// Blocks until the check is done; its findings.
  public func wait() -> [CheckFinding] {
    if let result { return result }
    done.wait()
    done.signal()
    return result ?? []
  }

  private static func check(
    _ records: [Record], _ lines: [Int32], _ readerFindings: [Diagnostic], rules: RuleSelection, model: Profile?
  ) -> [CheckFinding] {
    var check = JournalCheck(rules: rules, model: model)
    var diagnostics: [CheckFinding] = []
    var passed: [CheckFinding] = []
    func take() {
      diagnostics.append(contentsOf: passed)
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
