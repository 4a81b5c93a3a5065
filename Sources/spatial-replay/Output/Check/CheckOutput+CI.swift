import Journal
import Projection
import Rendering

/// `check --format sarif`: one SARIF 2.1.0 log with one run, written as the
/// findings arrive (the rules are known before the first result).
///
/// Every rule `check` knows is in `tool.driver.rules` with its short and full
/// description and a help text; each result names its rule by id and index,
/// its level, its message and the journal's path and line (and byte column)
/// as its physical location. Files that could not be read are tool execution
/// notifications of the invocation, which is then not successful.
struct SARIFCheckOutput: CheckOutput {
  /// `--source-root`.
  let sourceRoot: String?
  private var started = false

  init(sourceRoot: String? = nil) { self.sourceRoot = sourceRoot }

  private mutating func start(_ context: inout Context) {
    guard !started else { return }
    started = true
    var json = JSONBuffer()
    json.open("{")
    json.key("$schema")
    json.string("https://json.schemastore.org/sarif-2.1.0.json")
    json.key("version")
    json.string("2.1.0")
    json.key("runs")
    json.open("[")
    json.element()
    json.open("{")
    json.key("tool")
    json.open("{")
    json.key("driver")
    json.open("{")
    json.key("name")
    json.string("spatial-replay")
    json.key("version")
    json.string(SpatialReplay.version)
    json.key("rules")
    json.open("[")
    for rule in RuleInfo.all {
      json.element()
      json.open("{")
      json.key("id")
      json.string(rule.id)
      json.key("shortDescription")
      Self.text(rule.summary, into: &json)
      json.key("fullDescription")
      Self.text(Self.fullDescription(rule), into: &json)
      json.key("help")
      Self.text(Self.help(rule), into: &json)
      json.key("defaultConfiguration")
      json.open("{")
      json.key("level")
      json.string(rule.severity.rawValue)
      json.close("}")
      json.key("properties")
      json.open("{")
      json.key("tags")
      json.open("[")
      json.element()
      json.string(rule.kind.rawValue)
      json.close("]")
      json.close("}")
      json.close("}")
    }
    json.close("]")
    json.close("}")
    json.close("}")
    json.key("results")
    // The results array stays open: findings stream into it.
    context.stdout.write(json.text + "[")
  }

  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {
    let diagnostic = finding
    let first = !started
    start(&context)
    var json = JSONBuffer()
    json.open("{")
    json.key("ruleId")
    json.string(diagnostic.rule.id)
    json.key("ruleIndex")
    json.int(diagnostic.rule.index)
    json.key("level")
    json.string(diagnostic.severity.rawValue)
    json.key("message")
    var message = diagnostic.message
    if let divergence = finding.divergence {
      var diff = ""
      divergence.render(into: &diff)
      message += "\n" + diff
    }
    Self.text(message, into: &json)
    Self.locations(
      file, line: diagnostic.line, column: diagnostic.column,
      source: CallSite(of: diagnostic, root: sourceRoot), into: &json)
    if let seq = diagnostic.seq {
      json.key("properties")
      json.open("{")
      json.key("seq")
      json.int(seq)
      if let move = diagnostic.move {
        json.key("move")
        json.int(move)
      }
      if let source = diagnostic.source {
        json.key("source")
        json.string(source)
      }
      json.close("}")
    }
    json.close("}")
    context.stdout.write((first ? "" : ",") + json.text)
  }

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {}

  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    start(&context)
    var json = JSONBuffer()
    json.open("[")
    json.element()
    json.open("{")
    let unreadable = files.filter { $0.failure != nil }
    json.key("executionSuccessful")
    json.bool(unreadable.isEmpty)
    json.key("toolExecutionNotifications")
    json.open("[")
    for file in unreadable {
      json.element()
      json.open("{")
      json.key("level")
      json.string("error")
      json.key("message")
      Self.text(file.failure ?? "cannot be read", into: &json)
      Self.locations(file.name, into: &json)
      json.close("}")
    }
    json.close("]")
    json.close("}")
    json.close("]")
    context.stdout.write("],\"invocations\":" + json.text + "}]}\n")
  }

  /// `"locations":[{"physicalLocation":{"artifactLocation":{"uri":…},"region":{"startLine":…}}}]`,
  /// the region only with a line.
  private static func locations(
    _ file: String, line: Int? = nil, column: Int? = nil, source: CallSite? = nil, into json: inout JSONBuffer
  ) {
    json.key("locations")
    json.open("[")
    // The app's code first: viewers and code scanning show a result at its first location.
    if let source { location(source.file, line: source.line, column: nil, into: &json) }
    location(file, line: line, column: column, into: &json)
    json.close("]")
  }

  /// `{"physicalLocation":{"artifactLocation":{"uri":…},"region":{"startLine":…}}}`, the region only with a line.
  private static func location(_ file: String, line: Int?, column: Int?, into json: inout JSONBuffer) {
    json.element()
    json.open("{")
    json.key("physicalLocation")
    json.open("{")
    json.key("artifactLocation")
    json.open("{")
    json.key("uri")
    json.string(uri(file))
    json.close("}")
    if let line {
      json.key("region")
      json.open("{")
      json.key("startLine")
      json.int(line)
      if let column {
        json.key("startColumn")
        json.int(column)
      }
      json.close("}")
    }
    json.close("}")
    json.close("}")
  }

  /// `{"text":"…"}`.
  private static func text(_ text: String, into json: inout JSONBuffer) {
    json.open("{")
    json.key("text")
    json.string(text)
    json.close("}")
  }

  static func fullDescription(_ rule: RuleInfo) -> String {
    let kind: String
    switch rule.kind {
    case .format: kind = "A rule of the journal format, checked by the reader"
    case .graph: kind = "A rule of the map's graph (links, ids, the focus)"
    case .lifecycle: kind = "A lifecycle rule of the spatial map's appearance callbacks"
    case .model: kind = "Found by 'check --model', which replays the recorded inputs on the reference model"
    }
    return "\(kind): \(rule.summary). Reported as \(rule.severity == .error ? "an error" : "a warning")"
      + (rule.kind == .format && rule.severity == .warning ? " (an error with --strict)." : ".")
  }

  static func help(_ rule: RuleInfo) -> String {
    "Rule \(rule.id): \(rule.summary). Select it with 'spatial-replay check --rule \(rule.id)', leave it out "
      + "with '--no-rule \(rule.id)'; the project's docs/check.md explains every rule."
  }

  /// A relative URI reference for a path: unreserved characters and `/` as they are, the rest percent-encoded.
  static func uri(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out += "%"
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 0xF)])
      }
    }
    return out
  }
}

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
struct JUnitCheckOutput: CheckOutput {
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

