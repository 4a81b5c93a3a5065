/// The stepper's keys and what they do: the one table that the help screen
/// (`H`) and `step --help` are written from.
///
/// ```swift
/// StepperKeyHelp.lines(comparison: false, glyphs: .unicode).first
/// // "l  →  j  ↓     next event"
/// ```
public struct StepperKeyHelp: Sendable {
  /// A key, or what is typed at a prompt (`:SEQ Enter`).
  public enum Label: Sendable {
    case key(StepperKey)
    case typed(String)
  }

  /// With which sources a binding applies.
  public enum Scope: Sendable {
    case always, oneJournal, twoJournals
  }

  public var keys: [Label]
  public var text: String
  public var scope: Scope

  /// Every binding, in the order the help lists them.
  public static let table: [StepperKeyHelp] = [
    .init(keys: [.key(.character("l")), .key(.right), .key(.character("j")), .key(.down)], text: "next event"),
    .init(keys: [.key(.character("h")), .key(.left), .key(.character("k")), .key(.up)], text: "previous event"),
    .init(keys: [.key(.pageDown), .key(.character(" "))], text: "\(Stepper.pageSize) events forwards"),
    .init(keys: [.key(.pageUp)], text: "\(Stepper.pageSize) events backwards"),
    .init(keys: [.key(.character("g")), .key(.home)], text: "first event"),
    .init(keys: [.key(.character("G")), .key(.end)], text: "last event"),
    .init(keys: [.key(.character("]")), .key(.character("["))], text: "next / previous move event"),
    .init(keys: [.key(.character("f")), .key(.character("F"))], text: "next / previous finding of check"),
    .init(keys: [.typed(":SEQ Enter")], text: "jump to a seq (Esc cancels)"),
    .init(
      keys: [.key(.character("d")), .key(.character("D")), .key(.character("n")), .key(.character("N"))],
      text: "next / previous divergence", scope: .twoJournals),
    .init(keys: [.typed(":aSEQ :bSEQ")], text: "jump to a seq of A or B", scope: .twoJournals),
    .init(
      keys: [.typed("/TEXT Enter")], text: "search forwards on the event text (type and sentence)",
      scope: .oneJournal),
    .init(keys: [.typed("?TEXT Enter")], text: "search backwards; lowercase text ignores case", scope: .oneJournal),
    .init(
      keys: [.key(.character("n")), .key(.character("N"))], text: "repeat the search, same / other direction",
      scope: .oneJournal),
    .init(
      keys: [.key(.character("H")), .key(.f1), .typed("?Enter")],
      text: "this help (? then Enter with nothing typed)"),
    .init(keys: [.key(.character("q"))], text: "quit"),
  ]

  init(keys: [Label], text: String, scope: Scope = .always) {
    self.keys = keys
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

  /// `l  →  j  ↓`: the keys separated by two spaces, arrows drawn with `glyphs`.
  public func label(_ glyphs: Glyphs) -> String {
    keys.map { label in
      switch label {
      case .typed(let text): text
      case .key(.right): glyphs.arrowKeys[0]
      case .key(.left): glyphs.arrowKeys[1]
      case .key(.up): glyphs.arrowKeys[2]
      case .key(.down): glyphs.arrowKeys[3]
      case .key(let key): key.description
      }
    }.joined(separator: "  ")
  }

  /// The help's lines for one journal or two: keys in 13 columns (or more), two spaces, what they do.
  public static func lines(comparison: Bool, glyphs: Glyphs) -> [String] {
    lines(table.filter { $0.applies(comparison: comparison) }, glyphs: glyphs)
  }

  /// `bindings` as help lines: keys in 13 columns (or more), two spaces, what they do.
  public static func lines(_ bindings: [StepperKeyHelp], glyphs: Glyphs) -> [String] {
    bindings.map { binding in
      let keys = binding.label(glyphs)
      return keys + String(repeating: " ", count: max(15 - TextWidth.columns(of: keys), 2)) + binding.text
    }
  }
}
