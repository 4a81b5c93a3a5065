import Journal
import Projection
import Rendering

/// The formats `check --format` writes.
enum CheckFormat: String, CaseIterable, Sendable {
  /// `FILE:LINE[:COLUMN]: SEVERITY: MESSAGE [RULE]` lines and a summary per file.
  case text
  /// One JSON object per finding (NDJSON), then one summary object.
  case json
  /// SARIF 2.1.0: one run, every rule in `tool.driver.rules`, one result per finding.
  case sarif
  /// JUnit XML: a test suite per journal, a failing test case per error finding.
  case junit
  /// GitHub Actions workflow commands: `::error file=…,line=…,title=RULE::message`.
  case github
}

/// One journal as `check` saw it, for the outputs that write per file.
struct CheckedFile {
  /// The path as given (`<stdin>` for `-`).
  var name: String
  /// The summary, nil when the file could not be read.
  var summary: CheckSummary?
  /// Why the file could not be read.
  var failure: String?
}

/// Where `check` sends what it finds: each finding as it is final, each
/// file's end, and the end of the run. One type per ``CheckFormat``.
protocol CheckOutput: Sendable {
  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context)
  /// Findings left out by `--max-findings` in this file.
  mutating func endFile(_ file: CheckedFile, _ context: inout Context)
  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context)
}

extension CheckFormat {
  /// A fresh output of this format.
  func output(color: Bool, glyphs: Glyphs = .unicode, sourceRoot: String? = nil) -> any CheckOutput {
    switch self {
    case .text: TextCheckOutput(color: color, glyphs: glyphs)
    case .json: JSONCheckOutput()
    case .sarif: SARIFCheckOutput(sourceRoot: sourceRoot)
    case .junit: JUnitCheckOutput()
    case .github: GitHubCheckOutput(sourceRoot: sourceRoot)
    }
  }
}

extension CallSite {
  /// The location of a finding's `source` in the app's code, its file under `root` when given
  /// (`--source-root`); nil when the finding has none or it is not `FILE:LINE`.
  init?(of diagnostic: Diagnostic, root: String?) {
    guard let text = diagnostic.source, var location = CallSite(text) else { return nil }
    if let root, !root.isEmpty, !location.file.hasPrefix("/") {
      location.file = (root.hasSuffix("/") ? root : root + "/") + location.file
    }
    self = location
  }
}

/// The text report: findings in line order (a warning repeated on many lines
/// shown once, with a count), then a summary line per file and a total line.
struct TextCheckOutput: CheckOutput {
  let color: Bool
  /// The arrows and marks of the messages (`--ascii`) and of the model diff under a finding.
  let glyphs: Glyphs
  /// Per warning rule of the current file, in the order first seen: the first line shown and how
  /// many more were not. A list, not a dictionary: a file has a few warning rules at most, and a
  /// storm of blank lines compared each one's rule with the last's rather than hashing it.
  private var repeated: [(rule: String, first: Int, more: Int)] = []

  init(color: Bool, glyphs: Glyphs) {
    self.color = color
    self.glyphs = glyphs
  }

  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {
    let diagnostic = finding.diagnostic
    if diagnostic.severity == .warning {
      if let k = repeated.lastIndex(where: { $0.rule == diagnostic.rule }) {
        repeated[k].more += 1
        return
      }
      repeated.append((diagnostic.rule, diagnostic.line, 0))
    }
    context.stdout.write(diagnostic, file: file, color: color, glyphs: glyphs)
    if let divergence = finding.divergence {
      var diff = ""
      divergence.render(glyphs: glyphs, into: &diff)
      for line in diff.split(separator: "\n") { context.stdout.write(displayText(String(line), limit: .max) + "\n") }
    }
  }

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {
    let name = displayText(file.name, limit: .max)
    for seen in repeated where seen.more > 0 {
      context.stdout.write(
        "\(name): \(seen.more.counted("more \(seen.rule) warning")) like the one on line \(seen.first) not shown\n")
    }
    repeated = []
    guard let summary = file.summary else { return }
    context.stdout.write(name + ": " + Self.text(summary) + "\n")
  }

  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    if omitted > 0 {
      context.stdout.write("\(omitted.counted("more finding")) not shown (--max-findings)\n")
    }
    guard files.count > 1 else { return }
    context.stdout.write(Self.totalLine(files: files, total: total) + "\n")
  }

  /// `total: 3 files, 120 events, 5 errors, 0 warnings (…), 1 unreadable`.
  static func totalLine(files: [CheckedFile], total: CheckSummary) -> String {
    let unreadable = files.filter { $0.summary == nil }.count
    var line = "total: \(files.count.counted("file")), " + text(total)
    if unreadable > 0 { line += ", \(unreadable.grouped) unreadable" }
    return line
  }

  /// `40 events, 5 errors, 0 warnings (crlf 2, incomplete-transition 3)`, and the
  /// format errors a rule selection left out: `; not reported: malformed 3`.
  static func text(_ summary: CheckSummary) -> String {
    var text =
      "\(summary.events.counted("event")), \(summary.errors.counted("error")), "
      + summary.warnings.counted("warning")
    let byRule = summary.ruleCounts
    if !byRule.isEmpty { text += " (" + byRule.map { "\($0.rule) \($0.count.grouped)" }.joined(separator: ", ") + ")" }
    let unreported = summary.unreportedCounts
    if !unreported.isEmpty {
      let count = unreported.reduce(0) { $0 + $1.count }
      text +=
        "; \(count.counted("format error")) not reported by the rule selection ("
        + unreported.map { "\($0.rule) \($0.count.grouped)" }.joined(separator: ", ") + ")"
    }
    return text
  }
}

