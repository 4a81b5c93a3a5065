import Journal

/// The scenario script of a journal's inputs (`spatial-replay script`): the commands that,
/// recorded with the journal's profile, give the journal again.
///
/// The journal is replayed on a shadow ``Navigator`` of its profile: at each input event
/// (`alloc`, `root`, `link`, `unlink`, `touches`, `pan`, `move`, `modal`, `dealloc`, `mark`) the
/// commands that could have written it are tried in turn (with the `wait` that puts the
/// command's first event at the event's time, and for a pan the `threshold` that makes the
/// recorded outcome come out), and the first whose events are the journal's next events, `seq`,
/// time and all, is taken: its events (callbacks, the move of a committed pan, a modal's link and
/// move, a cleanup's unlinks and deallocs) are outputs, not inputs. A journal the model did not
/// write (an app's) gets the commands that say the same inputs, with the app's ids; an input the
/// model refuses there becomes a comment (`# line N: ...`) and a ``Note``. The script's text and
/// the notes' words are `Rendering`'s.
///
/// ```swift
/// let (records, _) = JournalReader.readAll(bytes: journal)
/// let script = JournalScript(records)
/// script.text        // "# spatial-replay script: ...\nsession id=...\ncontroller home ...\n..."
/// script.reproduces  // true for a journal `record` wrote
/// ```
public struct JournalScript: Sendable {
  /// One line of the script: a command (with the journal line of the event it came from) or a
  /// comment, the note of an event the script cannot say.
  public struct Line: Sendable, Hashable {
    public var command: ScenarioCommand?
    public var comment: Note?
    /// The journal line of the event the line stands for (0 for the `session` line).
    public var journalLine: Int
  }

  /// An input the script cannot say, or a part of the journal it leaves out.
  public struct Note: Sendable, Hashable {
    /// The journal line (1-based).
    public var line: Int
    public var reason: Reason

    /// What the script leaves out, and why.
    public enum Reason: Sendable, Hashable {
      /// The header's session id is empty: the script's is derived from its bytes.
      case sessionIDEmpty
      /// The header's app, build or device has a line feed, which a script cannot say: left out.
      case headerLineFeed
      /// A second session header: left out.
      case secondSession
      /// An event of an unknown type (this one): left out.
      case unknownType(String)
      /// This many events carry keys the model does not write: the keys are left out.
      case extraKeys(Int)
      /// An event no command writes as its first event (an output, a move by a pan without the
      /// pan, a modal without its presentation).
      case notAnInput(Event)
      /// An input the script cannot say (a line feed in a text, a mark key with a space, a quote
      /// or an `=`).
      case unsayable(Event)
      /// An input the model refuses, and its first refusal.
      case refused(Event, NavigatorError)
    }
  }

  /// The script's lines, the `session` command first.
  public private(set) var lines: [Line] = []
  /// What the script could not say, in journal order.
  public private(set) var notes: [Note] = []
  /// The profile the journal was replayed with (and that `record --profile` needs).
  public let profile: Profile
  /// The header's `scenario`: the name to give the script file (`NAME.scenario`) so that
  /// `record` writes the same header.
  public let scenarioName: String?
  /// The journal line of the first event the script's recording does not reproduce as it is
  /// (`seq`, time, event), nil when `record` gives the journal back byte for byte (header aside).
  public private(set) var firstDifference: Int?
  /// Whether recording the script gives the journal's events back exactly.
  public var reproduces: Bool { firstDifference == nil && notes.isEmpty }
  /// The commands of the script, `session` first.
  public var commands: [ScenarioCommand] { lines.compactMap(\.command) }

  /// Extracts the inputs of a journal.
  ///
  /// - Parameters:
  ///   - records: the journal's records, the header first (a journal without one gets an empty session).
  ///   - lines: the journal line of each record (default: record `i` on line `i + 1`).
  ///   - profile: the profile to replay with when the header names none (`nil`: the one of the
  ///     two under which more of the journal comes out as recorded).
  public init(_ records: [Record], lines: [Int]? = nil, profile: Profile? = nil) {
    let numbers = lines ?? Array(1...max(1, records.count))
    var header = SessionHeader(session: "")
    var start = Timestamp.modelEpoch
    if case .session(let h) = records.first?.event {
      header = h
      start = records[0].time
    }
    scenarioName = header.scenario
    if let named = header.profile.flatMap(Profile.init(rawValue:)) {
      self.profile = named
    } else if let profile {
      self.profile = profile
    } else {
      let intended = Extraction(records, numbers, header, start, .intended)
      let legacy = Extraction(records, numbers, header, start, .legacy)
      self.profile = legacy.unmatched < intended.unmatched ? .legacy : .intended
    }
    let run = Extraction(records, numbers, header, start, self.profile)
    self.lines = run.lines
    self.notes = run.notes
    self.firstDifference = run.firstDifference
  }
}

/// One replay of a journal on a shadow navigator.
private struct Extraction {
  var lines: [JournalScript.Line] = []
  var notes: [JournalScript.Note] = []
  var firstDifference: Int?
  /// Events not explained by the command taken for them (for choosing a profile).
  var unmatched = 0

