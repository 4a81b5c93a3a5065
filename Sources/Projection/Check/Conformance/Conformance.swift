import Journal

/// `check --model`: conformance of a recording to the reference model.
///
/// Takes the inputs recorded in a journal (root, links and unlinks, touches,
/// moves with their trigger and animation, pans with their touches, distance,
/// velocity and outcome, modals, goToRoot runs, deallocs, marks, and the time
/// between them as waits), runs each through a ``Navigator`` of the chosen
/// ``Profile``, and compares the events the model writes for it with the events
/// the recording has, ignoring `seq` and `time`. Every difference is a
/// ``ModelDivergence`` anchored at its line, with the last matching events before it.
///
/// After a divergence the check resynchronises at the next input: it goes on
/// with the model's own state, so later divergences are reported too (a
/// recording whose graph drifted from the model's, e.g. a modal the model
/// deallocated but the recording leaked, can then diverge again where it uses it).
///
/// A pan's `snapBack` or `committed` depends on a snapping threshold the journal
/// does not record: the target's threshold is set so the model agrees with the
/// recorded outcome. Everything decided from journaled state (`refused`,
/// `blocked`, `cancelled` when it applies, a fling's velocity) is predicted.
///
/// ```swift
/// var conformance = Conformance(profile: .intended)
/// var divergences: [ModelDivergence] = []
/// for (index, record) in records.enumerated() {
///   conformance.feed(record, line: index + 1, into: &divergences)
/// }
/// conformance.finish(into: &divergences)
/// divergences.first?.finding.message(.unicode)  // its words, from Rendering
/// // "intended model expects notes didAppear; found notes willAppear (in move at seq 9: home → notes)"
/// ```
///
/// - Complexity: O(1) amortised per record for the comparison, with memory for
///   one input's events; the navigator keeps the records it wrote.
public struct Conformance: Sendable {
  /// The behaviour the recording is compared with.
  public let profile: Profile

  /// The model, once the first record started it (``started``).
  ///
  /// Implementation note: not an optional taken out and put back around each
  /// input, which would copy the whole navigator (its state's every array
  /// retained and released) twice per input.
  private var navigator: Navigator
  private var started = false
  /// The recording folded, for the transition each event happened in (when the caller does not fold it).
  private var recorded = State()
  private var segment: ConformanceSegment?
  /// The buffers of the last segment closed, emptied, for the next one.
  ///
  /// Implementation note: a segment per input would allocate and free three
  /// arrays (and grow its recorded events'); reusing them saves that work at
  /// every input of `check --model`.
  private var spare = ConformanceSegment.Buffers()
  /// The last matching recorded events (at most ``contextLength``).
  private var recent: [ModelDivergence.Entry] = []
  /// The transition of the last recorded event compared.
  private var lastTransition: Transition?
  /// The line and `seq` of the last recorded event compared (where a divergence with no event of its own is reported).
  ///
  /// Implementation note: not the whole entry, whose copy for every event would retain and release its strings.
  private var last: (line: Int, seq: Int)?

  /// How many matching events a divergence shows before it.
  public static let contextLength = 3

  public init(profile: Profile = .intended) {
    self.profile = profile
    navigator = Navigator(profile: profile, header: SessionHeader(session: "conformance"))
  }

  /// The first line of the input being read: every divergence still to come is at this line or later.
  public var pendingLine: Int? { segment?.first.line }

  /// Reads one recorded event.
  ///
  /// - Parameters:
  ///   - record: the next record of the journal, in file order.
  ///   - line: its 1-based line.
  ///   - divergences: where the divergences of the inputs that ended go, sorted by line.
  public mutating func feed(_ record: Record, line: Int, into divergences: inout [ModelDivergence]) {
    reduce(into: &recorded, record)
    feed(record, line: line, transition: recorded.transition, into: &divergences)
  }

