import Journal

/// Parses scenario scripts (spec "Scenario scripts") into ``Scenario`` values.
///
/// Syntax only: whether ids exist, slots are free and so on is decided when the
/// ``ScenarioCompiler`` runs the commands on a ``Navigator``.
///
/// ```swift
/// let text = """
///   controller home HomeViewController   # the first screen
///   root home
///   mark "step 1" user=alice
///   """
/// let scenario = try ScenarioParser.parse(Array(text.utf8), script: "login.scenario")
/// scenario.lines.count  // 3
/// ```
public enum ScenarioParser {
  /// Parses a whole script.
  ///
  /// - Parameters:
  ///   - bytes: the script's UTF-8 bytes.
  ///   - script: the script as named on the command line: the prefix of errors, and
  ///     (without directories and extension) the scenario's name.
  /// - Returns: the commands, the scenario name and the session id.
  /// - Throws: ``ScenarioError`` for the first line that is not valid.
  public static func parse(_ bytes: [UInt8], script: String) throws(ScenarioError) -> Scenario {
    var pieces = Pieces(bytes, script: script)
    var lines: [Scenario.Line] = []
    while let piece = try pieces.next(lines: .max) { lines += piece }
    return scenario(bytes, script: script, lines: lines)
  }

  /// The scenario of a script whose first commands are `lines` (all of them, or the first
  /// piece of ``Pieces``): its name, its session id (the `session` line's, else derived
  /// from the script's bytes) and those lines.
  public static func scenario(_ bytes: [UInt8], script: String, lines: [Scenario.Line]) -> Scenario {
    // The script's digest only when it names no session: it reads every byte of the script.
    let sessionID: String
    if case .session(let options) = lines.first?.command, let id = options.id {
      sessionID = id
    } else {
      sessionID = derivedSessionID(bytes)
    }
    return Scenario(script: script, name: scenarioName(forScript: script), sessionID: sessionID, lines: lines)
  }

  /// A script parsed a piece at a time, in order: what ``parse(_:script:)`` reads at once,
  /// for a caller that runs the first commands while the next ones are parsed (`record`).
  ///
  /// ```swift
  /// var pieces = ScenarioParser.Pieces(bytes, script: "long.scenario")
  /// while let lines = try pieces.next(lines: 4096) { /* run them */ }
  /// ```
  public struct Pieces: Sendable {
    private let bytes: [UInt8]
    private let script: String
    private var start = 0
    private var number = 0
    private var hasCommands = false
    private var recent = RecentLines()

    public init(_ bytes: [UInt8], script: String) {
      self.bytes = bytes
      self.script = script
    }

    /// The commands of the next `lines` lines of the script (comments and blank lines
    /// count), nil after the last line.
    /// - Throws: ``ScenarioError`` for the first line of them that is not valid.
    public mutating func next(lines count: Int) throws(ScenarioError) -> [Scenario.Line]? {
      guard start < bytes.count else { return nil }
      var lines: [Scenario.Line] = []
      lines.reserveCapacity(Swift.min(count, 4096))
      var tokens: [Token] = []
      var read = 0
      while start < bytes.count, read < count {
        read += 1
        number += 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        let next = end + 1
        // A `\r` before the `\n`, or at the very end of the file, is ignored.
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = bytes[start..<end]
        start = next
        if let command = recent.command(of: line) {
          hasCommands = true
          lines.append(Scenario.Line(number: number, command: command))
          continue
        }
        if let command = line.withUnsafeBufferPointer(PlainCommand.command) {
          hasCommands = true
          lines.append(Scenario.Line(number: number, command: command))
          recent.keep(command, of: line)
          continue
        }
        do throws(TokenError) {
          // ASCII, the usual script, is valid UTF-8 without making a string of the line.
          guard line.allSatisfy({ $0 < 0x80 }) || String(validating: line, as: UTF8.self) != nil else {
            throw TokenError(.invalidUTF8)
          }
          guard let command = try ScenarioParser.command(line, tokens: &tokens, isFirst: !hasCommands) else {
            continue
          }
          hasCommands = true
          lines.append(Scenario.Line(number: number, command: command))
          // `session` is valid on the first command only: it is parsed again wherever it comes.
          if case .session = command {} else { recent.keep(command, of: line) }
        } catch {
          throw ScenarioError(script: script, line: number, reason: error.reason)
        }
      }
      return lines
    }
  }

