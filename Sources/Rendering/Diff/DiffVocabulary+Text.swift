import Journal
import Projection

extension DiffVocabulary {
  /// One event as a short line for a terminal, journal data escaped with
  /// `displayText`: `lifecycle notes willAppear`, `move home → notes (left, pan, animated)`.
  public func describe(_ token: Int32, glyphs: Glyphs = .unicode) -> String {
    func name(_ c: Int32) -> String { glyphs.text(self.name(of: c).text) }
    switch self[token] {
    case .lifecycle(let c, let callback):
      return "lifecycle \(name(c)) \(callback)"
    case .move(let from, let to, let direction, let trigger, let animated):
      return
        "move \(name(from)) \(glyphs.arrow) \(name(to)) (\(direction), \(trigger), \(animated ? "animated" : "not animated"))"
    case .modal(let c, let presenter):
      return Wording.modal(name(c), presentedBy: name(presenter))
    case .dealloc(let c):
      return "dealloc \(name(c))"
    case .link(let from, let direction, let to):
      return "link \(name(from)) \(direction) \(glyphs.arrow) \(name(to))"
    case .unlink(let from, let direction):
      return "unlink \(name(from)) \(direction)"
    case .alloc(let c, let className):
      return "alloc \(name(c)) \(glyphs.text(className))"
    case .root(let c):
      return "root \(name(c))"
    case .touches(let c, let direction, let min):
      return "touches \(name(c)) \(direction) min \(min)"
    case .pan(let c, let direction, let touches, let distance, let velocity, let outcome):
      let fingers = touches == 1 ? "1 touch" : "\(touches) touches"
      return
        "pan \(name(c)) \(direction) (\(fingers), \(distance.journalText) pt, \(velocity.journalText) pt/s, \(outcome))"
    case .mark(let label, let fields):
      return (["mark \(glyphs.text(label))"] + fields.map { describe($0, glyphs) }).joined(separator: " ")
    case .other(let type, let fields):
      return ([glyphs.text(type)] + fields.map { describe($0, glyphs) }).joined(separator: " ")
    }
  }

  /// A move as the divergence shows it: `home → notes (left, pan, animated)`.
  public func describeMove(_ token: Int32, glyphs: Glyphs = .unicode) -> String {
    let text = describe(token, glyphs: glyphs)
    return text.hasPrefix("move ") ? String(text.dropFirst(5)) : text
  }

  private func describe(_ field: Field, _ glyphs: Glyphs) -> String {
    "\(glyphs.text(field.key))=\(glyphs.text(field.value.text))"
  }

  /// Appends one event as a JSON object:
  /// `{"seq":12,"line":13,"type":"lifecycle","controller":"notes","callback":"willAppear"}`,
  /// keys in the journal format's order, controllers by their diff names.
  ///
  /// - Parameters:
  ///   - token: the event.
  ///   - seq: its `seq` in the journal, written first when given.
  ///   - line: its line in the journal, written after `seq` when given.
  ///   - out: the buffer.
  public func appendJSON(_ token: Int32, seq: Int? = nil, line: Int? = nil, to out: inout [UInt8]) {
    func key(_ k: String) {
      out.append(UInt8(ascii: ","))
      JSONWriter.appendString(k, to: &out)
      out.append(UInt8(ascii: ":"))
    }
    func string(_ k: String, _ v: String) {
      key(k)
      JSONWriter.appendString(v, to: &out)
    }
    func controller(_ k: String, _ c: Int32) { string(k, name(of: c).text) }
    let event = self[token]
    out.append(UInt8(ascii: "{"))
    if let seq {
      out.append(contentsOf: #""seq":"#.utf8)
      JSONWriter.appendInt(seq, to: &out)
      out.append(UInt8(ascii: ","))
    }
    if let line {
      out.append(contentsOf: #""line":"#.utf8)
      JSONWriter.appendInt(line, to: &out)
      out.append(UInt8(ascii: ","))
    }
    out.append(contentsOf: #""type":"#.utf8)
    JSONWriter.appendString(event.typeName, to: &out)
    switch event {
    case .lifecycle(let c, let callback):
      controller("controller", c)
      string("callback", callback.rawValue)
    case .move(let from, let to, let direction, let trigger, let animated):
      controller("from", from)
      controller("to", to)
      string("direction", direction.rawValue)
      string("trigger", trigger.rawValue)
      key("animated")
      out.append(contentsOf: (animated ? "true" : "false").utf8)
    case .modal(let c, let presenter):
      controller("controller", c)
      controller("presenter", presenter)
    case .dealloc(let c), .root(let c):
      controller("controller", c)
    case .link(let from, let direction, let to):
      controller("from", from)
      string("direction", direction.rawValue)
      controller("to", to)
    case .unlink(let from, let direction):
      controller("from", from)
      string("direction", direction.rawValue)
    case .alloc(let c, let className):
      controller("controller", c)
      string("class", className)
    case .touches(let c, let direction, let min):
      controller("controller", c)
      string("direction", direction.rawValue)
      key("min")
      JSONWriter.appendInt(min, to: &out)
    case .pan(let c, let direction, let touches, let distance, let velocity, let outcome):
      controller("controller", c)
      string("direction", direction.rawValue)
      key("touches")
      JSONWriter.appendInt(touches, to: &out)
      key("distance")
      JSONWriter.appendNumber(distance, to: &out)
      key("velocity")
      JSONWriter.appendNumber(velocity, to: &out)
      string("outcome", outcome.rawValue)
    case .mark(let label, let fields):
      string("label", label)
      for f in fields {
        key(f.key)
        out.append(contentsOf: f.value.text.utf8)
      }
    case .other(_, let fields):
      for f in fields {
        key(f.key)
        out.append(contentsOf: f.value.text.utf8)
      }
    }
    out.append(UInt8(ascii: "}"))
  }
}

extension DiffVocabulary.Name {
  /// The name as the diff's text and JSON write it: the id, or the instance of its class, e.g.
  /// `2nd NotesViewController`.
  public var text: String {
    switch self {
    case .id(let id): id
    case .instance(let ordinal, let className): "\(Wording.ordinal(ordinal)) \(className)"
    }
  }
}
