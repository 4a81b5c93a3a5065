import Journal

extension Finding {
  /// The finding in words, ids made safe for a terminal and drawn with `glyphs`,
  /// then the transition it happened in: `notes: willAppear while already
  /// appearing (in move at seq 10: home → notes)`.
  ///
  /// Each rule's sentence is written here, one case of ``Fact`` each, so that
  /// every output (text, JSON, SARIF, JUnit, GitHub, the tables, the report and
  /// `step`) says it the same way.
  public func message(_ glyphs: Glyphs) -> String {
    var text = sentence(glyphs)
    if let transition { text += transition.suffix(glyphs) }
    return text
  }

  /// What was found, without the transition.
  private func sentence(_ glyphs: Glyphs) -> String {
    switch fact {
    case .loadRepeated(let id, let count):
      return "\(glyphs.id(id)): didLoad for the \(ordinalText(count)) time"
    case .appearBeforeLoad(let id, let callback):
      return "\(glyphs.id(id)): \(callback) before didLoad"
    case .didWithoutWill(let id, let callback, let phase, let needed):
      return "\(glyphs.id(id)): \(callback) while \(phase), not \(needed)"
    case .willRepeated(let id, let callback, let phase):
      return "\(glyphs.id(id)): \(callback) while already \(phase)"
    case .misattributed(let id, let callback, inFlight: true):
      return "\(glyphs.id(id)): \(callback), but \(glyphs.id(id)) is not part of the transition in flight"
    case .misattributed(let id, let callback, inFlight: false):
      return "\(glyphs.id(id)): \(callback) while no transition is in flight"
    case .incompleteTransition(let missing, let atEnd):
      let list = missing.map { glyphs.id($0) }.joined(separator: ", ")
      return "missing \(list) " + (atEnd ? "at the end of the journal" : "when the next move starts")
    case .order(let id, let callback, let after, let expected):
      return "\(glyphs.id(id)): \(callback) arrived after \(glyphs.id(after)); the order is "
        + expected.map { glyphs.id($0) }.joined(separator: ", ")
    case .modalLeak(let modal, let presenter, let end):
      let p = glyphs.id(presenter)
      let leak = "modal \(glyphs.id(modal)) (presented by \(p)) still linked and alive"
      switch end {
      case .didAppear: return "\(leak) after \(p) didAppear"
      case .nextMove: return "\(leak) when the next move starts (no \(p) didAppear)"
      case .journalEnd: return "\(leak) at the end of the journal (no \(p) didAppear)"
      }
    case .visibleCount(let count, let shown):
      let list =
        shown.isEmpty
        ? "" : " (" + shown.map { glyphs.id($0) }.joined(separator: ", ") + (count > 8 ? ", \(glyphs.more)" : "") + ")"
      return "\(count) controllers appeared at rest\(list); expected exactly 1"
    case .touchesViolated(let id, let direction, let touches, let required):
      return "\(glyphs.id(id)): pan \(direction) committed with \(touches) touch" + (touches == 1 ? "" : "es")
        + ", \(required) required"
    case .anomaly(let sentence):
      return sentence
    }
  }
}

extension Finding.Context {
  /// ` (in move at seq 41: home → notes)` or ` (in initial display at seq 3: home)`, ids made
  /// safe for a terminal: how a finding's message names the transition it happened in.
  func suffix(_ glyphs: Glyphs) -> String {
    switch kind {
    case .initialDisplay:
      return " (in initial display at seq \(seq): \(glyphs.id(to)))"
    case .move:
      return " (in move at seq \(seq): \(from.map { glyphs.id($0) } ?? "?") \(glyphs.arrow) \(glyphs.id(to)))"
    }
  }
}

/// `2nd`, `3rd`, `11th`, `21st`.
func ordinalText(_ n: Int) -> String {
  let suffix: String
  switch (n % 10, n % 100) {
  case (_, 11...13): suffix = "th"
  case (1, _): suffix = "st"
  case (2, _): suffix = "nd"
  case (3, _): suffix = "rd"
  default: suffix = "th"
  }
  return "\(n)\(suffix)"
}
