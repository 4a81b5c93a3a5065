import Journal
import Projection

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
    transition?.appendSuffix(glyphs, to: &text)
    return text
  }

  /// The message as the machine formats write it: Unicode marks.
  public var message: String { message(.unicode) }

  /// What was found, without the transition.
  private func sentence(_ glyphs: Glyphs) -> String {
    switch fact {
    case .loadRepeated(let id, let count):
      return "\(glyphs.id(id)): didLoad for the \(Wording.ordinal(count)) time"
    case .appearBeforeLoad(let id, let callback):
      return "\(glyphs.id(id)): \(callback) before didLoad"
    case .didRepeated(let id, let callback):
      return "\(glyphs.id(id)): \(callback) again, right after the same callback"
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
    case .modalLeak(let modal, let presenter, let end, let dismissed):
      let p = glyphs.id(presenter)
      let leak =
        "modal \(glyphs.id(modal)) (presented by \(p)) "
        + (dismissed ? "unlinked but never deallocated" : "still linked and alive")
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
    case .anomaly(let fact):
      return fact.message
    case .modelRefuses(let profile, let event, let refusal):
      return "\(profile) model refuses \(event.conformanceText(glyphs)): \(refusal.text(glyphs))"
    case .modelDiffers(let profile, let expected, let expectedCount, let found, let foundCount, let atEnd):
      let expectedList = Self.list(expected, count: expectedCount, glyphs)
      let foundList = Self.list(found, count: foundCount, glyphs)
      if expectedCount == 0 { return "unexpected \(foundList) (not in the \(profile) model)" }
      if foundCount == 0 {
        return atEnd
          ? "missing \(expectedList) at the end of the journal (expected by the \(profile) model)"
          : "missing \(expectedList) (expected here by the \(profile) model)"
      }
      return "\(profile) model expects \(expectedList); found \(foundList)"
    }
  }

  /// Up to three events, then how many more of `count`.
  private static func list(_ events: [Event], count: Int, _ glyphs: Glyphs) -> String {
    var text = events.map { $0.conformanceText(glyphs) }.joined(separator: ", ")
    if count > 3 { text += " and \(count - 3) more" }
    return text
  }
}

extension Finding.Refusal {
  /// Why the model refused, ids made safe for a terminal.
  public func text(_ glyphs: Glyphs) -> String {
    switch self {
    case .navigator(let error): error.message
    case .modalDirectionUnknown(let id):
      "no link to \(glyphs.id(id)) is recorded, so the direction of the modal is unknown"
    }
  }
}

extension Finding.Context {
  /// ` (in move at seq 41: home → notes)` or ` (in initial display at seq 3: home)`, ids made
  /// safe for a terminal: how a finding's message names the transition it happened in.
  ///
  /// Implementation note: appended piece by piece, not interpolated into a
  /// string of its own first: `check` of a legacy journal renders some 600,000.
  func appendSuffix(_ glyphs: Glyphs, to text: inout String) {
    switch kind {
    case .initialDisplay:
      text += " (in initial display at seq "
    case .move:
      text += " (in move at seq "
    }
    text += String(seq)
    text += ": "
    if kind == .move {
      text += from.map { glyphs.id($0) } ?? "?"
      text += " "
      text += glyphs.arrow
      text += " "
    }
    text += glyphs.id(to)
    text += ")"
  }
}

extension CheckFinding {
  /// What was found, in words: the reader's sentence, or the rule's fact drawn with `glyphs`.
  public func message(_ glyphs: Glyphs) -> String {
    switch self {
    case .format(let diagnostic): diagnostic.message
    case .rule(let finding): finding.message(glyphs)
    case .divergence(let divergence): divergence.finding.message(glyphs)
    }
  }

  /// The message as the machine formats write it (JSON, SARIF, the tables): Unicode marks.
  public var message: String { message(.unicode) }
}