  /// Reads one recorded event that the caller has folded into `folded` (the
  /// state after it), as `check` does in its own checker: the recording is then
  /// not folded a second time here.
  public mutating func feed(
    _ record: Record, line: Int, folded: State, into divergences: inout [ModelDivergence]
  ) {
    feed(record, line: line, transition: folded.transition, into: &divergences)
  }

  /// Reads one recorded event that happened in `transition` (the recording's, after it).
  mutating func feed(
    _ record: Record, line: Int, transition: Transition?, into divergences: inout [ModelDivergence]
  ) {
    let entry = ModelDivergence.Entry(line: line, record: record)
    switch record.event {
    case .session(let header):
      if !started { start(Navigator(profile: profile, header: header, start: record.time)) }
      return
    case .unknown:
      return  // projections ignore unknown types
    case .alloc, .root, .link, .unlink, .modal, .touches, .pan, .move, .lifecycle, .dealloc, .mark:
      break
    }
    if !started {
      start(Navigator(profile: profile, header: SessionHeader(session: "conformance"), start: record.time))
    }
    last = (line, record.seq)
    if var current = segment.take() {
      if current.kind == .alloc { resolveAlloc(&current, next: record.event) }
      if current.takes(record.event) {
        take(record.event, into: &current)
        current.append(entry, transition: transition)
        // Moved back, not copied: a copy would retain and release every array and string of the segment.
        segment = consume current
        return
      }
      close(consume current, next: entry, into: &divergences)
    }
    segment = start(entry, transition: transition)
  }

  private mutating func start(_ model: Navigator) {
    navigator = model
    navigator.suggestsIDs = false
    started = true
  }

  /// Ends the recording: compares the last input.
  public mutating func finish(into divergences: inout [ModelDivergence]) {
    guard let current = segment.take() else { return }
    close(current, next: nil, into: &divergences)
  }

  /// Compares whole records in memory, numbering lines from 1.
  ///
  /// ```swift
  /// let divergences = Conformance.check(recording.records, profile: .intended)
  /// ```
  public static func check(_ records: some Sequence<Record>, profile: Profile = .intended) -> [ModelDivergence] {
    var conformance = Conformance(profile: profile)
    var divergences: [ModelDivergence] = []
    for (index, record) in records.enumerated() { conformance.feed(record, line: index + 1, into: &divergences) }
    conformance.finish(into: &divergences)
    return divergences
  }

  // MARK: Inputs

  /// Opens the segment an event begins, and runs its input when the event says all of it.
  private mutating func start(_ entry: ModelDivergence.Entry, transition: Transition?) -> ConformanceSegment {
    let kind: ConformanceSegment.Kind
    switch entry.record.event {
    case .alloc: kind = .alloc
    case .root: kind = .root
    case .link: kind = .link
    case .unlink: kind = .unlink
    case .touches: kind = .touches
    case .pan: kind = .pan
    case .move(let move): kind = move.trigger == .goToRoot ? .goToRoot : .move
    case .dealloc: kind = .dealloc
    case .mark: kind = .mark
    case .lifecycle, .modal, .session, .unknown: kind = .orphan
    }
    var segment = ConformanceSegment(kind: kind, buffers: &spare)
    if case .alloc(let id, let className) = entry.record.event {
      segment.modalID = id
      segment.className = className
    }
    segment.found.append(ConformanceSegment.Found(entry: entry, transition: transition))
    if segment.kind != .alloc { run(&segment) }
    return segment
  }

  /// An `alloc` followed by a `modal` naming it is a modal; anything else makes it a controller.
  private mutating func resolveAlloc(_ segment: inout ConformanceSegment, next event: Event) {
    if case .modal(let id, _) = event, id == segment.modalID {
      segment.kind = .modal
      return
    }
    segment.kind = .controller
    run(&segment)
  }

