import Journal
import Projection

/// `check --format sarif`: one SARIF 2.1.0 log with one run, written as the
/// findings arrive (the rules are known before the first result).
///
/// Every rule `check` knows is in `tool.driver.rules` with its short and full
/// description and a help text; each result names its rule by id and index,
/// its level, its message and the journal's path and line (and byte column)
/// as its physical location. Files that could not be read are tool execution
/// notifications of the invocation, which is then not successful.
public struct SARIFCheckOutput: CheckOutput {
  /// `--source-root`.
  let sourceRoot: String?

  /// The tool's version, in `tool.driver`.
  let version: String
  private var started = false

  public init(sourceRoot: String? = nil, version: String) {
    self.sourceRoot = sourceRoot
    self.version = version
  }

  private mutating func start(into out: inout some TextOutputStream) {
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
    json.string(version)
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
    out.write(json.text + "[")
  }

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {
    let diagnostic = finding
    let first = !started
    start(into: &out)
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
    out.write((first ? "" : ",") + json.text)
  }

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {}

  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
    start(into: &out)
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
    out.write("],\"invocations\":" + json.text + "}]}\n")
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
