/// Decides which of a journal's findings are shown and counts the rest, in
/// memory that does not grow with their number: a warning repeated on many
/// lines is shown once per rule (as `check` shows it), and past a cap of
/// errors per journal the others are only counted, by rule.
///
/// A hostile or mistaken input (a header and fifty million blank lines, a
/// web page given as a journal) then prints a few lines and their counts
/// instead of one line per line of input.
///
/// ```swift
/// var limit = DiagnosticLimit(maxErrors: 20)
/// while let item = reader.next() {
///   if case .diagnostic(let d) = item, limit.admit(d) { print(d.message) }
/// }
/// for line in limit.omissions(file: name) { print(line) }
/// // name: 9,999,999 more blank-line warnings like the one on line 2 not shown
/// ```
///
/// - Complexity: O(1) per finding; memory is one entry per rule met.
public struct DiagnosticLimit: Sendable {
  /// The errors shown per journal by default (`--max-errors`).
  public static let defaultMaxErrors = 20

  /// Errors shown before the others are only counted; `Int.max` for all.
  public let maxErrors: Int
  /// Per warning rule, in the order met: the line of the one shown and how many more were not.
  private var warnings: [(rule: FormatRule, first: Int, more: Int)] = []
  /// Errors shown so far.
  private var shownErrors = 0
  /// Errors not shown, per rule, in the order met.
  private var hiddenErrors: [(rule: FormatRule, count: Int)] = []

  /// - Parameter maxErrors: errors shown per journal; 0 shows every one.
  public init(maxErrors: Int = DiagnosticLimit.defaultMaxErrors) {
    self.maxErrors = maxErrors == 0 ? .max : maxErrors
  }

  /// Whether to show `diagnostic`; if not, it is counted for ``omissions(file:)``.
  public mutating func admit(_ diagnostic: Diagnostic) -> Bool {
    if diagnostic.severity == .warning {
      if let i = warnings.firstIndex(where: { $0.rule == diagnostic.rule }) {
        warnings[i].more += 1
        return false
      }
      warnings.append((diagnostic.rule, diagnostic.line, 0))
      return true
    }
    if shownErrors < maxErrors {
      shownErrors += 1
      return true
    }
    if let i = hiddenErrors.firstIndex(where: { $0.rule == diagnostic.rule }) {
      hiddenErrors[i].count += 1
    } else {
      hiddenErrors.append((diagnostic.rule, 1))
    }
    return false
  }

  /// Findings not shown.
  public var omitted: Int {
    warnings.reduce(0) { $0 + $1.more } + hiddenErrors.reduce(0) { $0 + $1.count }
  }

  /// What was not shown, one line each (without a line end), for the end of the
  /// journal: `FILE: 9,999 more blank-line warnings like the one on line 2 not
  /// shown` per repeated warning, then `FILE: 19,981 more errors not shown
  /// (malformed 19,980, no-header 1; --max-errors 0 shows them all)`.
  ///
  /// - Parameter file: the journal's name as shown (escaped by the caller's output as the findings are).
  public func omissions(file: String) -> [String] {
    var lines: [String] = []
    for warning in warnings where warning.more > 0 {
      lines.append(
        "\(file): \(warning.more.counted("more \(warning.rule) warning")) like the one on line \(warning.first) not shown"
      )
    }
    let hidden = hiddenErrors.reduce(0) { $0 + $1.count }
    if hidden > 0 {
      let byRule = hiddenErrors.map { "\($0.rule) \($0.count.grouped)" }.joined(separator: ", ")
      lines.append(
        "\(file): \(hidden.counted("more error")) not shown (\(byRule); --max-errors 0 shows them all)")
    }
    return lines
  }
}
