import Journal

/// Exit statuses, the same for every command (README "Exit status", `docs/cli.md`).
enum ExitCode {
  static let ok: Int32 = 0
  /// Findings or differences, in input that was read correctly.
  static let findings: Int32 = 1
  /// Input that could not be read correctly: a file that cannot be opened or
  /// read, or a journal with a format error (a line that does not decode, a
  /// seq gap or repeat, time going backwards, no header, or, with --strict,
  /// any format warning).
  static let badInput: Int32 = 2
  /// Usage error (bad arguments).
  static let usage: Int32 = 64
}

/// The one rule that turns what a command met into its exit status.
///
/// Every command that reads journals notes each file it could not read and
/// each format finding the reader reported; whatever else it found (check's
/// findings, diff's differences) only counts when the input was read
/// correctly. So a corrupt, empty or headerless journal never gets a clean
/// verdict, whatever rules or filters were selected:
///
/// | what was met | status |
/// |---|---|
/// | a file that cannot be read, or any format error | 2 |
/// | else findings or differences | 1 |
/// | else (format warnings alone are fine) | 0 |
struct Verdict {
  /// Files that could not be opened or read to their end.
  private(set) var unreadable = 0
  /// Format findings of error severity (warnings too, in strict mode).
  private(set) var formatErrors = 0
  /// Findings or differences (what status 1 reports).
  var findings = false

  /// Notes a file that could not be opened or read.
  mutating func noteUnreadable() { unreadable += 1 }

  /// Notes a finding of the reader (a ``FormatRule``).
  @inline(__always)
  mutating func note(_ diagnostic: Diagnostic) {
    if diagnostic.severity == .error { formatErrors += 1 }
  }

  /// Notes `count` format errors counted elsewhere (a ``CheckSummary``).
  mutating func noteFormatErrors(_ count: Int) { formatErrors += count }

  /// Whether every input was read correctly.
  var inputIsSound: Bool { unreadable == 0 && formatErrors == 0 }

  var status: Int32 {
    if !inputIsSound { return ExitCode.badInput }
    return findings ? ExitCode.findings : ExitCode.ok
  }
}
