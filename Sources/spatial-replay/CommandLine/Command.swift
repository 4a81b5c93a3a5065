import Journal

/// Exit statuses, as documented in the README.
enum ExitCode {
  static let ok: Int32 = 0
  /// Findings or differences.
  static let findings: Int32 = 1
  /// Unreadable or invalid input data.
  static let badInput: Int32 = 2
  /// Usage error (bad arguments).
  static let usage: Int32 = 64
}

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

/// One subcommand: its name, help and a `run` that returns the exit status.
///
/// Each command is one file in `Commands/`: it declares its options in
/// `spec`, builds itself from the parsed arguments in `init(_:)` (throwing
/// ``UsageError`` for anything wrong) and does its work in `run(_:)`.
protocol Command {
  static var name: String { get }
  /// One line for the command list.
  static var abstract: String { get }
  /// The full `--help` text: usage line, options, at least one example.
  static var help: String { get }
  /// Which flags and options the command accepts.
  static var spec: ArgumentSpec { get }
  init(_ arguments: ParsedArguments) throws(UsageError)
  func run(_ context: inout Context) throws -> Int32
}

/// What a command accepts: flags (no value) and options (one value each,
/// repeatable), with short aliases such as `-o` for `--output`.
struct ArgumentSpec: Sendable {
  var flags: Set<String> = []
  var options: Set<String> = []
  var aliases: [String: String] = [:]

  init(flags: Set<String> = [], options: Set<String> = [], aliases: [String: String] = [:]) {
    self.flags = flags
    self.options = options
    self.aliases = aliases
  }
}

/// The command line after parsing against an ``ArgumentSpec``.
///
/// Accepts `--name value`, `--name=value`, short aliases, `--` to end options
/// and `-` as a positional (stdin).
struct ParsedArguments {
  private(set) var flags: Set<String> = []
  private(set) var options: [String: [String]] = [:]
  private(set) var positionals: [String] = []

  init(_ arguments: [String], spec: ArgumentSpec) throws(UsageError) {
    var i = 0
    var onlyPositionals = false
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if onlyPositionals || arg == "-" || !arg.hasPrefix("-") || Self.isNegativeNumber(arg) {
        positionals.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositionals = true
        continue
      }
      var name = arg
      var inlineValue: String? = nil
      if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
        name = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      }
      if let full = spec.aliases[name] { name = full }
      if spec.flags.contains(name) {
        if inlineValue != nil { throw UsageError("\(name) takes no value") }
        flags.insert(name)
      } else if spec.options.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard i < arguments.count else { throw UsageError("\(name) needs a value") }
          value = arguments[i]
          i += 1
        }
        options[name, default: []].append(value)
      } else {
        let known = (spec.flags.union(spec.options)).sorted()
        var message = "unknown option \(name)"
        if let near = closest(to: name, in: known) { message += " (did you mean \(near)?)" }
        throw UsageError(message)
      }
    }
  }

  private static func isNegativeNumber(_ s: String) -> Bool {
    s.count > 1 && s.first == "-" && s.dropFirst().allSatisfy { $0.isNumber }
  }

  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The last value given for an option.
  func value(_ name: String) -> String? { options[name]?.last }

  /// Every value given for a repeatable option, in order.
  func values(_ name: String) -> [String] { options[name] ?? [] }

  /// An integer option, refusing anything that is not a whole number in range.
  func int(_ name: String, min: Int = Int.min) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let v = Int(text), v >= min else {
      throw UsageError("\(name) takes a whole number\(min == Int.min ? "" : " ≥ \(min)"), got '\(text)'")
    }
    return v
  }

  /// A choice among fixed words.
  func choice(_ name: String, _ allowed: [String]) throws(UsageError) -> String? {
    guard let text = value(name) else { return nil }
    guard allowed.contains(text) else {
      throw UsageError("\(name) takes one of \(allowed.joined(separator: ", ")), got '\(text)'")
    }
    return text
  }
}

/// The closest candidate by edit distance, if it is close enough to be a likely typo.
func closest(to word: String, in candidates: [String]) -> String? {
  var best: (String, Int)? = nil
  for c in candidates {
    let d = editDistance(word, c)
    if d <= max(2, word.count / 3), best == nil || d < best!.1 { best = (c, d) }
  }
  return best?.0
}

func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.unicodeScalars)
  let b = Array(b.unicodeScalars)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
