import Journal
import Projection

extension JournalScript {
  /// The script's text: a first comment line, then one line per command or comment, each ended by `\n`.
  public var text: String {
    var out = "# spatial-replay script: the inputs of "
    if let scenarioName { out += "scenario '\(displayText(scenarioName))', " }
    out += "profile \(profile)\n"
    for line in lines {
      if let command = line.command, let text = command.scriptLine {
        out += text + "\n"
      } else if let comment = line.comment {
        out += "# line \(comment.line): \(comment.message)\n"
      }
    }
    return out
  }
}

extension JournalScript.Note: CustomStringConvertible {
  /// What the script leaves out, e.g. `a second session header: left out`: what `script` and
  /// `shrink` print after the journal's line, and the script's comment says.
  public var message: String {
    switch reason {
    case .sessionIDEmpty:
      return "the header's session id is empty: the script's is derived"
    case .headerLineFeed:
      return "the header's app, build or device has a line feed: left out"
    case .secondSession:
      return "a second session header: left out"
    case .unknownType(let type):
      return "an event of unknown type '\(displayText(type))': left out"
    case .extraKeys(let count):
      return "\(count) event\(count == 1 ? "" : "s") carry keys the model does not write: left out"
    case .notAnInput(let event):
      switch event {
      case .move(let move): return "\(Self.summary(event)): a move by a \(move.trigger) without the pan that made it"
      case .modal: return "\(Self.summary(event)): a modal without the alloc, link and move of a presentation"
      default: return "\(Self.summary(event)): not an input"
      }
    case .unsayable(let event):
      return
        "\(Self.summary(event)): a script cannot say it (a line feed in a text, or a mark key with a space, a quote or an '=')"
    case .refused(let event, let refusal):
      return "\(Self.summary(event)): the model refuses it (\(refusal.message))"
    }
  }

  /// `12: a second session header: left out`: the journal's line and the message.
  public var description: String { "\(line): \(message)" }

  /// An event as a note names it: its type and its controllers, e.g. `move home notes`.
  private static func summary(_ event: Event) -> String {
    let ids = event.controllers.map { displayText($0.rawValue) }.joined(separator: " ")
    return ids.isEmpty ? event.typeName : "\(event.typeName) \(ids)"
  }
}
