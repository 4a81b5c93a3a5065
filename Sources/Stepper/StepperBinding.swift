import Projection
import Rendering

/// The stepper's keys and what they do: the one table that the stepper's
/// dispatch (``Stepper/handle(_:in:)``), the help screen (`H`), `step --help`
/// and the manual page are all written from. A new key is one entry here and,
/// for a new ``Action``, one case of the stepper's `perform`.
///
/// ```swift
/// StepperBinding.lines(comparison: false, glyphs: .unicode).first
/// // "l  →  j  ↓     next event"
/// StepperBinding.action(of: .character("]"), comparison: false)   // .nextMove
/// ```
public struct StepperBinding: Sendable {
  /// What a key does while browsing.
  public enum Action: Sendable, Hashable {
    case next, previous, pageForward, pageBackward, first, last
    case nextMove, previousMove, nextFinding, previousFinding
    case nextDivergence, previousDivergence
    /// `n` and `N` after a search: the same direction, the other one.
    case repeatSearch, repeatSearchReversed
    /// Open a prompt: `:SEQ`, `/TEXT`, `?TEXT`.
    case jump, searchForward, searchBackward
    case help, quit
  }

  /// How a binding is written in the help, and what each key does.
  public enum Label: Sendable {
    /// A key and its action.
    case key(StepperKey, Action)
    /// A prompt the key of its first character opens (`:SEQ Enter`), and the prompt's action.
    case prompt(String, Action)
    /// Another way to the binding's action, only written in the help (`?Enter`).
    case typed(String)
  }

  /// With which sources a binding applies.
  public enum Scope: Sendable {
    case always, oneJournal, twoJournals
  }

  public var labels: [Label]
  public var text: String
  public var scope: Scope

  /// Every binding, in the order the help lists them.
  public static let table: [StepperBinding] = [
    .init(
      [.key(.character("l"), .next), .key(.right, .next), .key(.character("j"), .next), .key(.down, .next)],
      "next event"),
    .init(
      [
        .key(.character("h"), .previous), .key(.left, .previous), .key(.character("k"), .previous),
        .key(.up, .previous),
      ],
      "previous event"),
    .init([.key(.pageDown, .pageForward), .key(.character(" "), .pageForward)], "\(Stepper.pageSize) events forwards"),
    .init([.key(.pageUp, .pageBackward)], "\(Stepper.pageSize) events backwards"),
    .init([.key(.character("g"), .first), .key(.home, .first)], "first event"),
    .init([.key(.character("G"), .last), .key(.end, .last)], "last event"),
    .init([.key(.character("]"), .nextMove), .key(.character("["), .previousMove)], "next / previous move event"),
    .init(
      [.key(.character("f"), .nextFinding), .key(.character("F"), .previousFinding)], "next / previous finding of check"
    ),
    .init([.prompt(":SEQ Enter", .jump)], "jump to a seq (Esc cancels)"),
    .init(
      [
        .key(.character("d"), .nextDivergence), .key(.character("D"), .previousDivergence),
        .key(.character("n"), .nextDivergence),
        .key(.character("N"), .previousDivergence),
      ], "next / previous divergence", .twoJournals),
    .init([.typed(":aSEQ :bSEQ")], "jump to a seq of A or B", .twoJournals),
    .init(
      [.prompt("/TEXT Enter", .searchForward)], "search forwards on the event text (type and sentence)",
      .oneJournal),
    .init([.prompt("?TEXT Enter", .searchBackward)], "search backwards; lowercase text ignores case", .oneJournal),
    .init(
      [.key(.character("n"), .repeatSearch), .key(.character("N"), .repeatSearchReversed)],
      "repeat the search, same / other direction",
      .oneJournal),
    .init(
      [.key(.character("H"), .help), .key(.f1, .help), .typed("?Enter")], "this help (? then Enter with nothing typed)"),
    .init([.key(.character("q"), .quit)], "quit"),
  ]

  init(_ labels: [Label], _ text: String, _ scope: Scope = .always) {
    self.labels = labels
    self.text = text
    self.scope = scope
  }

  /// Whether the binding applies to one journal (`comparison` false) or two.
  public func applies(comparison: Bool) -> Bool {
    switch scope {
    case .always: true
    case .oneJournal: !comparison
    case .twoJournals: comparison
    }
  }

  /// The keys this binding dispatches and their actions.
  var actions: [(key: StepperKey, action: Action)] {
    labels.compactMap { label in
      switch label {
      case .key(let key, let action): (key, action)
      case .prompt(let text, let action): text.first.map { (.character($0), action) }
      case .typed: nil
      }
    }
  }

  /// The action of every key, for one journal and for two: the binding that
  /// applies, else one of the other scope (`d` on one journal then says what it is for).
  private static let dispatch: (one: [StepperKey: Action], two: [StepperKey: Action]) = {
    func keys(_ comparison: Bool) -> [StepperKey: Action] {
      var map: [StepperKey: Action] = [:]
      for binding in table where !binding.applies(comparison: comparison) {
        for (key, action) in binding.actions { map[key] = action }
      }
      for binding in table where binding.applies(comparison: comparison) {
        for (key, action) in binding.actions { map[key] = action }
      }
      return map
    }
    return (keys(false), keys(true))
  }()

  /// What `key` does while browsing one journal (`comparison` false) or two; nil: nothing.
  public static func action(of key: StepperKey, comparison: Bool) -> Action? {
    comparison ? dispatch.two[key] : dispatch.one[key]
  }

  /// `l  →  j  ↓`: the keys separated by two spaces, arrows drawn with `glyphs`.
  public func label(_ glyphs: Glyphs) -> String {
    labels.map { label in
      switch label {
      case .prompt(let text, _), .typed(let text): text
      case .key(.right, _): glyphs.arrowKeys[0]
      case .key(.left, _): glyphs.arrowKeys[1]
      case .key(.up, _): glyphs.arrowKeys[2]
      case .key(.down, _): glyphs.arrowKeys[3]
      case .key(let key, _): key.description
      }
    }.joined(separator: "  ")
  }

  /// The help's lines for one journal or two: keys in 13 columns (or more), two spaces, what they do.
  public static func lines(comparison: Bool, glyphs: Glyphs) -> [String] {
    lines(table.filter { $0.applies(comparison: comparison) }, glyphs: glyphs)
  }

  /// `bindings` as help lines: keys in 13 columns (or more), two spaces, what they do.
  public static func lines(_ bindings: [StepperBinding], glyphs: Glyphs) -> [String] {
    bindings.map { binding in
      let keys = binding.label(glyphs)
      return keys + String(repeating: " ", count: max(15 - TextWidth.columns(of: keys), 2)) + binding.text
    }
  }
}
