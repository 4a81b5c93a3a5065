import Journal
import Projection

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
      if let app = header.app { details.append("app " + glyphs.text(app)) }
      if let build = header.build { details.append("build " + glyphs.text(build)) }
      if let device = header.device { details.append("device " + glyphs.text(device)) }
      if let profile = header.profile { details.append("profile " + glyphs.text(profile)) }
      if let scenario = header.scenario { details.append("scenario " + glyphs.text(scenario)) }
      return "session \(glyphs.text(header.session)) (\(details.joined(separator: ", ")))"
    case .alloc(let controller, let className):
      return "alloc \(glyphs.id(controller)) (\(glyphs.text(className)))"
    case .root(let controller):
      return "root \(glyphs.id(controller))"
    case .link(let from, let direction, let to):
      return "link \(glyphs.id(from)) \(direction) \(glyphs.arrow) \(glyphs.id(to))"
    case .unlink(let from, let direction):
      return "unlink \(glyphs.id(from)) \(direction)"
    case .modal(let controller, let presenter):
      return Wording.modal(glyphs.id(controller), presentedBy: glyphs.id(presenter))
    case .touches(let controller, let direction, let min):
      return "touches \(glyphs.id(controller)) \(direction): \(Wording.fingers(min))"
    case .pan(let pan):
      return "pan on \(glyphs.id(pan.controller)) \(pan.direction), \(Wording.fingers(pan.touches)), "
        + "\(pan.distance.journalText) pt at \(pan.velocity.journalText) pt/s: \(pan.outcome)"
    case .move(let move):
      return move.sentence(glyphs)
    case .lifecycle(let controller, let callback):
      return "\(glyphs.id(controller)): \(callback)"
    case .dealloc(let controller):
      return "dealloc \(glyphs.id(controller))"
    case .mark(let label, let fields):
      var s = "mark " + glyphs.text(label)
      for field in fields { s += " " + glyphs.text(field.key) + "=" + glyphs.text(field.value.text) }
      return s
    case .unknown(let type, _):
      return "unknown event type '\(glyphs.text(type))'"
    }
  }
}

extension Move {
  /// `home → notes (left, pan, animated)`; a move that is not animated leaves out `animated`.
  public var sentence: String { sentence(.unicode) }

  /// The sentence drawn with `glyphs`.
  public func sentence(_ glyphs: Glyphs) -> String {
    "\(glyphs.id(from)) \(glyphs.arrow) \(glyphs.id(to)) (\(direction), \(trigger)\(animated ? ", animated" : ""))"
  }
}