  /// Notes the parts of a modal or a pan as they arrive.
  private func take(_ event: Event, into segment: inout ConformanceSegment) {
    switch event {
    case .link(_, let direction, _) where segment.kind == .modal && segment.direction == nil:
      segment.direction = direction
    case .move(let move) where segment.kind == .modal || segment.kind == .pan:
      if !segment.hasMove {
        segment.hasMove = true
        if segment.kind == .modal { segment.animated = move.animated }
      }
    case .link, .move, .session, .alloc, .root, .unlink, .modal, .touches, .pan, .lifecycle, .dealloc, .mark, .unknown:
      break
    }
  }

  /// Runs the segment's input through the navigator and notes the events it wrote.
  private mutating func run(_ segment: inout ConformanceSegment) {
    guard !segment.ran, started else { return }
    segment.ran = true
    let first = segment.first.record
    // The recorded time between inputs is a wait (the model adds 1 ms per input itself).
    let gap = (first.time.microseconds - navigator.clock.microseconds) / 1000 - 1
    if gap > 0 { try? navigator.wait(milliseconds: gap) }
    // The navigator's records are taken segment by segment, so `check --model`
    // keeps constant memory however long the journal.
    navigator.forgetRecords()
    do throws(NavigatorError) {
      switch (segment.kind, first.event) {
      case (.controller, .alloc(let id, let className)):
        try navigator.controller(id, className: className)
      case (.modal, .alloc(let id, let className)):
        guard let direction = segment.direction else {
          segment.refusal = .modalDirectionUnknown(id)
          return
        }
        try navigator.modal(id, className: className, direction, animated: segment.animated ?? true)
      case (_, .root(let id)):
        try navigator.root(id)
      case (_, .link(let from, let direction, let to)):
        try navigator.link(from, direction, to)
      case (_, .unlink(let from, let direction)):
        try navigator.unlink(from, direction)
      case (_, .touches(let id, let direction, let min)):
        try navigator.touches(id, direction, min)
      case (_, .pan(let pan)):
        Self.agreeOnThreshold(with: pan, &navigator)
        try navigator.pan(
          pan.direction, distance: pan.distance, velocity: pan.velocity, touches: pan.touches,
          cancelled: pan.outcome == .cancelled)
      case (.goToRoot, .move(let move)):
        try navigator.goToRoot(animated: move.animated)
      case (_, .move(let move)):
        try navigator.move(move.direction, animated: move.animated)
      case (_, .dealloc(let id)):
        try navigator.dealloc(id)
      case (_, .mark):
        // A mark is an annotation: the model writes it as given.
        segment.expected.append(first)
        return
      case (_, .alloc), (_, .session), (_, .modal), (_, .lifecycle), (_, .unknown):
        return  // no input: nothing expected
      }
    } catch {
      segment.refusal = .navigator(error)
      return
    }
    // Moved, not copied: `expected` is empty until the input runs.
    navigator.swapRecords(with: &segment.expected)
    for record in segment.expected {
      if case .lifecycle = record.event { continue }
      segment.unmatched.append(record.event)
    }
    for k in segment.found.indices {
      if segment.unmatched.isEmpty { break }
      segment.absorb(segment.found[k].entry.record.event)
    }
  }

  /// Sets the pan target's snapping threshold (not journaled) so that the model
  /// agrees with a recorded `committed` or `snapBack`.
  private static func agreeOnThreshold(with pan: Pan, _ navigator: inout Navigator) {
    guard let focus = navigator.state.focus, let target = navigator.state.neighbour(of: focus, pan.direction)
    else { return }
    let standard = Navigator.defaultThreshold
    let points: Double
    switch pan.outcome {
    case .committed: points = pan.distance > standard ? standard : 0
    case .snapBack: points = max(standard, pan.distance.isFinite ? pan.distance : standard)
    case .blocked, .refused, .cancelled: points = standard
    }
    try? navigator.threshold(target, points)
  }

  // MARK: Comparing

