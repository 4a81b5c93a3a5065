import Journal

extension ScenarioCommand {
  /// Whether a script line can say the command so that ``ScenarioParser`` reads it back as
  /// this command: not when a text holds a line feed (a line ends there), a `mark` key is empty
  /// or holds a space, a quote, `#` or `=`, a `session` id is empty, or a number is negative or
  /// not finite. The script's writer (`scriptLine`) writes exactly the commands this accepts.
  public var isSayable: Bool {
    switch self {
    case .session(let options):
      if let id = options.id, id.isEmpty || !ScenarioLimits.isText(id) { return false }
      return [options.app, options.build, options.device].allSatisfy { $0.map(ScenarioLimits.isText) ?? true }
    case .controller(let id, let className), .modal(let id, let className, _, _):
      return ScenarioLimits.isText(id.rawValue) && ScenarioLimits.isText(className)
    case .root(let id), .unlink(let id, _), .dealloc(let id):
      return ScenarioLimits.isText(id.rawValue)
    case .link(let from, _, let to):
      return ScenarioLimits.isText(from.rawValue) && ScenarioLimits.isText(to.rawValue)
    case .touches(let id, _, let min):
      return ScenarioLimits.isText(id.rawValue) && min >= 0
    case .threshold(let id, let points):
      return ScenarioLimits.isText(id.rawValue) && ScenarioLimits.isNumber(points)
    case .pan(_, let distance, let velocity, let touches, _):
      return ScenarioLimits.isNumber(distance) && ScenarioLimits.isNumber(velocity) && touches >= 0
    case .wait(let ms):
      return ms >= 0
    case .mark(let label, let fields):
      return ScenarioLimits.isText(label)
        && fields.allSatisfy { ScenarioLimits.isOptionKey($0.key) && ScenarioLimits.isText($0.value) }
    case .move, .goToRoot:
      return true
    }
  }

  /// The controllers the command names (a `modal`'s new one first): what `shrink` removes
  /// together with a controller.
  public var controllers: [ControllerID] {
    switch self {
    case .controller(let id, _), .root(let id), .unlink(let id, _), .touches(let id, _, _), .threshold(let id, _),
      .modal(let id, _, _, _), .dealloc(let id):
      [id]
    case .link(let from, _, let to): [from, to]
    case .session, .move, .pan, .goToRoot, .wait, .mark: []
    }
  }
}

/// What a script line can hold, as the tokenizer reads it.
public enum ScenarioLimits {
  /// Whether `text` can be one token: it has no line feed (a line ends there).
  public static func isText(_ text: String) -> Bool { !text.utf8.contains(UInt8(ascii: "\n")) }

  /// Whether `key` can be written as an option's key: not empty, no quote, `=`, `#`, space or control character.
  public static func isOptionKey(_ key: String) -> Bool {
    !key.isEmpty
      && !key.utf8.contains { c in
        c <= 0x20 || c == 0x7F || c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "=")
      }
  }

  /// Whether `value` can be written as a number the parser reads back to the same `Double`:
  /// finite, not negative (nor -0), and whole below 1e15 or read back from Swift's shortest form.
  public static func isNumber(_ value: Double) -> Bool {
    guard value.isFinite, value >= 0, value.sign == .plus else { return false }
    return (value == value.rounded() && value < 1e15) || Double(value.description) == value
  }
}