  /// The name of the case that passes when the journal is read (an error when it cannot be).
  static let readCase = "journal reads"

  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {
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

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {
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

  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    context.stdout.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    context.stdout.write(
      "<testsuites name=\"spatial-replay check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n")
    for xml in suites { context.stdout.write(xml) }
    context.stdout.write("</testsuites>\n")
  }

  /// Text for XML content and attribute values (``MarkupText/escape(_:_:)``).
  static func escape(_ text: String, attribute: Bool = false) -> String {
    MarkupText.escape(text, attribute ? .xmlAttribute : .xml)
  }
}

/// `check --format github`: one GitHub Actions workflow command per finding,
/// `::error file=PATH,line=N[,col=N],title=RULE::MESSAGE` (`::warning` for
/// warnings), escaped as the runner expects, then the summary lines as plain text.
struct GitHubCheckOutput: CheckOutput {
  /// `--source-root`.
  var sourceRoot: String?

  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {
    let diagnostic = finding
    var properties: String
    var message = diagnostic.message + " [\(diagnostic.rule)]"
    if let source = CallSite(of: diagnostic, root: sourceRoot) {
      // At the app's line that recorded the event; the journal's line goes into the message.
      properties = "file=\(Self.property(source.file)),line=\(source.line)"
      message += " (\(file):\(diagnostic.line))"
    } else {
      properties = "file=\(Self.property(file)),line=\(diagnostic.line)"
      if let column = diagnostic.column { properties += ",col=\(column)" }
      if let source = diagnostic.source { message += " (recorded at \(source))" }
    }
    properties += ",title=\(Self.property(diagnostic.rule.id))"
    context.stdout.write("::\(diagnostic.severity.rawValue) \(properties)::\(Self.data(message))\n")
  }

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {
    if let failure = file.failure {
      context.stdout.write("::error file=\(Self.property(file.name)),title=unreadable::\(Self.data(failure))\n")
    }
    guard let summary = file.summary else { return }
    context.stdout.write(Self.data(file.name) + ": " + TextCheckOutput.text(summary) + "\n")
  }

  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    if omitted > 0 { context.stdout.write("\(omitted.counted("more finding")) not shown (--max-findings)\n") }
  }

  /// A workflow command's message: `%`, CR and LF escaped (and every other control character, so
  /// nothing from a journal reaches the log raw).
  static func data(_ text: String) -> String {
    var out = ""
    for scalar in displayText(text, limit: .max).unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A workflow command's property value: as ``data(_:)``, and `:` and `,` escaped too.
  static func property(_ text: String) -> String {
    var out = ""
    for character in data(text) {
      switch character {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.append(character)
      }
    }
    return out
  }
}
