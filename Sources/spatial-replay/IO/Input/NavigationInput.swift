import Journal
import Projection

/// Reading journals for the analyses of navigation (`paths`, `funnel`, `latency`):
/// each journal's records streamed through a fold of the caller's, its format
/// errors reported as `check` would (the first few, then a count).
enum NavigationInput {
  /// The exit status of the commands that fold the screens of many journals (`funnel`, `latency`, `paths`).
  static let exitStatus = """
    0 fine, 2 a file could not be read or a journal has format errors, 64 usage error.
    """
  /// The options of those commands that say how the journals are read: ``Option/reading``, `--max-errors`, `--jobs`.
  static let readingOptions = Option.reading + [Option.maxErrors, Option.jobs]
  /// A navigation analysis's options: its own, `--json` (`json` says what it writes), its `--format`
  /// if it has one, then ``readingOptions``.
  static func options(_ own: [Option], json: String, format: Option? = nil) -> [Option] {
    own + [Option.json.help(json)] + (format.map { [$0] } ?? []) + readingOptions
  }
  /// `--by`: what names a screen, and the header fields the results are split by (as `stats --by`).
  static let screenKey = Option.list(
    "--by", "KEY",
    "what names a screen: class (default; every instance of a class\nis one screen) or controller (its id); and header fields to\nsplit the results by, one block per group of journals and one\noverall, as stats --by (comma-separated): "
      + StatsKey.allCases.map(\.rawValue).joined(separator: ", "),
    values: .oneOf(ScreenKey.allCases.map(\.rawValue) + StatsKey.allCases.map(\.rawValue)))

  /// What one journal gave: its session's key, its header, and the fold's result.
  struct Read<Result: Sendable>: Sendable {
    /// The header's session id, else the file's name.
    var session: String
    var header: SessionHeader?
    var formatErrors: Int
    var result: Result

    /// What ``NavigationInput/read(_:options:limit:_:_:fold:_:)`` found of a journal, with the fold's result.
    init(_ read: (session: String, header: SessionHeader?, formatErrors: Int), result: Result) {
      (session, header, formatErrors) = read
      self.result = result
    }
  }

  /// The journals a navigation analysis reads, and how: its paths, ``ReadOptions``, `--by`, `--jobs` and `--max-errors`.
  struct Journals {
    var files: [String]
    var options: ReadOptions
    /// `--by`: what names a screen.
    var key: ScreenKey
    /// `--by`'s header fields: the groups the results are split by (none: one result).
    var fields: [StatsKey]
    var runner: FleetRunner
    /// `--max-errors`: how many of a journal's findings stderr shows.
    var limit: DiagnosticLimit

    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
      files = try JournalInput.paths(arguments, command: command)
      options = try ReadOptions(arguments)
      (key, fields) = try NavigationInput.by(arguments)
      runner = try FleetRunner(arguments)
      limit = try DiagnosticLimit(arguments)
    }
  }

  /// `--by`: what names a screen (class unless given) and the header fields to split by, in the order given.
  static func by(_ arguments: ParsedArguments) throws(UsageError) -> (key: ScreenKey, fields: [StatsKey]) {
    let names = arguments.values(screenKey)
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      throw UsageError("--by names \(twice) twice")
    }
    let keys = names.compactMap(ScreenKey.init(rawValue:))
    guard keys.count <= 1 else {
      throw UsageError("--by names a screen one way: \(keys.map(\.rawValue).joined(separator: " or "))")
    }
    return (keys.first ?? .class, names.compactMap(StatsKey.init(rawValue:)))
  }

  /// Streams one journal's records through `fold`; nil (reported on stderr) when it cannot be read.
  static func read<Fold>(
    _ path: String, options: ReadOptions, limit: DiagnosticLimit, _ context: inout Context,
    _ progress: inout FileProgress, fold: inout Fold, _ consume: (inout Fold, Record) -> Void
  ) -> (session: String, header: SessionHeader?, formatErrors: Int)? {
    guard let reader = JournalPass.open(path, options: options, progress: &progress, context: &context) else {
      return nil
    }
    let name = JournalInput.displayName(path)
    var shown = ShownFindings(name: name, limit: limit)
    defer { shown.end(&context.stderr) }
    var header: SessionHeader?
    var errors = 0
    while let batch = reader.next() {
      for item in batch.items.items {
        switch item {
        case .record(let record, _, _):
          if header == nil, case .session(let h) = record.event { header = h }
          consume(&fold, record)
        case .diagnostic(let diagnostic):
          if diagnostic.severity == .error || options.strict { errors += 1 }
          shown.write(diagnostic, &context.stderr)
        }
      }
      progress.update(reader.bytesRead, &context.stderr)
    }
    guard reader.readToTheEnd(progress: &progress, context: &context) else { return nil }
    return (header?.session ?? name, header, errors)
  }
}
