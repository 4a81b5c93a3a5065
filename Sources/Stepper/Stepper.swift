import Journal
import Projection
import Rendering

/// The interactive replay of `spatial-replay step`, as a pure core: the
/// journal (or two, side by side) it steps through, a function from a key and
/// a ``StepperState`` to the next state, and a function drawing a state as the
/// lines of a screen.
///
/// The terminal layer only turns bytes into ``StepperKey``s and writes the
/// lines; scripts and tests drive the same two functions.
///
/// ```swift
/// let stepper = Stepper(journal: try StepperJournal.load(path: "Journals/notes.legacy.ndjson"))
/// var state = stepper.start()
/// for key in StepperKey.sequence(named: "/didAppear")! { state = stepper.handle(key, in: state) }
/// let screen = stepper.render(state, size: (width: 80, height: 24))
/// ```
///
/// The keys and what they do are the table ``StepperBinding/table``.
public struct Stepper: Sendable {
  /// What is stepped through.
  public enum Source: Sendable {
    case journal(StepperJournal)
    case comparison(StepperComparison)
  }

  /// How the screen is drawn.
  public struct Options: Sendable, Hashable {
    /// Unicode box drawing, arrows and marks, or plain ASCII.
    public var glyphs: Glyphs

    public init(glyphs: Glyphs = .unicode) {
      self.glyphs = glyphs
    }
  }

  public let source: Source
  public let options: Options
  /// Maps already drawn (see ``MapCache``).
  let maps = MapCache()

  /// Events one PgDn or PgUp moves.
  public static let pageSize = 50

  /// The record indices the moving keys stop at (`step --type`, `--from`...), sorted; nil: every record.
  let selection: [Int]?

  /// Steps through one journal.
  ///
  /// - Parameter selection: the records (indices, sorted) that `l`, `h`, PgDn, PgUp, `g` and `G`
  ///   stop at; the other keys (moves, findings, searches, `:SEQ`) still reach every record.
  public init(journal: StepperJournal, options: Options = Options(), selection: [Int]? = nil) {
    source = .journal(journal)
    self.options = options
    self.selection = selection
  }

  /// Steps through two journals side by side.
  public init(comparison: StepperComparison, options: Options = Options()) {
    source = .comparison(comparison)
    self.options = options
    selection = nil
  }

  /// The first screen's state: the first record (or the first aligned row), or the first selected.
  public func start() -> StepperState {
    StepperState(cursor: selection?.first ?? 0)
  }

  /// The positions the cursor can take: records, or aligned rows.
  var positionCount: Int {
    switch source {
    case .journal(let journal): journal.count
    case .comparison(let comparison): comparison.rowCount
    }
  }

  // MARK: Keys

  /// The state after one key.
  ///
  /// Pure: depends only on the key, the state and the journals.
  ///
  /// - Complexity: O(log n) for every key but a search, which scans the
  ///   events' texts from the cursor (O(n) bytes when nothing matches); the
  ///   first search of a journal renders those texts once (``SearchIndex``).
  public func handle(_ key: StepperKey, in state: StepperState) -> StepperState {
    var next = state
    next.message = nil
    switch state.mode {
    case .help:
      next.mode = .browsing
    case .prompt(let prompt):
      typed(key, into: prompt, &next)
    case .browsing:
      browse(key, &next)
    }
    return next
  }

  private func browse(_ key: StepperKey, _ state: inout StepperState) {
    if let action = StepperBinding.action(of: key, comparison: isComparison) {
      perform(action, &state)
    } else if key != .escape && key != .enter {
      state.message = "\(options.glyphs.text(key.description)) does nothing here; H shows the keys"
    }
  }

  /// Does what a key of ``StepperBinding/table`` does.
  private func perform(_ action: StepperBinding.Action, _ state: inout StepperState) {
    switch action {
    case .next: step(by: 1, &state)
    case .previous: step(by: -1, &state)
    case .pageForward: step(by: Self.pageSize, &state)
    case .pageBackward: step(by: -Self.pageSize, &state)
    case .first: go(to: selection?.first ?? 0, &state)
    case .last: go(to: selection?.last ?? positionCount - 1, &state)
    case .nextMove: jumpToMove(forward: true, &state)
    case .previousMove: jumpToMove(forward: false, &state)
    case .nextFinding: jumpToFinding(forward: true, &state)
    case .previousFinding: jumpToFinding(forward: false, &state)
    case .nextDivergence: jumpToDivergence(forward: true, &state)
    case .previousDivergence: jumpToDivergence(forward: false, &state)
    case .repeatSearch, .repeatSearchReversed:
      if let search = state.search {
        find(search.text, forward: search.forward == (action == .repeatSearch), &state)
      } else {
        state.message = "no search yet: / searches forwards, ? backwards"
      }
    case .jump: state.mode = .prompt(.init(kind: .jump))
    case .searchForward: state.mode = .prompt(.init(kind: .searchForward))
    case .searchBackward: state.mode = .prompt(.init(kind: .searchBackward))
    case .help: state.mode = .help
    case .quit: state.quit = true
    }
  }

