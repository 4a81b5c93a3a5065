import Journal
import Projection

/// `check --format junit`: JUnit XML that CI dashboards count as tests, one
/// finding one test. Each journal is a test suite named by its path, holding
/// a test case `journal reads` (passing; an `<error type="unreadable">` when
/// the file cannot be read; the journal's warnings in its `system-out`), then
/// one failing test case per error finding, `RULE at line N` (`(2)`, `(3)`, …
/// after a name already used in the journal), its `<failure type="RULE">`
/// with the message and, as its text, the finding as `check` prints it (and
/// the model's diff under a `model-divergence`). Every case's classname is
/// the journal's path. A clean journal is a suite of one passing test, never an
/// empty one. Kept in memory until the end (the counts come first in the XML).
public struct JUnitCheckOutput: CheckOutput {
  /// The suites written so far, one per journal.
  private var suites: [String] = []
  /// The current journal's failing cases and warnings.
  private var cases: [String] = []
  private var warnings: [String] = []
  /// How many times each case name was used in the current journal.
  private var names: [String: Int] = [:]
  private var tests = 0
  private var failures = 0
  private var errors = 0

  public init() {}

  /// The name of the case that passes when the journal is read (an error when it cannot be).
  static let readCase = "journal reads"

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {
    let diagnostic = finding
    let line = diagnostic.formatted(file: file)
    guard diagnostic.severity == .error else { return warnings.append(line) }
    var name = "\(diagnostic.rule) at line \(diagnostic.line)"
    let uses = names[name, default: 0] + 1
    names[name] = uses
    if uses > 1 { name += " (\(uses))" }
    var text = line
    if let divergence = finding.divergence {
      var diff = ""
      divergence.render(into: &diff)
      text += "\n" + diff
    }
    cases.append(
      "    <testcase classname=\"\(Self.escape(file, attribute: true))\" name=\"\(Self.escape(name, attribute: true))\">\n"
        + "      <failure type=\"\(Self.escape(diagnostic.rule.id, attribute: true))\" "
        + "message=\"\(Self.escape(diagnostic.message, attribute: true))\">"
        + Self.escape(text) + "</failure>\n    </testcase>\n")
  }

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {
    let name = Self.escape(file.name, attribute: true)
    let unreadable = file.failure != nil
    var xml =
      "  <testsuite name=\"\(name)\" tests=\"\(cases.count + 1)\" failures=\"\(cases.count)\" "
      + "errors=\"\(unreadable ? 1 : 0)\" skipped=\"0\">\n"
    xml += "    <testcase classname=\"\(name)\" name=\"\(Self.readCase)\""
    if file.failure == nil && warnings.isEmpty {
      xml += "/>\n"
    } else {
      xml += ">\n"
      if let failure = file.failure {
        xml += "      <error type=\"unreadable\" message=\"\(Self.escape(failure, attribute: true))\"/>\n"
      }
      if !warnings.isEmpty {
        xml += "      <system-out>" + Self.escape(warnings.joined(separator: "\n")) + "</system-out>\n"
      }
      xml += "    </testcase>\n"
    }
    xml += cases.joined()
    xml += "  </testsuite>\n"
    suites.append(xml)
    tests += cases.count + 1
    failures += cases.count
    if unreadable { errors += 1 }
    cases = []
    warnings = []
    names = [:]
  }

  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
    out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.write(
      "<testsuites name=\"spatial-replay check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n")
    for xml in suites { out.write(xml) }
    out.write("</testsuites>\n")
  }

  /// Text for XML content and attribute values (``MarkupText/escape(_:_:)``).
  static func escape(_ text: String, attribute: Bool = false) -> String {
    MarkupText.escape(text, attribute ? .xmlAttribute : .xml)
  }
}
