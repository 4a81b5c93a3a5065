import Journal

/// A parsed scenario script: the commands of `record`'s input, each with its line.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(Array(text.utf8), script: "Journals/demo.scenario")
/// scenario.name              // "demo"
/// scenario.lines[0].command  // .controller("home", className: "HomeViewController")
/// ```
public struct Scenario: Sendable, Hashable {
  /// The script as named on the command line (the prefix of error messages).
  public var script: String
  /// The script's file name without its extension (the header's `scenario`).
  public var name: String
  /// The header's session id: `session id=`, or derived from the script's bytes.
  public var sessionID: String
  /// The commands in script order.
  public var lines: [Line]

  /// One command and the 1-based line it came from.
  public struct Line: Sendable, Hashable {
    public var number: Int
    public var command: ScenarioCommand
  }

  public init(script: String, name: String, sessionID: String, lines: [Line]) {
    self.script = script
    self.name = name
    self.sessionID = sessionID
    self.lines = lines
  }

  /// The `session` command's options, if the script starts with one.
  public var session: SessionOptions? {
    if case .session(let options) = lines.first?.command { return options }
    return nil
  }
}

/// The options of a `session` command.
public struct SessionOptions: Sendable, Hashable {
  public var id: String?
  public var app: String?
  public var build: String?
  public var device: String?
  /// The clock's start (converted to UTC).
  public var start: Timestamp?

  public init(
    id: String? = nil, app: String? = nil, build: String? = nil, device: String? = nil, start: Timestamp? = nil
  ) {
    self.id = id
    self.app = app
    self.build = build
    self.device = device
    self.start = start
  }
}

/// One command of the scenario language (spec "Scenario scripts").
public enum ScenarioCommand: Sendable, Hashable {
  /// `session [id=S] [app=S] [build=S] [device=S] [start=RFC3339]`, first only.
  case session(SessionOptions)
  /// `controller ID CLASS`
  case controller(ControllerID, className: String)
  /// `root ID`
  case root(ControllerID)
  /// `link FROM DIRECTION TO`
  case link(ControllerID, Direction, ControllerID)
  /// `unlink FROM DIRECTION`
  case unlink(ControllerID, Direction)
  /// `touches ID DIRECTION MIN`
  case touches(ControllerID, Direction, min: Int)
  /// `threshold ID POINTS` (not journaled)
  case threshold(ControllerID, points: Double)
  /// `move DIRECTION [animated=true|false]`
  case move(Direction, animated: Bool)
  /// `pan DIRECTION distance=N [velocity=N] [touches=N] [cancel]`
  case pan(Direction, distance: Double, velocity: Double, touches: Int, cancelled: Bool)
  /// `modal ID CLASS DIRECTION [animated=true|false]`
  case modal(ControllerID, className: String, Direction, animated: Bool)
  /// `goToRoot [animated=true|false]`
  case goToRoot(animated: Bool)
  /// `dealloc ID`
  case dealloc(ControllerID)
  /// `wait MS`
  case wait(milliseconds: Int64)
  /// `mark LABEL [KEY=VALUE ...]`
  case mark(label: String, fields: [MarkField])
}

extension ScenarioCommand {
  /// A command's name, the first word of its line, in the spec's order.
  public enum Name: String, Sendable, Hashable, CaseIterable {
    case session, controller, root, link, unlink, touches, threshold, move, pan, modal, goToRoot, dealloc, wait, mark
  }
}

/// One `KEY=VALUE` of a `mark`, journaled as a string.
public struct MarkField: Sendable, Hashable {
  public var key: String
  public var value: String

  public init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }
}