  private let records: [Record]
  private let numbers: [Int]
  private var nav: Navigator

  init(_ records: [Record], _ numbers: [Int], _ header: SessionHeader, _ start: Timestamp, _ profile: Profile) {
    self.records = records
    self.numbers = numbers
    nav = Navigator(profile: profile, header: header, start: start)
    nav.suggestsIDs = false
    _ = nav.takeRecords()
    let options = SessionOptions(
      id: header.session.isEmpty ? nil : header.session, app: header.app, build: header.build,
      device: header.device, start: start == .modelEpoch ? nil : start)
    lines.append(JournalScript.Line(command: .session(options), comment: nil, journalLine: 0))
    if options.id == nil, case .session = records.first?.event {
      notes.append(.init(line: numbers[0], reason: .sessionIDEmpty))
    }
    if !ScenarioCommand.session(options).isSayable {
      lines[0].command = .session(SessionOptions(start: options.start))
      notes.append(.init(line: numbers[0], reason: .headerLineFeed))
    }
    run()
  }

  private func line(_ i: Int) -> Int { i < numbers.count ? numbers[i] : i + 1 }

  private mutating func differs(at i: Int) {
    if firstDifference == nil { firstDifference = line(i) }
  }

  private mutating func run() {
    var i = records.first.map { if case .session = $0.event { 1 } else { 0 } } ?? 0
    var extraKeys = 0
    while i < records.count {
      let record = records[i]
      if !record.extra.isEmpty { extraKeys += 1 }
      switch record.event {
      case .lifecycle:
        // An output the model did not write here (an app's callback, or one out of order).
        unmatched += 1
        differs(at: i)
        i += 1
        continue
      case .session:
        comment(i, .secondSession)
        i += 1
        continue
      case .unknown(let type, _):
        comment(i, .unknownType(type))
        i += 1
        continue
      default:
        break
      }
      i = take(i)
    }
    if extraKeys > 0 { notes.append(.init(line: line(0), reason: .extraKeys(extraKeys))) }
  }

  /// A comment for the event at `i` that the script cannot say, and a note.
  private mutating func comment(_ i: Int, _ reason: JournalScript.Note.Reason) {
    let note = JournalScript.Note(line: line(i), reason: reason)
    lines.append(JournalScript.Line(command: nil, comment: note, journalLine: line(i)))
    notes.append(note)
    unmatched += 1
    differs(at: i)
  }

  /// Finds the command for the input event at `i`, runs it, and returns the index after the events it explains.
  private mutating func take(_ i: Int) -> Int {
    let possible = self.candidates(i)
    guard !possible.isEmpty else {
      comment(i, .notAnInput(records[i].event))
      return i + 1
    }
    let candidates = possible.filter { $0.allSatisfy(\.isSayable) }
    guard !candidates.isEmpty else {
      comment(i, .unsayable(records[i].event))
      return i + 1
    }
    let wait = self.wait(before: i)
    // The first candidate whose events are the journal's next events, exactly.
    for commands in candidates {
      var trial = nav
      guard let produced = Self.run(wait + commands, on: &trial) else { continue }
      guard i + produced.count <= records.count, !produced.isEmpty else { continue }
      // `seq` aside: after an app's event the model does not write, the rest still lines up.
      var same = true
      var sameSeqs = true
      for (k, p) in produced.enumerated() {
        let r = records[i + k]
        guard p.time == r.time, p.event == r.event else {
          same = false
          break
        }
        if p.seq != r.seq { sameSeqs = false }
      }
      guard same else { continue }
      if !sameSeqs { differs(at: i) }
      nav = trial
      append(wait: wait, commands, i)
      return i + produced.count
    }
    // None: an app's journal. The first candidate the model accepts stands for the input.
    differs(at: i)
    var refusal: NavigatorError?
    for commands in candidates {
      var trial = nav
      let all = wait + commands
      do throws(NavigatorError) {
        for command in all { try trial.run(command) }
      } catch {
        if refusal == nil { refusal = error }
        continue
      }
      let produced = trial.takeRecords()
      nav = trial
      append(wait: wait, commands, i)
      return explained(from: i, by: produced)
    }
    // Every candidate was refused (there is at least one).
    guard let refusal else { preconditionFailure("no candidate for the input at \(i) was run") }
    comment(i, .refused(records[i].event, refusal))
    return i + 1
  }

  private mutating func append(wait: [ScenarioCommand], _ commands: [ScenarioCommand], _ i: Int) {
    for command in wait + commands {
      lines.append(JournalScript.Line(command: command, comment: nil, journalLine: line(i)))
    }
  }

  /// Runs commands on `nav` and returns the records they wrote, nil when one is refused.
  private static func run(_ commands: [ScenarioCommand], on nav: inout Navigator) -> [Record]? {
    do throws(NavigatorError) {
      for command in commands { try nav.run(command) }
    } catch {
      return nil
    }
    return nav.takeRecords()
  }

