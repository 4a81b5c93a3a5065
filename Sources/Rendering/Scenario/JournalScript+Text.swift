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
        out += "# " + comment + "\n"
      }
    }
    return out
  }
}