  /// The command of one line of valid UTF-8 read by the general parser (nil for a blank line or
  /// a comment); `tokens` is a buffer the caller reuses.
  static func command(_ line: ArraySlice<UInt8>, tokens: inout [Token], isFirst: Bool) throws(TokenError)
    -> ScenarioCommand?
  {
    try Tokenizer.tokens(line, into: &tokens)
    guard !tokens.isEmpty else { return nil }
    return try parseCommand(tokens, isFirst: isFirst)
  }

  /// The scenario's name: the script's file name without directories and its last extension
  /// (`Journals/demo.scenario` → `demo`; standard input `-` → `stdin`).
  public static func scenarioName(forScript script: String) -> String {
    if script == "-" { return "stdin" }
    var name = Substring(script)
    if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
    if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
    return String(name)
  }

  /// The session id of a script without `session id=`: FNV-1a (32 bits) of its bytes,
  /// as 8 uppercase hex digits.
  public static func derivedSessionID(_ bytes: [UInt8]) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let digits = Array("0123456789ABCDEF")
    var out = ""
    for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((hash >> UInt32(shift)) & 15)]) }
    return out
  }

  private static func parseCommand(_ tokens: [Token], isFirst: Bool) throws(TokenError) -> ScenarioCommand {
    let head = tokens[0]
    guard head.option == nil else { throw TokenError(.expectedCommand(found: head.text)) }
    guard let name = ScenarioCommand.Name(rawValue: head.text) else {
      let suggestion = closestWord(to: head.text, in: ScenarioCommand.Name.allCases.map(\.rawValue))
      throw TokenError(.unknownCommand(head.text, suggestion: suggestion.flatMap(ScenarioCommand.Name.init)))
    }
    let args = try Arguments(command: name, tokens: tokens.dropFirst())
    switch name {
    case .session:
      guard isFirst else { throw TokenError(.sessionNotFirst) }
      try args.expect(positionals: 0, options: ["id", "app", "build", "device", "start"])
      var options = SessionOptions()
      options.id = args.option("id")
      if options.id?.isEmpty == true { throw TokenError(.emptySessionID) }
      options.app = args.option("app")
      options.build = args.option("build")
      options.device = args.option("device")
      if let text = args.option("start") {
        do {
          options.start = try Timestamp(rfc3339: text, allowOffset: true, exactMicroseconds: true)
        } catch {
          throw TokenError(.invalidStart(text, error))
        }
      }
      return .session(options)
    case .controller:
      try args.expect(positionals: 2)
      return .controller(try args.id(0), className: try args.className(1))
    case .root:
      try args.expect(positionals: 1)
      return .root(try args.id(0))
    case .link:
      try args.expect(positionals: 3)
      return .link(try args.id(0), try args.direction(1), try args.id(2))
    case .unlink:
      try args.expect(positionals: 2)
      return .unlink(try args.id(0), try args.direction(1))
    case .touches:
      try args.expect(positionals: 3)
      return .touches(
        try args.id(0), try args.direction(1), min: try args.whole(args.positional(2), .touches, minimum: 1))
    case .threshold:
      try args.expect(positionals: 2)
      return .threshold(try args.id(0), points: try args.number(args.positional(1), .threshold))
    case .move:
      try args.expect(positionals: 1, options: ["animated"])
      return .move(try args.direction(0), animated: try args.animated())
    case .pan:
      try args.expect(positionals: 1, options: ["distance", "velocity", "touches"])
      guard let distance = args.option("distance") else { throw TokenError(.panWithoutDistance) }
      return .pan(
        try args.direction(0),
        distance: try args.number(distance, .distance),
        velocity: try args.option("velocity").map { v throws(TokenError) in try args.number(v, .velocity) } ?? 0,
        touches: try args.option("touches").map { v throws(TokenError) in
          try args.whole(v, .touches, minimum: 1)
        } ?? 1,
        cancelled: args.cancel)
    case .modal:
      try args.expect(positionals: 3, options: ["animated"])
      return .modal(
        try args.id(0), className: try args.className(1), try args.direction(2), animated: try args.animated())
    case .goToRoot:
      try args.expect(positionals: 0, options: ["animated"])
      return .goToRoot(animated: try args.animated())
    case .dealloc:
      try args.expect(positionals: 1)
      return .dealloc(try args.id(0))
    case .wait:
      try args.expect(positionals: 1)
      let ms = try args.whole(args.positional(0), .wait, minimum: 0)
      guard ms <= Navigator.maximumWait else { throw TokenError(.refused(.waitTooLong(milliseconds: Int64(ms)))) }
      return .wait(milliseconds: Int64(ms))
    case .mark:
      try args.expect(positionals: 1, anyOptions: true)
      var seen: Set<String> = []
      var fields: [MarkField] = []
      for (key, value) in args.options {
        guard !key.isEmpty else { throw TokenError(.refused(.emptyMarkKey)) }
        guard !Navigator.reservedMarkKeys.contains(key) else { throw TokenError(.reservedMarkKey(key)) }
        guard seen.insert(key).inserted else { throw TokenError(.refused(.repeatedMarkKey(key))) }
        fields.append(MarkField(key, value))
      }
      return .mark(label: args.positional(0), fields: fields)
    }
  }
}

