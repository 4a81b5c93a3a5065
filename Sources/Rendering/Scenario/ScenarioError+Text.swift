import Journal
import Projection

extension ScenarioError: CustomStringConvertible {
  /// `demo.scenario:12: unknown controller 'hme' (did you mean 'home'?)`: what `record`, `testgen`
  /// and `shrink` print for a script's first bad line.
  public var description: String { "\(script):\(line): \(reason.message)" }
}

extension ScenarioError.Reason {
  /// Why the line is refused, words of the line quoted with ``quoted(_:)``, e.g.
  /// `unknown command 'lnik' (did you mean 'link'?)`.
  public var message: String {
    switch self {
    case .invalidUTF8:
      return "invalid UTF-8"
    case .controlCharacter(let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      return "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) outside quotes"
    case .unterminatedQuote:
      return "unterminated quote"
    case .unknownEscape(let next):
      return #"unknown escape '\\#(next.map(String.init) ?? "")' in quotes (only \" and \\ are escapes)"#
    case .expectedCommand(let found):
      return "expected a command, found \(quoted(found))"
    case .unknownCommand(let word, let suggestion):
      return "unknown command \(quoted(word))" + (suggestion.map { " (did you mean '\($0.rawValue)'?)" } ?? "")
    case .sessionNotFirst:
      return "session must be the first command"
    case .emptySessionID:
      return "empty session id"
    case .invalidStart(let text, let error):
      return "start: \(error.message), got \(quoted(text))"
    case .missingArguments(let command):
      return "missing arguments: expected '\(command.usage)'"
    case .tooManyArguments(let command):
      return "too many arguments: expected '\(command.usage)'"
    case .unknownOption(let key, let command):
      return "unknown option \(quoted(key)): expected '\(command.usage)'"
    case .repeatedOption(let key):
      return "option \(quoted(key)) given twice"
    case .argumentAfterOptions(let word):
      return "argument \(quoted(word)) after the options (options come after all positional arguments)"
    case .emptyClass:
      return "empty class"
    case .unknownDirection(let word):
      return "unknown direction \(quoted(word)) (expected left, right, up or down)"
    case .invalidAnimated(let value):
      return "animated must be true or false, got \(quoted(value))"
    case .notWhole(let quantity, let text, let minimum):
      let what = quantity == .wait ? "whole milliseconds" : "a whole number"
      return "\(quantity.rawValue) needs \(what) ≥ \(minimum), got \(quoted(text))"
    case .notNumber(let quantity, let text):
      return "\(quantity.rawValue) needs a number ≥ 0, got \(quoted(text))"
    case .panWithoutDistance:
      return "pan needs distance=N"
    case .reservedMarkKey(let key):
      return "mark key \(quoted(key)) is reserved (seq, time, type and label are)"
    case .refused(let error):
      return error.message
    }
  }
}

extension ScenarioCommand.Name {
  /// The command's line as the spec writes it, e.g. `link FROM DIRECTION TO`: what a line with
  /// the wrong arguments is told to be.
  public var usage: String {
    switch self {
    case .session: "session [id=S] [app=S] [build=S] [device=S] [start=RFC3339]"
    case .controller: "controller ID CLASS"
    case .root: "root ID"
    case .link: "link FROM DIRECTION TO"
    case .unlink: "unlink FROM DIRECTION"
    case .touches: "touches ID DIRECTION MIN"
    case .threshold: "threshold ID POINTS"
    case .move: "move DIRECTION [animated=true|false]"
    case .pan: "pan DIRECTION distance=N [velocity=N] [touches=N] [cancel]"
    case .modal: "modal ID CLASS DIRECTION [animated=true|false]"
    case .goToRoot: "goToRoot [animated=true|false]"
    case .dealloc: "dealloc ID"
    case .wait: "wait MS"
    case .mark: "mark LABEL [KEY=VALUE ...]"
    }
  }
}
