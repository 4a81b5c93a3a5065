import Journal

/// What the commands that read journals share: how a path is named in
/// messages, the reading options they accept, and how findings are printed.
enum JournalInput {
  /// How a path is shown in messages: `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// The journals named on the command line: at least one, and standard input at most once.
  static func paths(_ arguments: ParsedArguments, command: String) throws(UsageError) -> [String] {
    let paths = arguments.positionals
    guard !paths.isEmpty else { throw UsageError("\(command) needs at least one FILE ('-' for standard input)") }
    try checkStandardInputOnce(paths)
    return paths
  }

  /// `-` may be given once: standard input cannot be read twice.
  static func checkStandardInputOnce(_ paths: [String]) throws(UsageError) {
    guard paths.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("'-' (standard input) can be read only once")
    }
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
