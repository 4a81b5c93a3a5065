import Journal
import Projection
import Rendering

/// `funnel FILE|DIR... --steps A,B,C`: how many sessions reach each step in order.
struct FunnelCommand: Command {
  static let name = "funnel"
  static let abstract = "How many sessions reach screens A, then B, then C..., with drop-off and time between steps"
  static let usage = ["spatial-replay funnel --steps A,B,... [options] FILE|DIR..."]
  static let discussion = """
    For each step i, the sessions (by the header's session id) whose screen
    sequence (the focus each time it changes) reaches step 1, then later step
    2, ..., then step i, in that order but not necessarily adjacent. With
    --within, the later steps count only within that time of reaching step 1
    (the session is matched from the occurrence of step 1 that gets furthest).
    For each step: sessions, conversion (sessions / sessions of step 1),
    from previous (sessions / sessions of the step before), drop-off
    (sessions of the step before that did not reach it) and the median time
    from the step before (nearest rank), among the sessions that reached it.

    A step is a screen as --by names it (a class, or an id with --by
    controller). A step that no journal read holds is a usage error (64) with
    a suggestion, not a funnel of zeros: --steps NotesListViewControler says
    unknown screen 'NotesListViewControler' in --steps (did you mean
    NotesListViewController?). When a journal could not be read or has format
    errors, their status (2) wins and the unknown step is a warning.

    Header fields in --by (--by build,device) split the sessions into groups
    by their values, as stats --by does: the funnel of each group (builds in
    version order, a journal without the field in the group "(none)", last),
    then overall.
    """
  static let steps = Option.list(
    "--steps", "SCREEN",
    "the funnel's screens in order, at least one (required); a screen\nthat no journal holds is a usage error, with a suggestion"
  )
  static let within = Option.value(
    "--within", "TIME", "count later steps only within TIME of step 1: 90s, 15m, 2h, 1h30m, 500ms")
  static let options = NavigationInput.options(
    [steps, NavigationInput.screenKey, within],
    json:
      "{\"sessions\":N,\"steps\":[{\"screen\":\"A\",\"sessions\":N,\"conversion\":1.0,\n\"fromPrevious\":null,\"dropOff\":0,\"medianMsFromPrevious\":null}, ...]}; with\nheader fields in --by {\"by\":[KEY...],\"groups\":[{\"key\":{...},\"sessions\":N,\n\"steps\":[...]}, ...],\"overall\":{\"sessions\":N,\"steps\":[...]}}"
  )
  static let exitStatus = NavigationInput.exitStatus
  static let examples = [
    "spatial-replay funnel --steps NotesListViewController,NoteEditorViewController,ComposeViewController Journals/",
    "spatial-replay funnel --steps HomeViewController,CartViewController,CheckoutViewController --within 10m fleet/",
    "spatial-replay funnel --by controller --steps list,editor --json day1/*.ndjson",
    "spatial-replay funnel --by build,device --steps HomeViewController,CartViewController fleet/",
  ]

  var input: NavigationInput.Journals
  var screens: [String]
  var window: Int64?
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    input = try NavigationInput.Journals(arguments, command: Self.name)
    screens = arguments.values(Self.steps)
    guard !screens.isEmpty else { throw UsageError("funnel needs --steps A,B,... (the screens in order)") }
    if let empty = screens.firstIndex(of: "") {
      throw UsageError("--steps has an empty screen at position \(empty + 1)")
    }
    if let text = arguments.value(Self.within) {
      guard let ms = DurationText.milliseconds(text), ms > 0 else {
        throw UsageError("--within takes a length such as 90s, 15m, 2h or 1h30m, got '\(text)'")
      }
      window = ms * 1000
    }
    json = arguments.flag(Option.json)
  }

  func run(_ context: inout Context) throws -> Int32 {
    var overall = FunnelTotals(steps: screens)
    var groups = HeaderGroups(by: input.fields, empty: overall)
    var verdict = Verdict()
    var names = NameCheck(screens)
    var anyRead = false
    let (options, limit, screens, key, window, grouped) = (
      input.options, input.limit, screens, input.key, window, !input.fields.isEmpty
    )
    try input.runner.run(input.files, context: &context) { path, context, progress in
      var matcher = FunnelMatcher(steps: screens, key: key, window: window)
      var tracker = ScreenTracker()
      guard
        let read = NavigationInput.read(
          path, options: options, limit: limit, &context, &progress, fold: &matcher,
          { matcher, record in
            if case .step(let step) = tracker.consume(record) { matcher.add(step) }
          })
      else { return nil as NavigationInput.Read<([Int64], NameCheck)>? }
      var names = NameCheck(screens)
      names.note(names: tracker.screenNames(key), otherKind: tracker.screenNames(key == .class ? .controller : .class))
      return NavigationInput.Read(read, result: (matcher.reached(), names))
    } deliver: { _, read, _ in
      guard let read else { return verdict.noteUnreadable() }
      verdict.noteFormatErrors(read.formatErrors)
      overall.add(read.result.0, session: read.session)
      if grouped { groups.update(groups.key(of: read.header)) { $0.add(read.result.0, session: read.session) } }
      names.merge(read.result.1)
      anyRead = true
    }
    // A step that no journal read holds counts nothing: a usage error, not a funnel of zeros. When the
    // journals were not read correctly, their status (2) wins and the unknown step is a warning.
    if anyRead {
      do {
        try names.check(option: "--steps", noun: "screen", otherKind: Self.otherKind(input.key))
      } catch {
        guard !verdict.inputIsSound else { throw error }
        context.warning(error.message)
      }
    }
    if json {
      context.stdout.write(bytes: FunnelTable.json(groups, overall: overall))
    } else {
      FunnelTable.writeText(groups, overall: overall, to: &context.stdout)
    }
    return verdict.status
  }

  /// Why a step that names a screen of the other kind is unknown: `'home' is a controller id; …`.
  static func otherKind(_ key: ScreenKey) -> (String) -> String {
    { name in
      let name = displayText(name)
      return key == .class
        ? "'\(name)' is a controller id, and screens are classes (use --by controller to name them by id)"
        : "'\(name)' is a class, and with --by controller screens are ids (leave --by out to name them by class)"
    }
  }
}
