/// Where a ``Stepper`` stands and what it shows: the cursor and the view state.
///
/// A plain value: ``Stepper/handle(_:in:)`` returns the next one, and
/// ``Stepper/render(_:size:)`` draws one; neither changes anything else.
///
/// ```swift
/// var state = stepper.start()
/// state = stepper.handle(.character("l"), in: state)
/// state.cursor          // 1
/// state.mode            // .browsing
/// ```
public struct StepperState: Sendable, Hashable {
  /// What the keys do at the moment.
  public enum Mode: Sendable, Hashable {
    /// Keys move the cursor.
    case browsing
    /// Keys type into a prompt on the message line until Enter or Esc.
    case prompt(Prompt)
    /// The help is shown; any key closes it.
    case help
  }

  /// A prompt being typed.
  public struct Prompt: Sendable, Hashable {
    /// What Enter does with the text.
    public enum Kind: Character, Sendable, Hashable {
      /// `:` jump to a seq.
      case jump = ":"
      /// `/` search forwards.
      case searchForward = "/"
      /// `?` search backwards (Enter on an empty `?` prompt shows the help).
      case searchBackward = "?"
    }

    public var kind: Kind
    /// The text typed so far.
    public var text: String

    public init(kind: Kind, text: String = "") {
      self.kind = kind
      self.text = text
    }
  }

  /// The last search, repeated by `n` (same direction) and `N` (the other).
  public struct Search: Sendable, Hashable {
    public var text: String
    public var forward: Bool
  }

  /// The record index (one journal) or the aligned row (two journals) shown.
  public internal(set) var cursor: Int
  public internal(set) var mode: Mode = .browsing
  /// The last search submitted.
  public internal(set) var search: Search?
  /// What the last key did, when it says something (`not found: x`), shown on the message line.
  public internal(set) var message: String?
  /// Set by `q`: the caller stops and restores the terminal.
  public internal(set) var quit = false

  /// A state at `cursor`, browsing.
  public init(cursor: Int) {
    self.cursor = cursor
  }

  /// Whether the help is shown.
  public var isHelpVisible: Bool { mode == .help }

  /// The prompt being typed, if any.
  public var prompt: Prompt? {
    if case .prompt(let prompt) = mode { return prompt }
    return nil
  }
}
