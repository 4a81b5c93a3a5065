import Journal

/// One option of the command line, declared once: its names, whether it
/// takes a value, the value's name, its help and the values it accepts.
///
/// Commands list their options in ``Command/options``; the parser, `--help`,
/// the shell completions and the man page are all generated from those
/// declarations, and a command reads a value back through the same `Option`
/// (never through a name typed again), so a misspelt option cannot
/// silently read as absent.
///
/// ```swift
/// static let table = Option.value("--table", "TABLE", "the table to write", values: .oneOf(["events", "visits"]))
/// let name = try arguments.choice(Self.table)
/// ```
struct Option: Sendable {
  enum Kind: Sendable, Hashable {
    /// No value: present or not.
    case flag
    /// One value; given twice, the last one counts.
    case value
    /// Values, repeatable and comma-separated (`--rule a,b --rule c`).
    case list
    /// A flag that may take a value: `--model`, `--model=legacy`, or `--model legacy` when
    /// the next argument is one of its ``Values/oneOf(_:)`` words (`--model [PROFILE]`).
    case optionalValue
  }

  /// What a value may be, for validation and completion.
  enum Values: Sendable, Hashable {
    case any
    case file
    case directory
    /// Exactly one of these words (a usage error with a suggestion otherwise).
    case oneOf([String])
    /// Completed with these words, checked by the command.
    case suggested([String])

    /// Exactly one of `Choice`'s raw values, in the order of its cases: the words are the enum's,
    /// spelled once, and ``ParsedArguments/choice(_:as:)`` reads the case back.
    static func cases<Choice: CaseIterable & RawRepresentable>(_: Choice.Type) -> Values
    where Choice.RawValue == String {
      .oneOf(Choice.allCases.map(\.rawValue))
    }
  }

  /// `--output`.
  var name: String
  /// `-o`.
  var short: String?
  var kind: Kind
  /// The value's name in the help, `PATH`; empty for a flag.
  var placeholder: String
  /// The help text, one or more lines (wrapped by whoever writes it).
  var help: String
  var values: Values

  static func flag(_ name: String, short: String? = nil, _ help: String) -> Option {
    Option(name: name, short: short, kind: .flag, placeholder: "", help: help, values: .any)
  }

  static func value(
    _ name: String, _ placeholder: String, short: String? = nil, _ help: String, values: Values = .any
  ) -> Option {
    Option(name: name, short: short, kind: .value, placeholder: placeholder, help: help, values: values)
  }

  /// `--name [PLACEHOLDER]`: given alone or with one of `words`.
  static func optionalValue(_ name: String, _ placeholder: String, _ help: String, words: [String]) -> Option {
    Option(name: name, short: nil, kind: .optionalValue, placeholder: placeholder, help: help, values: .oneOf(words))
  }

  static func list(_ name: String, _ placeholder: String, _ help: String, values: Values = .any) -> Option {
    Option(name: name, short: nil, kind: .list, placeholder: placeholder, help: help, values: values)
  }

  /// The same option with this command's help text.
  func help(_ text: String) -> Option {
    var copy = self
    copy.help = text
    return copy
  }

  /// `-o, --output PATH`.
  var synopsis: String {
    var s = short.map { "\($0), " } ?? ""
    s += name
    switch kind {
    case .flag: break
    case .optionalValue: s += " [" + placeholder + "]"
    case .value, .list: s += " " + placeholder
    }
    return s
  }
}

/// The command line after parsing against a command's ``Option`` list.
///
/// Accepts `--name value`, `--name=value`, `-o value`, `-oVALUE`, `--` to end
/// options and `-` as a positional (standard input). Values of
/// ``Option/Values/oneOf(_:)`` options are checked here, with a suggestion.
struct ParsedArguments {
  private var given: [String: [String]] = [:]
  private(set) var positionals: [String] = []
  private let declared: Set<String>

  /// The one journal a command reads, its only positional ('-' for standard input).
  /// - Throws: ``UsageError`` `COMMAND needs exactly one FILE ('-' for standard input)` for none or several,
  ///   and for a directory of journals (``JournalInput/refuseDirectories(_:command:reads:)``).
  func singleJournal(_ command: String) throws(UsageError) -> String {
    guard positionals.count == 1 else { throw UsageError("\(command) needs exactly one FILE ('-' for standard input)") }
    try JournalInput.refuseDirectories(positionals, command: command)
    return positionals[0]
  }