/// `check --format json`: each finding as one JSON object (NDJSON), then one
/// object with `"summary":true`, the files and the totals.
struct JSONCheckOutput: CheckOutput {
  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {
    context.stdout.write(finding.divergence?.json(file: file) ?? finding.diagnostic.json(file: file))
    context.stdout.write("\n")
  }

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {}

  /// `{"summary":true,"files":[{"file":…,"events":N,"errors":N,"warnings":N,"formatErrors":N,
  /// "rules":{…},"unreported":{…}}|{"file":…,"unreadable":"why"}],"events":N,…,"unreadable":N}`.
  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    var json = JSONBuffer()
    json.open("{")
    json.key("summary")
    json.bool(true)
    json.key("files")
    json.open("[")
    for file in files {
      json.element()
      Self.file(file, into: &json)
    }
    json.close("]")
    Self.counts(total, into: &json)
    json.key("unreadable")
    json.int(files.filter { $0.summary == nil }.count)
    json.key("omitted")
    json.int(omitted)
    json.close("}")
    context.stdout.write(json.text + "\n")
  }

  /// `{"file":…,"events":N,…}`, or `{"file":…,"unreadable":"why"}`: one journal's summary.
  static func file(_ file: CheckedFile, into json: inout JSONBuffer) {
    json.open("{")
    json.key("file")
    json.string(file.name)
    if let summary = file.summary { counts(summary, into: &json) }
    if let failure = file.failure {
      json.key("unreadable")
      json.string(failure)
    }
    json.close("}")
  }

  static func counts(_ summary: CheckSummary, into json: inout JSONBuffer) {
    json.counts([
      ("events", summary.events), ("errors", summary.errors), ("warnings", summary.warnings),
      ("formatErrors", summary.formatErrors),
    ])
    json.key("rules")
    json.open("{")
    json.counts(summary.ruleCounts.map { ($0.rule, $0.count) })
    json.close("}")
    json.key("unreported")
    json.open("{")
    json.counts(summary.unreportedCounts.map { ($0.rule, $0.count) })
    json.close("}")
  }
}

/// `check --summary`: no findings, one line per journal as it ends (its summary, or
/// why it could not be read), then the totals, even for one journal. As text, the
/// lines of the text report (`FILE: 40 events, 5 errors, 0 warnings (RULE N, ...)`,
/// `FILE: unreadable: WHY`, `total: N files, ...`); with `--json`, one JSON object per
/// line (`{"file":…,"events":N,…}`, `{"file":…,"unreadable":"why"}`, then
/// `{"total":true,"files":N,…,"unreadable":N}`). With `-q`, the totals only.
struct SummaryCheckOutput: CheckOutput {
  let json: Bool
  let quiet: Bool

  mutating func finding(_ finding: CheckFinding, file: String, _ context: inout Context) {}

  mutating func endFile(_ file: CheckedFile, _ context: inout Context) {
    guard !quiet else { return }
    if json {
      var json = JSONBuffer()
      JSONCheckOutput.file(file, into: &json)
      context.stdout.write(json.text + "\n")
    } else if let summary = file.summary {
      context.stdout.write(displayText(file.name, limit: .max) + ": " + TextCheckOutput.text(summary) + "\n")
    } else {
      context.stdout.write(
        displayText(file.name, limit: .max) + ": unreadable: " + displayText(file.failure ?? "", limit: .max) + "\n")
    }
  }

  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, _ context: inout Context) {
    guard json else { return context.stdout.write(TextCheckOutput.totalLine(files: files, total: total) + "\n") }
    var json = JSONBuffer()
    json.open("{")
    json.key("total")
    json.bool(true)
    json.counts([("files", files.count)])
    JSONCheckOutput.counts(total, into: &json)
    json.counts([("unreadable", files.filter { $0.summary == nil }.count)])
    json.close("}")
    context.stdout.write(json.text + "\n")
  }
}

extension FileOutput {
  /// Writes a finding as `file:line[:column]: severity: message [rule]`, the
  /// message rendered with `glyphs`, with any control or invisible characters
  /// (from the journal or its name) escaped, and the severity coloured when `color` is on.
  mutating func write(_ diagnostic: Diagnostic, file: String, color: Bool, glyphs: Glyphs) {
    guard color else { return write(diagnostic, file: file, glyphs: glyphs) }
    var location = "\(file):\(diagnostic.line)"
    if let column = diagnostic.column { location += ":\(column)" }
    let style: TerminalStyle = diagnostic.severity == .error ? .red : .yellow
    write(
      TerminalStyle.bold.apply(displayText(location, limit: .max), color: true) + ": "
        + style.apply(diagnostic.severity.rawValue, color: true) + ": "
        + displayText(diagnostic.message(glyphs), limit: .max) + " "
        + TerminalStyle.dim.apply("[\(diagnostic.rule)]", color: true)
        + (diagnostic.source.map {
          " " + TerminalStyle.dim.apply("(recorded at \(displayText($0, limit: .max)))", color: true)
        } ?? "")
        + "\n")
  }
}
