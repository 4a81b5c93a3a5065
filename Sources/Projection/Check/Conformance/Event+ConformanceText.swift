import Journal

extension Event {
  /// The event in a few words, as the conformance diff shows it: `notes didAppear`,
  /// `move home → notes left pan animated`, `unlink home down`. Journal text is
  /// escaped for a terminal.
  var conformanceText: String { conformanceText(.unicode) }

  /// The words with `glyphs`' arrow.
  func conformanceText(_ glyphs: Glyphs) -> String {
    switch self {
    case .session(let header): return "session \(displayText(header.session))"
    case .alloc(let c, let className): return "alloc \(idText(c)) \(displayText(className))"
    case .root(let c): return "root \(idText(c))"
    case .link(let a, let d, let b): return "link \(idText(a)) \(d) \(idText(b))"
    case .unlink(let a, let d): return "unlink \(idText(a)) \(d)"
    case .modal(let m, let p): return "modal \(idText(m)) presenter \(idText(p))"
    case .touches(let c, let d, let n): return "touches \(idText(c)) \(d) \(n)"
    case .pan(let p):
      return "pan \(idText(p.controller)) \(p.direction) touches=\(p.touches) distance=\(number(p.distance)) "
        + "velocity=\(number(p.velocity)) \(p.outcome)"
    case .move(let m):
      return
        "move \(idText(m.from)) \(glyphs.arrow) \(idText(m.to)) \(m.direction) \(m.trigger) \(m.animated ? "animated" : "instant")"
    case .lifecycle(let c, let callback): return "\(idText(c)) \(callback)"
    case .dealloc(let c): return "dealloc \(idText(c))"
    case .mark(let label, let fields):
      return (["mark \(displayText(label))"] + fields.map { "\(displayText($0.key))=\(displayText($0.value.text))" })
        .joined(separator: " ")
    case .unknown(let type, _): return "unknown event \(displayText(type))"
    }
  }
}

/// A number as the journal writes it (`120`, `50.5`).
private func number(_ value: Double) -> String {
  var bytes: [UInt8] = []
  JSONWriter.appendNumber(value, to: &bytes)
  return String(decoding: bytes, as: UTF8.self)
}