  private func typed(_ key: StepperKey, into prompt: StepperState.Prompt, _ state: inout StepperState) {
    var prompt = prompt
    switch key {
    case .character(let c):
      prompt.text.append(c)
      state.mode = .prompt(prompt)
    case .backspace:
      if prompt.text.isEmpty {
        state.mode = .browsing
      } else {
        prompt.text.removeLast()
        state.mode = .prompt(prompt)
      }
    case .escape:
      state.mode = .browsing
    case .enter:
      state.mode = .browsing
      submit(prompt, &state)
    default:
      break
    }
  }

  private func submit(_ prompt: StepperState.Prompt, _ state: inout StepperState) {
    switch prompt.kind {
    case .jump:
      jump(to: prompt.text, &state)
    case .searchForward:
      if !prompt.text.isEmpty {
        search(StepperState.Search(text: prompt.text, forward: true), &state)
      } else if let last = state.search {
        search(StepperState.Search(text: last.text, forward: true), &state)
      } else {
        state.message = "nothing to search for"
      }
    case .searchBackward:
      if prompt.text.isEmpty {
        state.mode = .help
      } else {
        search(StepperState.Search(text: prompt.text, forward: false), &state)
      }
    }
  }

  // MARK: Moving

  private func go(to position: Int, _ state: inout StepperState) {
    guard positionCount > 0 else {
      state.message = "the journal has no events"
      return
    }
    state.cursor = min(max(position, 0), positionCount - 1)
  }

  private func step(by count: Int, _ state: inout StepperState) {
    if let selection, !selection.isEmpty {
      // The first selected record at or after the cursor (the cursor may stand elsewhere after a jump).
      var low = 0
      var high = selection.count
      while low < high {
        let mid = (low + high) / 2
        if selection[mid] < state.cursor { low = mid + 1 } else { high = mid }
      }
      let exact = low < selection.count && selection[low] == state.cursor
      var target = count > 0 ? low + count - (exact ? 0 : 1) : low + count
      if target >= selection.count {
        if exact && low == selection.count - 1 { state.message = "at the last selected event" }
        target = selection.count - 1
      } else if target < 0 {
        if exact && low == 0 { state.message = "at the first selected event" }
        target = 0
      }
      state.cursor = selection[target]
      return
    }
    let target = state.cursor + count
    if positionCount > 0 && count > 0 && state.cursor == positionCount - 1 {
      state.message = isComparison ? "at the last row" : "at the last event"
    } else if count < 0 && state.cursor == 0 {
      state.message = isComparison ? "at the first row" : "at the first event"
    }
    go(to: target, &state)
  }

  /// Whether the findings of every journal are known.
  public var isChecked: Bool {
    switch source {
    case .journal(let journal): journal.isChecked
    case .comparison(let comparison): comparison.a.isChecked && comparison.b.isChecked
    }
  }

  /// The same stepper with the findings of a check that finished (A's and B's for two journals).
  public func withFindings(_ findings: [CheckFinding]?, b findingsB: [CheckFinding]? = nil) -> Stepper {
    switch source {
    case .journal(let journal):
      guard let findings else { return self }
      return Stepper(journal: journal.withFindings(findings), options: options, selection: selection)
    case .comparison(let comparison):
      return Stepper(comparison: comparison.withFindings(a: findings, b: findingsB), options: options)
    }
  }

  var isComparison: Bool {
    if case .comparison = source { return true }
    return false
  }

  private func jump(to text: String, _ state: inout StepperState) {
    var digits = text.filter { $0 != "," && $0 != "_" && $0 != " " }
    guard !digits.isEmpty else { return }
    var side = DiffSide.a
    if isComparison, let first = digits.first, first == "a" || first == "b" || first == "A" || first == "B" {
      side = first == "a" || first == "A" ? .a : .b
      digits.removeFirst()
    }
    guard let seq = Int(digits), seq >= 0 else {
      state.message = "not a seq: \(options.glyphs.text(text))"
      return
    }
    switch source {
    case .journal(let journal):
      if let index = journal.timeline.index(ofSeq: seq) {
        state.cursor = index
      } else {
        state.message = "no event with seq \(seq.grouped)" + range(of: journal)
      }
    case .comparison(let comparison):
      let journal = side == .a ? comparison.a : comparison.b
      guard let index = journal.timeline.index(ofSeq: seq) else {
        state.message = "no event with seq \(seq.grouped) in \(side == .a ? "A" : "B")" + range(of: journal)
        return
      }
      if let row = comparison.firstRow(side, atOrAfterRecord: index) {
        state.cursor = row
      } else {
        state.message = "no compared event at or after seq \(seq.grouped) in \(side == .a ? "A" : "B")"
      }
    }
  }

