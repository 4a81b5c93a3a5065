import Journal

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

  /// Reads a journal file for stepping and checks it as it is read.
  ///
  /// Every line is decoded once, on this thread (`step` decodes on every core
  /// and hands the items to a ``StepperJournal/Loader`` itself). The check (the
  /// reader's integrity findings and every lifecycle rule, exactly as `check`
  /// reports them) takes each item as it is read, and its fold of the model
  /// gives the timeline its snapshots: see ``Loader``.
  ///
  /// ```swift
  /// let (journal, check) = try StepperJournal.open(path: path)
  /// journal.isChecked      // true: the findings are in
  /// check.result           // the same findings
  /// ```
  ///
  /// - Parameters:
  ///   - path: the journal, `-` for standard input.
  ///   - name: the name shown (default: the path, `<stdin>` for `-`).
  ///   - options: reading options (line and depth limits, strict mode).
  ///   - rules: the rules whose findings are shown.
  ///   - model: also compare the recording with this profile of the reference model (`check --model`).
  ///   - whenChecked: called once ``PendingCheck/result`` is set, before this returns.
  /// - Returns: the journal with its findings, and its check (already done).
  /// - Throws: ``JournalFileError`` when the file cannot be opened or read.
  public static func open(
    path: String, name: String? = nil, options: ReadOptions = .init(), rules: RuleSelection = .all,
    model: Profile? = nil, glyphs: Glyphs = .unicode, whenChecked: @escaping @Sendable () -> Void = {}
  ) throws(JournalFileError) -> (journal: StepperJournal, check: PendingCheck) {
    let reader = try JournalReader(path: path, options: options)
    var loader = Loader(rules: rules, model: model, glyphs: glyphs)
    while let item = reader.next() { loader.consume(item) }
    if let error = reader.readError { throw error }
    return loader.finish(name: name ?? (path == "-" ? "<stdin>" : path), whenChecked: whenChecked)
  }

  /// Builds a ``StepperJournal`` from a reader's items, in file order, with
  /// one fold of the model: the check folds each record (as `check` does) and
  /// the timeline keeps snapshots of the check's state, instead of folding the
  /// whole journal a second time.
  ///
  /// ```swift
  /// var loader = StepperJournal.Loader()
  /// while let item = reader.next() { loader.consume(item) }
  /// let (journal, check) = loader.finish(name: path)
  /// ```
  ///
  /// Implementation note: the timeline's fold and the check's fold were two
  /// thirds of the time of `step` on a 1M-event journal once decoding ran on
  /// every core; the check's state after each record is the timeline's (the
  /// same ``reduce(into:_:)``), so the snapshots are taken from it. When the
  /// rules leave out every lifecycle rule the check does not fold, and the
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
    private var findings: [Diagnostic] = []
    private var formatErrors = 0

    /// - Parameters:
    ///   - rules: the rules whose findings are shown.
    ///   - model: also compare the recording with this profile of the reference model (`check --model`).
    ///   - glyphs: the arrows and marks of the findings' messages.
    ///   - interval: records between the timeline's snapshots.
    ///   - expectedRecords: the records expected (a guess from the file's size, say), to reserve room.
    public init(
      rules: RuleSelection = .all, model: Profile? = nil, glyphs: Glyphs = .unicode,
      interval: Int = Timeline.defaultInterval, expectedRecords: Int = 0
    ) {
      check = JournalCheck(rules: rules, model: model, glyphs: glyphs)
      checkFolds = rules.containsLifecycleRules
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
    /// the journal; borrowed, it was copied and the reader's copy destroyed
    /// (callgrind, 200k events: 13 % of this thread's instructions).
    public mutating func consume(_ item: consuming JournalItem) {
      switch consume item {
      case .record(let record, let line, _):
        let index = records.count
        lines.append(Int32(truncatingIfNeeded: line))
        marks.add(record)
        // Implementation note: `check.state` is a copy of the checker's state
        // (a retain of each of its parts), so it is taken only for a snapshot.
        if checkFolds {
          if schedule.isDue(index) { schedule.before(index, check.state) }
        } else {
          schedule.before(index, state)
          reduce(into: &state, record)
        }
        check.consume(record, line: line, into: &passed)
        records.append(record)
      case .diagnostic(let diagnostic):
        if diagnostic.severity == .error { formatErrors += 1 }
        check.consume(diagnostic, into: &passed)
      }
      if !passed.isEmpty { take() }
    }

    /// Implementation note: the findings the check passes on are taken out as
    /// they come; kept as `CheckFinding`s (with room for a model divergence)
    /// until the end, the findings of a 1M-event legacy journal cost 300 MiB more.
    private mutating func take() {
      for finding in passed { findings.append(finding.diagnostic) }
      passed.removeAll(keepingCapacity: true)
    }

    /// The journal with its findings, and its check (done).
    ///
    /// - Parameters:
    ///   - name: shown in the header.
    ///   - whenChecked: called before this returns (the check is done).
    public consuming func finish(
      name: String, whenChecked: @Sendable () -> Void = {}
    ) -> (journal: StepperJournal, check: PendingCheck) {
      var last: [CheckFinding] = []
      check.finish(into: &last)
      for finding in last { findings.append(finding.diagnostic) }
      let final = checkFolds ? check.state : state
      let timeline = Timeline(records: records, schedule: schedule, state: final)
      let journal = StepperJournal(
        name: name, timeline: timeline, lineNumbers: lines, findings: findings, marks: marks)
      let pending = PendingCheck(finished: findings, formatErrors: formatErrors)
      whenChecked()
      return (journal, pending)
    }
  }
}

/// The check of a journal opened for stepping: the findings sorted by line,
/// exactly those `check` reports (the same ``JournalCheck`` over the reader's
/// items, in file order). ``StepperJournal/Loader`` checks as it reads, so a
/// check is done when the journal is opened; ``wait()`` and ``result`` stay
/// for callers written for a check still running.
public final class PendingCheck: Sendable {
  /// The reader's findings of error severity: the journal could not be read correctly.
  public let formatErrors: Int
  private let findings: [Diagnostic]

  /// A check done (by a ``StepperJournal/Loader``).
  ///
  /// - Parameters:
  ///   - findings: its findings, sorted by line.
  ///   - formatErrors: the reader's findings of error severity.
  init(finished findings: [Diagnostic], formatErrors: Int) {
    self.formatErrors = formatErrors
    self.findings = findings
  }

  /// The findings once the check is done, nil before.
  public var result: [Diagnostic]? { findings }

  /// Blocks until the check is done; its findings.
  public func wait() -> [Diagnostic] { findings }
}
