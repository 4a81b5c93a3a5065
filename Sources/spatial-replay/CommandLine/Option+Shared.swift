import Journal
import Projection

/// The options several commands share, declared once with their help.
extension Option {
  // MARK: Every command

  /// `--color auto|always|never`; the dispatcher reads it for every command.
  static let color = Option.value(
    "--color", "WHEN",
    "colour: auto (on a terminal, unless NO_COLOR is set and not empty, or\nTERM=dumb), always, never",
    values: .cases(ColorChoice.self))
  static let help = Option.flag("--help", short: "-h", "this help")
  static let version = Option.flag("--version", "the version")
  /// What every command accepts besides its own options.
  static let common = [color, help, version]

  // MARK: Reading journals

  static let strict = Option.flag(
    "--strict",
    "every format warning (bom, crlf, blank-line, torn-tail,\nunknown-type, format-version) counts as an error")
  static let maxLineBytes = Option.value(
    "--max-line-bytes", "N", "longest line accepted, in bytes (default \(DecodeLimits().maxLineLength))")
  static let maxDepth = Option.value(
    "--max-depth", "N", "deepest JSON nesting accepted (default \(DecodeLimits().maxDepth))")
  /// The reading options of every command that reads a journal.
  static let reading = [strict, maxLineBytes, maxDepth]
  /// `--max-errors N`, for the commands that print a journal's findings on stderr (``DiagnosticLimit``).
  static let maxErrors = Option.value(
    "--max-errors", "N",
    "errors about a journal shown per file (default \(DiagnosticLimit.defaultMaxErrors); 0: all);\nthe rest, and warnings repeated, are counted at its end"
  )
  /// `--raw-csv`, for the commands that write CSV.
  static let rawCSV = Option.flag(
    "--raw-csv",
    "write CSV text cells as they are: by default a cell that starts with\n= + - @ (or a tab or CR), which a spreadsheet would run as a formula,\nis written as text with ' before it"
  )
  /// `--jobs`, for the commands that read many journals (``FleetRunner``).
  static let jobs = Option.value(
    "--jobs", "N", short: "-j",
    "journals read at the same time (default: the number of cores;\n1: one after the other); the output is the same")

  // MARK: Selecting events

  static let from = Option.value("--from", "SEQ", "first seq (default: the first)")
  static let to = Option.value("--to", "SEQ", "last seq, inclusive (default: the last)")
  static let since = Option.value("--since", "TIME", "first time, RFC 3339 (e.g. 2026-01-01T10:00:00Z), inclusive")
  static let until = Option.value("--until", "TIME", "last time, RFC 3339, inclusive")
  static let type = Option.list(
    "--type", "TYPE", "only events of these types (comma-separated, repeatable)",
    values: .suggested(Event.knownTypeNames))
  static let controller = Option.list(
    "--controller", "ID", "only events that name one of these controllers (comma-\nseparated, repeatable)")
  /// The filters of the commands that list events.
  static let filters = [from, to, since, until, type, controller]

  // MARK: Output

  static let json = Option.flag("--json", "machine-readable JSON output")
  static let quiet = Option.flag("--quiet", short: "-q", "print nothing; only the exit status tells")
  static let output = Option.value(
    "--output", "PATH", short: "-o",
    "write to PATH instead of standard output (atomically: a temporary\nfile renamed into place when complete)",
    values: .file)
  static let ascii = Option.flag("--ascii", "plain ASCII instead of Unicode box drawing, arrows and marks")
  static let width = Option.value("--width", "N", "columns available (default: the terminal's, else 80)")
  /// `--model [PROFILE]` on check, step and report: compare the recording with the
  /// reference model of that profile (intended when none is given).
  static let model = Option.optionalValue(
    "--model", "PROFILE",
    "also compare the recording with the reference model of PROFILE\n(intended, the default, or legacy) and show where it differs\n(rule model-divergence)",
    words: Profile.allCases.map(\.rawValue))

  static let profile = Option.value(
    "--profile", "NAME", "the model's profile: intended (default) or legacy",
    values: .cases(Profile.self))

  // MARK: Comparing runs

  static let include = Option.list(
    "--include", "TYPE", "also compare these types: alloc, root, touches, pan, mark, or\nan unknown type's name",
    values: .suggested(Event.knownTypeNames))
  static let exclude = Option.list(
    "--exclude", "TYPE", "do not compare these types", values: .suggested(Event.knownTypeNames))
  static let match = Option.value(
    "--match", "HOW",
    "how the controllers of the two runs are matched: id, class (by\nclass and order of allocation), or auto (the default): by class\nwhen the ids of both runs are instance counters\n(CheckoutViewController#115) or addresses (0x600003a2c000), else\nby id",
    values: .oneOf([DiffOptions.Matching.auto, .id, .className].map(\.rawValue)))
}

/// `--color`: when output is coloured.
enum ColorChoice: String, CaseIterable, Sendable {
  case auto, always, never
}

extension ReadOptions {
  /// The reading options from `--strict`, `--max-line-bytes` and `--max-depth`.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    self.init(strict: arguments.flag(Option.strict))
    if let bytes = try arguments.int(Option.maxLineBytes, min: 1) { limits.maxLineLength = bytes }
    if let depth = try arguments.int(Option.maxDepth, min: 1) { limits.maxDepth = depth }
  }
}

extension DiagnosticLimit {
  /// The limit from `--max-errors`.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    self.init(maxErrors: try arguments.int(Option.maxErrors, min: 0) ?? DiagnosticLimit.defaultMaxErrors)
  }
}
