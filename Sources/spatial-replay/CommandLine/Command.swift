import Journal

/// A wrong command line: printed with the command's usage, exit 64.
struct UsageError: Error, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// A failure that ends a command with a message on stderr and an exit code.
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  var exitCode: Int32
  init(_ message: String, exitCode: Int32 = ExitCode.badInput) {
    self.message = message
    self.exitCode = exitCode
  }
  var description: String { message }
}

/// One subcommand: its name, its help in parts, its options, and a `run`
/// that returns the exit status.
///
/// Each command is one file in `Commands/`: it declares its options once in
/// ``options`` (shared ones come from ``Option``'s groups), builds itself from
/// the parsed arguments in `init(_:)` (throwing ``UsageError`` for anything
/// wrong) and does its work in `run(_:)`. `--help`, the shell completions and
/// the man page are generated from the declarations.
protocol Command {
  static var name: String { get }
  /// One line for the command list.
  static var abstract: String { get }
  /// The usage lines, without `usage: `, e.g. `spatial-replay check [options] FILE...`.
  static var usage: [String] { get }
  /// What the command does, before the options.
  static var discussion: String { get }
  /// Every option the command takes, besides `--help`, `--version` and `--color`.
  static var options: [Option] { get }
  /// Sections after the options (rules, keys, tables), with their headings.
  static var details: String { get }
  /// The exit statuses, after `exit status: `.
  static var exitStatus: String { get }
  static var examples: [String] { get }
  /// Whether this command line asks for JSON (or another data format) on standard output:
  /// by default, `--json` where the command takes it. A command with a `--format` says so itself.
  static func writesJSON(_ arguments: ParsedArguments) -> Bool
  init(_ arguments: ParsedArguments) throws(UsageError)
  func run(_ context: inout Context) throws -> Int32
}

extension Command {
  static var details: String { "" }

  static func writesJSON(_ arguments: ParsedArguments) -> Bool {
    options.contains { $0.name == Option.json.name } && arguments.flag(Option.json)
  }

  /// Every option the parser accepts: the command's and the common ones.
  static var allOptions: [Option] { options + Option.common }

  /// The full `--help` text.
  static var help: String {
    var s = "usage: " + usage.joined(separator: "\n       ") + "\n\n"
    s += discussion.trimmingTrailingNewlines + "\n\n"
    s += "options:\n"
    s += Option.helpTable(options)
    s += "  --color WHEN, -h/--help, --version: see 'spatial-replay --help'\n"
    if !details.isEmpty { s += "\n" + details.trimmingTrailingNewlines + "\n" }
    s +=
      "\n"
      + wrap(String(exitStatus.trimmingTrailingNewlines), width: 80, first: "exit status: ").joined(separator: "\n")
    s += "\n\n"
    s += "examples:\n" + examples.map { "  " + $0 + "\n" }.joined() + "\n"
    return s
  }
}

extension Option {
  /// The options' help, one per entry: the synopsis in a column of 23, the help beside it
  /// wrapped to 80 columns (on the next line when the synopsis is longer).
  static func helpTable(_ options: [Option]) -> String {
    let column = 25
    var s = ""
    for option in options {
      let synopsis = "  " + option.synopsis
      let lines = wrap(option.help, width: 80 - column)
      if synopsis.count + 2 <= column {
        s += synopsis + String(repeating: " ", count: column - synopsis.count) + (lines.first ?? "") + "\n"
      } else {
        s += synopsis + "\n" + String(repeating: " ", count: column) + (lines.first ?? "") + "\n"
      }
      for line in lines.dropFirst() { s += String(repeating: " ", count: column) + line + "\n" }
    }
    return s
  }
}

/// `text`'s words (line breaks count as spaces) in lines of at most `width` columns; a longer word stands alone.
func wrap(_ text: String, width: Int, first: String = "") -> [String] {
  var lines = [first]
  for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
    let current = lines[lines.count - 1]
    if current.isEmpty || current == first {
      lines[lines.count - 1] += word
    } else if current.count + 1 + word.count <= width {
      lines[lines.count - 1] += " " + word
    } else {
      lines.append(String(word))
    }
  }
  return lines
}

extension String {
  var trimmingTrailingNewlines: Substring {
    var s = self[...]
    while s.last == "\n" { s = s.dropLast() }
    return s
  }
}
