import Journal
import Projection

extension ScenarioCommand {
  /// The command as a script line that ``ScenarioParser`` reads back as this command, or nil
  /// when the language cannot say it (``ScenarioCommand/isSayable``: a text with a line feed,
  /// a `mark` key with a space, a quote or an `=`; a `session` with an empty id).
  ///
  /// Numbers are written so that they parse to the same `Double` (`120`, `0.5`, `1e-05`);
  /// tokens are quoted only when they have to be (spaces, `#`, `"`, `\`, `=`, control
  /// characters, empty text), and `animated=`, `velocity=` and `touches=` only when they
  /// are not the default.
  ///
  /// ```swift
  /// ScenarioCommand.mark(label: "step 1", fields: [MarkField("user", "alice")]).scriptLine
  /// // mark "step 1" user=alice
  /// ```
  public var scriptLine: String? {
    guard isSayable else { return nil }
    var words: [String] = []
    func add(_ text: String) { words.append(ScenarioText.token(text)) }
    func option(_ key: String, _ value: String) {
      words.append(key + "=" + ScenarioText.token(value, quotingEquals: false))
    }
    func animated(_ animated: Bool) { if !animated { words.append("animated=false") } }
    switch self {
    case .session(let options):
      words.append("session")
      if let id = options.id { option("id", id) }
      for (key, value) in [("app", options.app), ("build", options.build), ("device", options.device)] {
        if let value { option(key, value) }
      }
      if let start = options.start { words.append("start=" + start.rfc3339) }
    case .controller(let id, let className):
      words.append("controller")
      add(id.rawValue)
      add(className)
    case .root(let id):
      words.append("root")
      add(id.rawValue)
    case .link(let from, let direction, let to):
      words.append("link")
      add(from.rawValue)
      words.append(direction.rawValue)
      add(to.rawValue)
    case .unlink(let from, let direction):
      words.append("unlink")
      add(from.rawValue)
      words.append(direction.rawValue)
    case .touches(let id, let direction, let min):
      words.append("touches")
      add(id.rawValue)
      words += [direction.rawValue, String(min)]
    case .threshold(let id, let points):
      words.append("threshold")
      add(id.rawValue)
      words.append(ScenarioText.number(points))
    case .move(let direction, let isAnimated):
      words += ["move", direction.rawValue]
      animated(isAnimated)
    case .pan(let direction, let distance, let velocity, let touches, let cancelled):
      words += ["pan", direction.rawValue]
      words.append("distance=" + ScenarioText.number(distance))
      if velocity != 0 { words.append("velocity=" + ScenarioText.number(velocity)) }
      if touches != 1 { words.append("touches=" + String(touches)) }
      if cancelled { words.append("cancel") }
    case .modal(let id, let className, let direction, let isAnimated):
      words.append("modal")
      add(id.rawValue)
      add(className)
      words.append(direction.rawValue)
      animated(isAnimated)
    case .goToRoot(let isAnimated):
      words.append("goToRoot")
      animated(isAnimated)
    case .dealloc(let id):
      words.append("dealloc")
      add(id.rawValue)
    case .wait(let ms):
      words += ["wait", String(ms)]
    case .mark(let label, let fields):
      words.append("mark")
      add(label)
      for field in fields { option(field.key, field.value) }
    }
    return words.joined(separator: " ")
  }
}

/// Writing the tokens of script lines (of commands ``ScenarioCommand/isSayable`` accepts).
enum ScenarioText {
  /// `text` as one token that the tokenizer reads back as it is: bare when it can be, else in
  /// double quotes with `"` and `\` escaped.
  static func token(_ text: String, quotingEquals: Bool = true) -> String {
    let needsQuotes =
      text.isEmpty
      || text.utf8.contains { c in
        c <= 0x20 || c == 0x7F || c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\")
          || (quotingEquals && c == UInt8(ascii: "="))
      }
    guard needsQuotes else { return text }
    var out = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" { out.append("\\") }
      out.unicodeScalars.append(scalar)
    }
    out.append("\"")
    return out
  }

  /// A number ≥ 0 as the parser reads it back to the same `Double`: whole numbers without a
  /// fraction, others in Swift's shortest form (`0.5`, `1e-05`, `1.5e+20`).
  static func number(_ value: Double) -> String {
    value == value.rounded() && value < 1e15 ? String(Int64(value)) : value.description
  }
}