/// The arguments of one command line: positionals, then options (and `pan`'s flag `cancel`).
private struct Arguments {
  let command: ScenarioCommand.Name
  var positionals: [Token] = []
  var options: [(key: String, value: String)] = []
  /// `pan`'s bare word `cancel`.
  var cancel = false

  init(command: ScenarioCommand.Name, tokens: ArraySlice<Token>) throws(TokenError) {
    self.command = command
    positionals.reserveCapacity(tokens.count)
    for token in tokens {
      if let option = token.option {
        if options.isEmpty { options.reserveCapacity(tokens.count) }
        options.append(option)
      } else if command == .pan, !token.quoted, token.text == "cancel" {
        cancel = true
      } else if !options.isEmpty {
        throw TokenError(.argumentAfterOptions(token.text))
      } else {
        positionals.append(token)
      }
    }
  }

  /// Checks the number of positionals and the option keys.
  ///
  /// Implementation note: a command has a handful of options at most, so
  /// arrays searched in order beat sets, which hash every key of every line.
  func expect(positionals count: Int, options allowed: [String] = [], anyOptions: Bool = false) throws(TokenError) {
    if positionals.count < count { throw TokenError(.missingArguments(command)) }
    if positionals.count > count { throw TokenError(.tooManyArguments(command)) }
    guard !anyOptions else { return }
    for (i, (key, _)) in options.enumerated() {
      guard allowed.contains(key) else { throw TokenError(.unknownOption(key, command)) }
      guard !options[..<i].contains(where: { $0.key == key }) else { throw TokenError(.repeatedOption(key)) }
    }
  }

  func positional(_ i: Int) -> String { positionals[i].text }

  func option(_ key: String) -> String? { options.first { $0.key == key }?.value }

  func id(_ i: Int) throws(TokenError) -> ControllerID {
    let id = ControllerID(positional(i))
    guard id.isValid else { throw TokenError(.refused(id.rawValue.isEmpty ? .emptyID : .idTooLong(id))) }
    return id
  }

  func className(_ i: Int) throws(TokenError) -> String {
    let text = positional(i)
    guard !text.isEmpty else { throw TokenError(.emptyClass) }
    return text
  }

  func direction(_ i: Int) throws(TokenError) -> Direction {
    let text = positional(i)
    guard let d = Direction(rawValue: text) else { throw TokenError(.unknownDirection(text)) }
    return d
  }