  private func range(of journal: StepperJournal) -> String {
    guard let range = journal.timeline.seqRange else { return " (the journal is empty)" }
    return " (seq \(range.lowerBound.grouped)\(options.glyphs.range)\(range.upperBound.grouped))"
  }

  private func jumpToMove(forward: Bool, _ state: inout StepperState) {
    jump(to: \.moves, "move", after: "one", forward: forward, &state)
  }

  private func jumpToFinding(forward: Bool, _ state: inout StepperState) {
    switch source {
    case _ where !isChecked:
      state.message = "the findings are not computed yet: the check is still running"
    case .journal(let journal) where journal.findings.isEmpty:
      state.message = "no findings in this journal"
    default:
      jump(to: \.findingRecords, "finding", after: "event", forward: forward, &state)
    }
  }

  /// Moves the cursor to the next (or previous) mark of `marks`, or says there is none (`no move after this
  /// one`; a comparison's place is a row).
  private func jump(
    to marks: KeyPath<StepperJournal, [Int32]>, _ noun: String, after place: String, forward: Bool,
    _ state: inout StepperState
  ) {
    let next: Int?
    var place = place
    switch source {
    case .journal(let journal):
      next = StepperJournal.mark(journal[keyPath: marks], nextTo: state.cursor, forward: forward)
    case .comparison(let comparison):
      next = comparison.row(nextTo: state.cursor, forward: forward, marks: marks)
      place = "row"
    }
    if let next {
      state.cursor = next
    } else {
      state.message = "no \(noun) \(forward ? "after" : "before") this \(place)"
    }
  }

  private func jumpToDivergence(forward: Bool, _ state: inout StepperState) {
    guard case .comparison(let comparison) = source else {
      state.message = "d and D jump between divergences of 'step A B'"
      return
    }
    guard comparison.divergenceCount > 0 else {
      state.message = "the runs do not diverge"
      return
    }
    if let row = StepperJournal.mark(comparison.hunkStarts, nextTo: state.cursor, forward: forward) {
      state.cursor = row
    } else {
      state.message = forward ? "no divergence after this row" : "no divergence before this row"
    }
  }

  // MARK: Search

  private func search(_ search: StepperState.Search, _ state: inout StepperState) {
    state.search = search
    find(search.text, forward: search.forward, &state)
  }

  /// Moves to the next event whose text contains `text`, wrapping around at either end.
  private func find(_ text: String, forward: Bool, _ state: inout StepperState) {
    guard case .journal(let journal) = source else {
      state.message = "search works on one journal; in 'step A B' d/D and n/N jump between divergences"
      return
    }
    let count = journal.count
    guard count > 0 else {
      state.message = "the journal has no events"
      return
    }
    let matcher = TextMatcher(text)
    let found: Int?
    if matcher.spansLines {
      found = Self.scan(journal.records, matcher, from: state.cursor, forward: forward)
    } else {
      found = matcher.find(in: journal.searchIndex.text(of: journal.records), from: state.cursor, forward: forward)
    }
    guard let found else {
      state.message = "not found: \(options.glyphs.text(text))"
      return
    }
    let from = state.cursor
    state.cursor = found
    state.message = wrapMessage(from: from, to: found, forward)
  }

  /// The next record after `cursor` whose search text matches (wrapping around, `cursor` itself
  /// last), or the one before it: every event's text rendered in turn.
  static func scan(_ records: [Record], _ matcher: TextMatcher, from cursor: Int, forward: Bool) -> Int? {
    let count = records.count
    for distance in 1...count {
      let i = forward ? (cursor + distance) % count : (cursor - distance + count) % count
      if matcher.matches(searchText(of: records[i])) { return i }
    }
    return nil
  }

  private func wrapMessage(from start: Int, to found: Int, _ forward: Bool) -> String? {
    if found == start { return "only this event matches" }
    if forward && found <= start { return "search went past the end and continued from the start" }
    if !forward && found >= start { return "search went past the start and continued from the end" }
    return nil
  }

  /// What a search looks at: the event's type and its sentence (`move home → notes (left, pan, animated)`).
  static func searchText(of record: Record) -> String {
    record.event.typeName + " " + record.event.sentence
  }
}