  /// In an app's journal, the index after the input event at `i` and the events after it that
  /// the command's own events account for: the next events that are not callbacks, as long as
  /// they are the command's next events that are not callbacks (a pan's move, a modal's link).
  private mutating func explained(from i: Int, by produced: [Record]) -> Int {
    let outputs = produced.dropFirst().filter { if case .lifecycle = $0.event { false } else { true } }
    var j = i + 1
    var end = j
    for output in outputs {
      while j < records.count, case .lifecycle = records[j].event { j += 1 }
      guard j < records.count, records[j].event == output.event else { break }
      j += 1
      end = j
    }
    return end
  }

  /// The `wait`s before the command of the event at `i`: the command's first event comes 1 ms after
  /// the clock. A gap longer than the longest `wait` (10¹² ms) takes several; an app's clock, finer
  /// than the model's, gets the whole milliseconds of its gap. Empty when no wait is needed or the
  /// event comes too soon for any.
  private func wait(before i: Int) -> [ScenarioCommand] {
    let gap = records[i].time.microseconds - nav.clock.microseconds - 1000
    guard gap >= 1000 else { return [] }
    var left = gap / 1000
    var waits: [ScenarioCommand] = []
    while left > 0 {
      let ms = min(left, Navigator.maximumWait)
      waits.append(.wait(milliseconds: ms))
      left -= ms
    }
    return waits
  }

  /// The commands that could have written the input event at `i`, the likeliest first.
  private func candidates(_ i: Int) -> [[ScenarioCommand]] {
    switch records[i].event {
    case .alloc(let id, let className):
      if i + 2 < records.count, case .modal(id, let presenter) = records[i + 1].event,
        case .link(presenter, let direction, id) = records[i + 2].event
      {
        let animated = nextMove(after: i + 2).map(\.animated) ?? true
        return [
          [.modal(id, className: className, direction, animated: animated)],
          [.modal(id, className: className, direction, animated: !animated)],
          [.controller(id, className: className)],
        ]
      }
      return [[.controller(id, className: className)]]
    case .root(let id):
      return [[.root(id)]]
    case .link(let from, let direction, let to):
      return [[.link(from, direction, to)]]
    case .unlink(let from, let direction):
      var j = i
      while j < records.count, case .unlink(from, _) = records[j].event { j += 1 }
      if j < records.count, case .dealloc(from) = records[j].event {
        return [[.dealloc(from)], [.unlink(from, direction)]]
      }
      return [[.unlink(from, direction)]]
    case .touches(let id, let direction, let min):
      return [[.touches(id, direction, min: min)]]
    case .dealloc(let id):
      return [[.dealloc(id)]]
    case .mark(let label, let fields):
      var strings: [MarkField] = []
      for field in fields { strings.append(MarkField(field.key, Self.markValue(field.value))) }
      return [[.mark(label: label, fields: strings)]]
    case .move(let move):
      switch move.trigger {
      case .programmatic: return [[.move(move.direction, animated: move.animated)]]
      case .goToRoot: return [[.goToRoot(animated: move.animated)], [.goToRoot(animated: !move.animated)]]
      case .pan, .fling: return []
      }
    case .pan(let pan):
      return [panCommands(pan)]
    case .modal, .lifecycle, .session, .unknown:
      return []
    }
  }

  /// A `pan` and, when the outcome the model computes with its thresholds is not the recorded one
  /// only because of the target's snapping threshold, the `threshold` that makes it come out.
  private func panCommands(_ pan: Pan) -> [ScenarioCommand] {
    let command = ScenarioCommand.pan(
      pan.direction, distance: pan.distance, velocity: pan.velocity, touches: pan.touches,
      cancelled: pan.outcome == .cancelled)
    guard pan.outcome == .committed || pan.outcome == .snapBack, pan.velocity <= Navigator.flingVelocity,
      let focus = nav.state.focus, pan.controller == focus,
      let p = nav.state.position(of: focus), let t = nav.state.store[Int(p)].neighbours[pan.direction]
    else { return [command] }
    let target = nav.state.id(at: t)
    let threshold = nav.threshold(of: target)
    switch pan.outcome {
    case .committed where !(pan.distance > threshold) && pan.distance > 0:
      let points = pan.distance > Navigator.defaultThreshold ? Navigator.defaultThreshold : 0
      return [.threshold(target, points: points), command]
    case .snapBack where pan.distance > threshold:
      return [.threshold(target, points: pan.distance), command]
    default:
      return [command]
    }
  }

  /// The move after `i` (a modal's), if one comes before the next input event.
  private func nextMove(after i: Int) -> Move? {
    var j = i + 1
    while j < records.count {
      switch records[j].event {
      case .move(let move): return move
      case .lifecycle: j += 1
      default: return nil
      }
    }
    return nil
  }

  /// A mark's value as the string a script gives it: a JSON string's text, any other value's JSON.
  private static func markValue(_ value: RawJSON) -> String {
    let text = value.text
    guard text.hasPrefix("\"") else { return text }
    if let record = try? RecordDecoder.decode(
      #"{"seq":0,"time":"2026-01-01T00:00:00Z","type":"mark","label":\#(text)}"#),
      case .mark(let label, _) = record.event
    {
      return label
    }
    return text
  }
}
