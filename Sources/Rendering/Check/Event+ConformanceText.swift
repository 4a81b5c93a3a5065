import Journal
import Projection

extension Event {
  /// The event in a few words, as the conformance diff shows it: `notes didAppear`,
  /// `move home → notes left pan animated`, `unlink home down`, with `glyphs`' arrow.
  /// Journal text is escaped for a terminal.
  package func conformanceText(_ glyphs: Glyphs) -> String {
    switch self {
    case .session(let header): return "session \(glyphs.text(header.session))"
    case .alloc(let c, let className): return "alloc \(glyphs.id(c)) \(glyphs.text(className))"
    case .root(let c): return "root \(glyphs.id(c))"
    case .link(let a, let d, let b): return "link \(glyphs.id(a)) \(d) \(glyphs.id(b))"
    case .unlink(let a, let d): return "unlink \(glyphs.id(a)) \(d)"
    case .modal(let m, let p): return "modal \(glyphs.id(m)) presenter \(glyphs.id(p))"
    case .touches(let c, let d, let n): return "touches \(glyphs.id(c)) \(d) \(n)"
    case .pan(let p):
      return "pan \(glyphs.id(p.controller)) \(p.direction) touches=\(p.touches) distance=\(p.distance.journalText) "
        + "velocity=\(p.velocity.journalText) \(p.outcome)"
    case .move(let m):
      return
        "move \(glyphs.id(m.from)) \(glyphs.arrow) \(glyphs.id(m.to)) \(m.direction) \(m.trigger) \(m.animated ? "animated" : "instant")"
    case .lifecycle(let c, let callback): return "\(glyphs.id(c)) \(callback)"
    case .dealloc(let c): return "dealloc \(glyphs.id(c))"
    case .mark(let label, let fields):
      return (["mark \(glyphs.text(label))"] + fields.map { "\(glyphs.text($0.key))=\(glyphs.text($0.value.text))" })
        .joined(separator: " ")
    case .unknown(let type, _): return "unknown event \(glyphs.text(type))"
    }
  }
}