  /// The journal, or the two runs A and B, of `trace` and `step`: a usage error for another
  /// count (`\(command) \(needs), got N`) and for a directory of journals.
  func oneOrTwoJournals(_ command: String, needs: String) throws(UsageError) -> [String] {
    guard positionals.count == 1 || positionals.count == 2 else {
      throw UsageError("\(command) \(needs), got \(positionals.count)")
    }
    try JournalInput.refuseDirectories(positionals, command: command, reads: "one journal, or two runs A and B")
    return positionals
  }

  init(_ arguments: [String], options: [Option]) throws(UsageError) {
    declared = Set(options.map(\.name))
    var byName: [String: Option] = [:]
    for option in options {
      byName[option.name] = option
      if let short = option.short { byName[short] = option }
    }
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
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      } else if !arg.hasPrefix("--"), arg.count > 2, byName[String(arg.prefix(2))]?.kind != .flag {
        // -n5: a short option with its value attached.
        name = String(arg.prefix(2))
        inlineValue = String(arg.dropFirst(2))
      }
      guard let option = byName[name] else {
        var message = "unknown option \(displayText(name))"
        if let near = closestWord(to: name, in: options.map(\.name)) { message += " (did you mean \(near)?)" }
        throw UsageError(message)
      }
      if option.kind == .optionalValue {
        var value = inlineValue
        if value == nil, i < arguments.count, case .oneOf(let words) = option.values, words.contains(arguments[i]) {
          value = arguments[i]
          i += 1
        }
        if let value, case .oneOf(let words) = option.values, !words.contains(value) {
          var message = "\(option.name) takes one of \(words.joined(separator: ", ")), got '\(displayText(value))'"
          if let near = closestWord(to: value, in: words, ignoringCase: true) { message += " (did you mean \(near)?)" }
          throw UsageError(message)
        }
        given[option.name, default: []].append(value ?? "")
        continue
      }
      if option.kind == .flag {
        if inlineValue != nil { throw UsageError("\(option.name) takes no value") }
        given[option.name, default: []].append("")
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard i < arguments.count else { throw UsageError("\(option.name) needs \(option.placeholder)") }
        value = arguments[i]
        i += 1
      }
      let parts =
        option.kind == .list ? value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [value]
      for part in parts {
        guard !part.isEmpty else { throw UsageError("\(option.name) needs \(option.placeholder), got '\(value)'") }
        if case .oneOf(let words) = option.values, !words.contains(part) {
          var message =
            "\(option.name) takes one of \(words.joined(separator: ", ")), got '\(displayText(part))'"
          if let near = closestWord(to: part, in: words, ignoringCase: true) { message += " (did you mean \(near)?)" }
          throw UsageError(message)
        }
        given[option.name, default: []].append(part)
      }
    }
  }

  private static func isNegativeNumber(_ s: String) -> Bool {
    s.count > 1 && s.first == "-" && s.dropFirst().allSatisfy { $0.isNumber }
  }

  private func check(_ option: Option) {
    precondition(declared.contains(option.name), "\(option.name) is read but not declared by the command")
  }

  /// Whether the option was given.
  func flag(_ option: Option) -> Bool {
    check(option)
    return given[option.name] != nil
  }

  /// The last value given.
  func value(_ option: Option) -> String? {
    check(option)
    guard let last = given[option.name]?.last else { return nil }
    // An optional value given without one (`--model` alone) reads as no value.
    return option.kind == .optionalValue && last.isEmpty ? nil : last
  }

  /// Every value given, in order (a list option's commas split).
  func values(_ option: Option) -> [String] {
    check(option)
    return given[option.name] ?? []
  }

  /// A whole number of at least `min` and at most `max`.
  func int(_ option: Option, min: Int = Int.min, max: Int = Int.max) throws(UsageError) -> Int? {
    guard let text = value(option) else { return nil }
    guard let v = Int(text), v >= min, v <= max else {
      let range =
        max == Int.max
        ? (min == Int.min ? "" : " ≥ \(min)") : " from \(min.grouped) to \(max.grouped)"
      throw UsageError("\(option.name) takes a whole number\(range), got '\(displayText(text))'")
    }
    return v
  }

  /// A choice among the option's words (checked when parsing).
  func choice(_ option: Option) -> String? { value(option) }

  /// A choice among the option's words as the case of `Choice` whose raw value it is (the word
  /// is checked when parsing, so only an option whose words are not `Choice`'s reads as nil).
  func choice<Choice: RawRepresentable>(_ option: Option, as _: Choice.Type) -> Choice?
  where Choice.RawValue == String {
    value(option).flatMap(Choice.init(rawValue:))
  }
}