  /// Runs the input if it has not run yet, aligns the model's events with the
  /// recorded ones and reports every hunk that differs.
  private mutating func close(
    _ segment: consuming ConformanceSegment, next: ModelDivergence.Entry?, into divergences: inout [ModelDivergence]
  ) {
    defer { segment.recycle(into: &spare) }
    if segment.kind == .alloc { segment.kind = .controller }
    run(&segment)
    if let refusal = segment.refusal {
      let found = segment.found
      report(
        expected: [], found: found.map(\.entry), following: nil, transition: found[0].transition,
        fact: .modelRefuses(profile, found[0].entry.record.event, refusal), into: &divergences)
      lastTransition = found.last?.transition
      recent.removeAll()
      return
    }
    if segment.expectedIsFound {
      remember(segment.found)
      return
    }
    let steps = alignSegment(segment.expected.map(\.event), segment.found.map(\.entry.record.event))
    var k = 0
    while k < steps.count {
      if case .match(_, let j) = steps[k] {
        remember(segment.found[j])
        k += 1
        continue
      }
      var missing: [Record] = []
      var extra: [ConformanceSegment.Found] = []
      while k < steps.count {
        switch steps[k] {
        case .missing(let i): missing.append(segment.expected[i])
        case .extra(let j): extra.append(segment.found[j])
        case .match: break
        }
        if case .match = steps[k] { break }
        k += 1
      }
      // Where the missing events were expected: the next recorded event.
      var following: ModelDivergence.Entry? = nil
      if extra.isEmpty {
        if k < steps.count, case .match(_, let j) = steps[k] {
          following = segment.found[j].entry
        } else {
          following = next
        }
      }
      let fact = Finding.Fact.modelDiffers(
        profile, expected: missing.prefix(3).map(\.event), expectedCount: missing.count,
        found: extra.prefix(3).map(\.entry.record.event), foundCount: extra.count, atEnd: following == nil)
      report(
        expected: missing, found: extra.map(\.entry), following: following,
        transition: extra.first?.transition ?? lastTransition, fact: fact, into: &divergences)
      if let lastExtra = extra.last { lastTransition = lastExtra.transition }
    }
  }

  private mutating func remember(_ found: ConformanceSegment.Found) {
    recent.append(found.entry)
    if recent.count > Self.contextLength { recent.removeFirst() }
    lastTransition = found.transition
  }

  /// ``remember(_:)`` for each in turn, copying only the last ``contextLength``.
  private mutating func remember(_ found: [ConformanceSegment.Found]) {
    guard !found.isEmpty else { return }
    let kept = min(found.count, Self.contextLength)
    // Only what stays is moved up, then the newest are appended: no entry copied twice.
    let stay = min(recent.count, Self.contextLength - kept)
    if recent.count > stay { recent.removeFirst(recent.count - stay) }
    for k in (found.count - kept)..<found.count { recent.append(found[k].entry) }
    lastTransition = found[found.count - 1].transition
  }

  private mutating func report(
    expected: [Record], found: [ModelDivergence.Entry], following: ModelDivergence.Entry?, transition: Transition?,
    fact: Finding.Fact, into divergences: inout [ModelDivergence]
  ) {
    let anchor = (found.first ?? following).map { (line: $0.line, seq: $0.record.seq) } ?? last
    let rule = CheckRule.modelDivergence
    let finding = Finding(
      rule, fact, in: transition.map(Finding.Context.init), line: anchor?.line ?? 0, seq: anchor?.seq,
      controllers: controllers(expected.map(\.event) + found.map(\.record.event)), move: transition?.seq)
    divergences.append(
      ModelDivergence(finding: finding, context: recent, expected: expected, found: found, following: following))
  }

  /// The controllers the events name, each once, in order of appearance.
  private func controllers(_ events: [Event]) -> [ControllerID] {
    var seen: Set<ControllerID> = []
    var list: [ControllerID] = []
    for event in events {
      for id in event.controllers where seen.insert(id).inserted { list.append(id) }
    }
    return list
  }
}
