/// A scenario script error: `SCRIPT:LINE: message`. The first one stops the compiler
/// and nothing is written.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The script as named on the command line.
  public var script: String
  /// 1-based line number.
  public var line: Int
  public var message: String

  public init(script: String, line: Int, message: String) {
    self.script = script
    self.line = line
    self.message = message
  }

  /// `demo.scenario:12: unknown controller 'hme' (did you mean 'home'?)`
  public var description: String { "\(script):\(line): \(message)" }
}
