import Journal

extension ScenarioCommand {
  /// The command as a script line that ``ScenarioParser`` reads back as this command, or nil
  /// when the language cannot say it (a text with a line feed, a `mark` key with a space,
  /// a quote or an `=`; a `session` with an empty id).
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
    var words: [String] = []
    func add(_ text: String) -> Bool {
      guard let token = ScenarioText.token(text) else { return false }
      words.append(token)
      return true
    }
    func option(_ key: String, _ value: String) -> Bool {
      guard ScenarioText.isOptionKey(key), let value = ScenarioText.token(value, quotingEquals: false) else {
        return false
      }
      words.append(key + "=" + value)
      return true
    }
    func animated(_ animated: Bool) { if !animated { words.append("animated=false") } }
    switch self {
    case .session(let options):
      words.append("session")
      if let id = options.id {
        guard !id.isEmpty, option("id", id) else { return nil }
      }
      for (key, value) in [("app", options.app), ("build", options.build), ("device", options.device)] {
        if let value { guard option(key, value) else { return nil } }
      }
      if let start = options.start { words.append("start=" + start.rfc3339) }
    case .controller(let id, let className):
      words.append("controller")
      guard add(id.rawValue), add(className) else { return nil }
    case .root(let id):
      words.append("root")
      guard add(id.rawValue) else { return nil }
    case .link(let from, let direction, let to):
      words.append("link")
      guard add(from.rawValue) else { return nil }
      words.append(direction.rawValue)
      guard add(to.rawValue) else { return nil }
    case .unlink(let from, let direction):
      words.append("unlink")
      guard add(from.rawValue) else { return nil }
      words.append(direction.rawValue)
    case .touches(let id, let direction, let min):
      words.append("touches")
      guard add(id.rawValue), min >= 0 else { return nil }
      words += [direction.rawValue, String(min)]
    case .threshold(let id, let points):
      words.append("threshold")
      guard add(id.rawValue), let number = ScenarioText.number(points) else { return nil }
      words.append(number)
    case .move(let direction, let isAnimated):
      words += ["move", direction.rawValue]
      animated(isAnimated)
    case .pan(let direction, let distance, let velocity, let touches, let cancelled):
      words += ["pan", direction.rawValue]
      guard let d = ScenarioText.number(distance), let v = ScenarioText.number(velocity), touches >= 0 else {
        return nil
      }
      words.append("distance=" + d)
      if velocity != 0 { words.append("velocity=" + v) }
      if touches != 1 { words.append("touches=" + String(touches)) }
      if cancelled { words.append("cancel") }
    case .modal(let id, let className, let direction, let isAnimated):
      words.append("modal")
      guard add(id.rawValue), add(className) else { return nil }
      words.append(direction.rawValue)
      animated(isAnimated)
    case .goToRoot(let isAnimated):
      words.append("goToRoot")
      animated(isAnimated)
    case .dealloc(let id):
      words.append("dealloc")
      guard add(id.rawValue) else { return nil }
    case .wait(let ms):
      guard ms >= 0 else { return nil }
      words += ["wait", String(ms)]
    case .mark(let label, let fields):
      words.append("mark")
      guard add(label) else { return nil }
      for field in fields { guard option(field.key, field.value) else { return nil } }
    }
    return words.joined(separator: " ")
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

/// Writing the tokens of script lines.
enum ScenarioText {
  /// `text` as one token that the tokenizer reads back as it is: bare when it can be, else in
  /// double quotes with `"` and `\` escaped; nil for a text with a line feed (a line ends there).
  static func token(_ text: String, quotingEquals: Bool = true) -> String? {
    guard !text.utf8.contains(UInt8(ascii: "\n")) else { return nil }
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

  /// Whether `key` can be written as an option's key: not empty, no quote, `=`, `#`, space or control character.
  static func isOptionKey(_ key: String) -> Bool {
    !key.isEmpty
      && !key.utf8.contains { c in
        c <= 0x20 || c == 0x7F || c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "=")
      }
  }

  /// A number ≥ 0 as the parser reads it back to the same `Double`: whole numbers without a
  /// fraction, others in Swift's shortest form (`0.5`, `1e-05`, `1.5e+20`); nil for a negative
  /// or non-finite one.
  static func number(_ value: Double) -> String? {
    guard value.isFinite, value >= 0, value.sign == .plus else { return nil }
    if value == value.rounded(), value < 1e15 { return String(Int64(value)) }
    let text = value.description
    guard Double(text) == value else { return nil }
    return text
  }
}