  func animated() throws(TokenError) -> Bool {
    switch option("animated") {
    case nil, "true": return true
    case "false": return false
    case let other?: throw TokenError(.invalidAnimated(other))
    }
  }

  /// A whole number ≥ `minimum` (digits only).
  func whole(_ text: String, _ quantity: ScenarioError.Quantity, minimum: Int) throws(TokenError) -> Int {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let value = Int(text), value >= minimum
    else {
      throw TokenError(.notWhole(quantity, text, minimum: minimum))
    }
    return value
  }

  /// A finite number ≥ 0: digits, an optional fraction and an optional exponent.
  func number(_ text: String, _ quantity: ScenarioError.Quantity) throws(TokenError) -> Double {
    guard Self.isNumber(text), let value = Double(text), value.isFinite else {
      throw TokenError(.notNumber(quantity, text))
    }
    return value
  }

  private static func isNumber(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isNumber($0) }
  }

  private static func isNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    func digits() -> Bool {
      let s = i
      while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
      return i > s
    }
    guard digits() else { return false }
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() else { return false }
    }
    if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
      i += 1
      if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
      guard digits() else { return false }
    }
    return i == b.count
  }
}

/// The commands of the last lines parsed, by their bytes: a line seen lately is not
/// tokenized and parsed again (a line's command depends on its bytes only, but for
/// `session`, which is never kept).
///
/// Implementation note: scripts repeat their lines (`move right`, `pan left
/// distance=120`, ...); tokenizing a line, making strings of its tokens and
/// parsing it again would be a large share of `record`'s work on them.
/// 256 slots chosen by a hash of the line. A line is kept the second time its
/// hash comes to its slot, so that lines seen once (a new modal's id at every
/// step) do not pay for a copy; it stays until another line takes the slot.
/// Lines of 512 bytes at most: a bounded cache, whatever the script's length.
private struct RecentLines: Sendable {
  private struct Slot: Sendable {
    var bytes: [UInt8]
    var command: ScenarioCommand
  }

  private static let slotCount = 256
  /// Longer lines (a `mark` with long values) are parsed each time: the slots stay small.
  private static let longestLine = 512
  private var slots = [Slot?](repeating: nil, count: RecentLines.slotCount)
  /// Per slot, the hash of the last line that came to it (kept or not), 0 for none.
  private var seen = [UInt32](repeating: 0, count: RecentLines.slotCount)

  /// The command of `line` if it was kept.
  @inline(__always)
  func command(of line: ArraySlice<UInt8>) -> ScenarioCommand? {
    guard let slot = slots[Self.slot(of: Self.hash(of: line))], Self.equal(slot.bytes, line) else { return nil }
    return slot.command
  }

  /// Notes that `line` parsed to `command`: kept if the line's hash came to its slot last time too.
  mutating func keep(_ command: ScenarioCommand, of line: ArraySlice<UInt8>) {
    guard line.count <= Self.longestLine else { return }
    let hash = Self.hash(of: line) | 1
    let slot = Self.slot(of: hash)
    guard seen[slot] == hash else {
      seen[slot] = hash
      return
    }
    slots[slot] = Slot(bytes: Array(line), command: command)
  }

  @inline(__always)
  private static func hash(of line: ArraySlice<UInt8>) -> UInt32 {
    line.withUnsafeBytes { ControllerID.contentHash(of: $0) }
  }

  @inline(__always)
  private static func slot(of hash: UInt32) -> Int { Int(hash >> 1) & (slotCount - 1) }

  /// Whether two lines have the same bytes, compared eight at a time.
  @inline(__always)
  private static func equal(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        var i = 0
        while i + 8 <= a.count {
          guard
            a.loadUnaligned(fromByteOffset: i, as: UInt64.self) == b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          else { return false }
          i += 8
        }
        while i < a.count {
          guard a[i] == b[i] else { return false }
          i += 1
        }
        return true
      }
    }
  }
}
