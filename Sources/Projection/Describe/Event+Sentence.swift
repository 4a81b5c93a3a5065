import Journal

extension Event {
  /// The event as one readable sentence, for `log`, `step`, `diff` and `check`.
  ///
  /// Every piece of journal text (ids, classes, labels, unknown type names) is
  /// escaped with `displayText`, so a sentence is safe to print on a terminal.
  ///
  /// ```swift
  /// Event.move(Move(from: "home", to: "notes", direction: .left, trigger: .pan, animated: true)).sentence
  /// // "home → notes (left, pan, animated)"
  /// Event.lifecycle(controller: "notes", callback: .didAppear).sentence  // "notes: didAppear"
  /// ```
  public var sentence: String { sentence(.unicode) }

  /// The sentence drawn with `glyphs`: `home -> notes (left, pan, animated)` in ASCII.
  public func sentence(_ glyphs: Glyphs) -> String {
    switch self {
    case .session(let header):
      var details = ["v\(header.version)"]
      if let app = header.app { details.append("app " + displayText(app)) }
      if let build = header.build { details.append("build " + displayText(build)) }
      if let device = header.device { details.append("device " + displayText(device)) }
      if let profile = header.profile { details.append("profile " + displayText(profile)) }
      if let scenario = header.scenario { details.append("scenario " + displayText(scenario)) }
      return "session \(displayText(header.session)) (\(details.joined(separator: ", ")))"
    case .alloc(let controller, let className):
      return "alloc \(Wording.id(controller)) (\(displayText(className)))"
    case .root(let controller):
      return "root \(Wording.id(controller))"
    case .link(let from, let direction, let to):
      return "link \(Wording.id(from)) \(direction) \(glyphs.arrow) \(Wording.id(to))"
    case .unlink(let from, let direction):
      return "unlink \(Wording.id(from)) \(direction)"
    case .modal(let controller, let presenter):
      return "modal \(Wording.id(controller)) presented by \(Wording.id(presenter))"
    case .touches(let controller, let direction, let min):
      return "touches \(Wording.id(controller)) \(direction): \(Wording.fingers(min))"
    case .pan(let pan):
      return "pan on \(Wording.id(pan.controller)) \(pan.direction), \(Wording.fingers(pan.touches)), "
        + "\(Wording.number(pan.distance)) pt at \(Wording.number(pan.velocity)) pt/s: \(pan.outcome)"
    case .move(let move):
      return move.sentence(glyphs)
    case .lifecycle(let controller, let callback):
      return "\(Wording.id(controller)): \(callback)"
    case .dealloc(let controller):
      return "dealloc \(Wording.id(controller))"
    case .mark(let label, let fields):
      var s = "mark " + displayText(label)
      for field in fields { s += " " + displayText(field.key) + "=" + displayText(field.value.text) }
      return s
    case .unknown(let type, _):
      return "unknown event type '\(displayText(type))'"
    }
  }
}

extension Move {
  /// `home → notes (left, pan, animated)`; a move that is not animated leaves out `animated`.
  public var sentence: String { sentence(.unicode) }

  /// The sentence drawn with `glyphs`.
  public func sentence(_ glyphs: Glyphs) -> String {
    "\(Wording.id(from)) \(glyphs.arrow) \(Wording.id(to)) (\(direction), \(trigger)\(animated ? ", animated" : ""))"
  }
}
