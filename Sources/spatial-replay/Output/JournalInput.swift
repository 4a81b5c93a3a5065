import Journal

/// What the commands that read journals share: how a path is named in
/// messages, the reading options they accept, and how findings are printed.
enum JournalInput {
  /// How a path is shown in messages: `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// The options `--max-line-bytes N`, `--max-depth N` and `--strict` take.
  static let optionNames: Set<String> = ["--max-line-bytes", "--max-depth"]
  static let flagNames: Set<String> = ["--strict"]

  /// Reading options from `--max-line-bytes`, `--max-depth` and `--strict`.
  static func readOptions(_ arguments: ParsedArguments) throws(UsageError) -> ReadOptions {
    var options = ReadOptions(strict: arguments.flag("--strict"))
    if let bytes = try arguments.int("--max-line-bytes", min: 1) { options.limits.maxLineLength = bytes }
    if let depth = try arguments.int("--max-depth", min: 1) { options.limits.maxDepth = depth }
    return options
  }
}

extension FileOutput {
  /// Writes a finding as `file:line[:column]: severity: message [rule]`, with any
  /// control or invisible characters (from the journal or its name) escaped.
  mutating func write(_ diagnostic: Diagnostic, file: String) {
    write(displayText(diagnostic.formatted(file: file), limit: .max))
    write("\n")
  }
}

extension Int {
  /// The number with thousands separators: `1,000,000`.
  var grouped: String {
    let digits = String(magnitude)
    var out = self < 0 ? "-" : ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return out
  }

  /// `1 event`, `2 events`, `1,000 events`.
  func counted(_ singular: String, _ plural: String? = nil) -> String {
    "\(grouped) \(self == 1 ? singular : plural ?? singular + "s")"
  }
}
