/// One key press as the stepper sees it: a character, or one of the named keys
/// a terminal sends as an escape sequence.
///
/// The terminal layer decodes bytes into keys; scripts name them
/// (``sequence(named:)``): `l`, `PgDn`, `:1234`, `/didAppear`.
public enum StepperKey: Sendable, Hashable, CustomStringConvertible {
  /// A printable character (`l`, `G`, `/`, `é`); also the text typed at a prompt.
  case character(Character)
  case right, left, up, down
  case pageUp, pageDown, home, end
  case enter, escape, backspace, tab
  /// The F1 function key (help).
  case f1

  /// The key's name as a script writes it: `l`, `Right`, `PgDn`, `Space`.
  public var description: String {
    switch self {
    case .character(" "): "Space"
    case .character(let c): String(c)
    case .right: "Right"
    case .left: "Left"
    case .up: "Up"
    case .down: "Down"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .home: "Home"
    case .end: "End"
    case .enter: "Enter"
    case .escape: "Esc"
    case .backspace: "Backspace"
    case .tab: "Tab"
    case .f1: "F1"
    }
  }

  /// Named keys, by lowercased name (aliases included).
  private static let names: [String: StepperKey] = [
    "right": .right, "left": .left, "up": .up, "down": .down,
    "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
    "home": .home, "end": .end, "enter": .enter, "return": .enter,
    "esc": .escape, "escape": .escape, "backspace": .backspace, "bs": .backspace,
    "tab": .tab, "space": .character(" "), "f1": .f1,
  ]

  /// The keys one script token stands for, nil if it names no key.
  ///
  /// - A token that starts with `:`, `/` or `?` is a whole prompt: that key,
  ///   each character after it, then Enter (`:1234`, `/didAppear`,
  ///   `?willAppear`; `?` alone is `?` then Enter, which shows the help).
  /// - Any other single character is that key: `l`, `G`, `]`.
  /// - A key name, in any case: `Right`, `Left`, `Up`, `Down`, `PgUp`, `PgDn`,
  ///   `Home`, `End`, `Enter`, `Esc`, `Backspace`, `Tab`, `Space`, `F1`.
  ///
  /// ```swift
  /// StepperKey.sequence(named: "PgDn")    // [.pageDown]
  /// StepperKey.sequence(named: ":12")     // [":", "1", "2", .enter]
  /// StepperKey.sequence(named: "?")       // ["?", .enter]
  /// ```
  public static func sequence(named token: String) -> [StepperKey]? {
    guard let first = token.first else { return nil }
    if first == ":" || first == "/" || first == "?" {
      return [.character(first)] + token.dropFirst().map { .character($0) } + [.enter]
    }
    if token.count == 1 { return [.character(first)] }
    return names[token.lowercased()]
      .map { [$0] }
  }
}
