import Journal

/// A scenario script error: the script, the line and why. The first one stops the compiler and
/// nothing is written. Its words, `SCRIPT:LINE: message`, are `Rendering`'s (`description`).
///
/// ```swift
/// do {
///   _ = try ScenarioCompiler.record(Array("root hme".utf8), script: "demo.scenario", profile: .intended)
/// } catch {
///   error.line    // 1
///   error.reason  // .refused(.unknownController("hme", suggestion: nil))
/// }
/// ```
public struct ScenarioError: Error, Sendable, Hashable {
  /// The script as named on the command line.
  public var script: String
  /// 1-based line number.
  public var line: Int
  public var reason: Reason

  public init(script: String, line: Int, reason: Reason) {
    self.script = script
    self.line = line
    self.reason = reason
  }

  /// Why a line is refused: its syntax, or the navigator's refusal of its command.
  public enum Reason: Sendable, Hashable {
    /// The line is not valid UTF-8.
    case invalidUTF8
    /// A control character (this byte) outside quotes.
    case controlCharacter(UInt8)
    /// A quote without its end on the line.
    case unterminatedQuote
    /// A backslash in quotes before another character than `"` or `\`: that character when it is
    /// printable ASCII, else nil.
    case unknownEscape(Character?)
    /// An option (`key=value`) where the command goes.
    case expectedCommand(found: String)
    /// A word that names no command, and the closest command's name.
    case unknownCommand(String, suggestion: ScenarioCommand.Name?)
    /// `session` after another command.
    case sessionNotFirst
    /// `session id=` with an empty id.
    case emptySessionID
    /// `session start=` that is not an RFC 3339 time to the microsecond.
    case invalidStart(String, Timestamp.ParseError)
    /// Fewer positional arguments than the command takes.
    case missingArguments(ScenarioCommand.Name)
    /// More positional arguments than the command takes.
    case tooManyArguments(ScenarioCommand.Name)
    /// An option the command does not take.
    case unknownOption(String, ScenarioCommand.Name)
    /// An option given twice.
    case repeatedOption(String)
    /// A positional argument after an option.
    case argumentAfterOptions(String)
    /// An empty class.
    case emptyClass
    /// A word that names no direction.
    case unknownDirection(String)
    /// `animated=` with another value than `true` or `false`.
    case invalidAnimated(String)
    /// A value that is not a whole number at least `minimum`.
    case notWhole(Quantity, String, minimum: Int)
    /// A value that is not a finite number ≥ 0.
    case notNumber(Quantity, String)
    /// `pan` without `distance=`.
    case panWithoutDistance
    /// `mark` with a key of the envelope (``Navigator/reservedMarkKeys``).
    case reservedMarkKey(String)
    /// The navigator refused the line's command, or the line breaks a rule the navigator holds
    /// (an empty or over-long id, a wait too long, an empty or repeated mark key), found as it is parsed.
    case refused(NavigatorError)
  }

  /// The number a line gives: a command's argument or an option.
  public enum Quantity: String, Sendable, Hashable {
    /// `touches ID DIRECTION MIN`, `pan ... touches=N`.
    case touches
    /// `wait MS`, in milliseconds.
    case wait
    /// `threshold ID POINTS`.
    case threshold
    /// `pan ... distance=N`.
    case distance
    /// `pan ... velocity=N`.
    case velocity
  }
}
