import Journal
import Projection
import Rendering

/// `check FILE...`: reads journals and reports what is wrong with them.
///
/// Format level (framing, JSON, the envelope, every event's keys and their
/// types, `seq`, `time`, the header), every lifecycle rule of the model
/// (``Checker``) and, with `--model`, where the recording departs from the
/// reference model (``Conformance``). Each file is read once, streaming, through
/// a ``JournalCheck`` that merges the findings in line order.
struct CheckCommand: Command {
  static let name = "check"
  static let abstract = "Check journals: format, lifecycle rules, conformance to the model (--model)"
  static let usage = ["spatial-replay check [options] FILE..."]
  static let discussion = """
    Reads each journal ('-' for standard input) and prints every finding as
    FILE:LINE[:COLUMN]: SEVERITY: MESSAGE [RULE], sorted by line, then one summary
    line per file (and a total line for several files). Columns count bytes from 1.
    A lifecycle finding names the move it happened in by the move's seq:
    (in move at seq 41: home → notes). The summary counts the findings of every
    rule. A warning repeated on many lines is shown once, with a count.

    Format errors decide the exit status whatever rules are selected: a journal
    that cannot be read correctly never gets a clean verdict. With --rule or
    --no-rule, format errors left out of the report are still counted in the
    summary ('3 format errors not reported by the rule selection').
    """
  static let format = Option.value(
    "--format", "FORMAT",
    "text (default); json: one JSON object per finding, then a summary\nobject; sarif: SARIF 2.1.0; junit: JUnit XML, a suite per journal\nand a failing test per error finding; github: GitHub Actions\nworkflow commands (::error file=…,line=…,title=RULE::…)",
    values: .cases(CheckFormat.self))
  /// `--json`, or a `--format` other than text.
  static func writesJSON(_ arguments: ParsedArguments) -> Bool {
    arguments.flag(Option.json) || arguments.choice(format, as: CheckFormat.self).map { $0 != .text } ?? false
  }
  static let rule = Option.list(
    "--rule", "ID", "report only these rules (comma-separated, repeatable)", values: .suggested(Rule.ids))
  static let noRule = Option.list(
    "--no-rule", "ID", "do not report these rules", values: .suggested(Rule.ids))
  static let model = Option.model.help(
    "also re-run the recorded inputs through the reference model of\nPROFILE (intended, the default, or legacy) and report where the\nrecording differs from it (rule model-divergence), each with a diff:\n= matching events, - expected by the model, + recorded instead"
  )
  static let summary = Option.flag(
    "--summary",
    "one line per journal (path, events, errors, warnings, findings by\nrule, or why it could not be read) and the totals, no findings;\nwith --json one JSON object per line for each, with -q the totals\nonly"
  )
  static let maxFindings = Option.value(
    "--max-findings", "N", "print at most N findings (the summary still counts them all)")
  static let sourceRoot = Option.value(
    "--source-root", "DIR",
    "in SARIF and GitHub locations, the folder that an event's\nsource file (FILE of FILE:LINE, as #fileID names it) is in,\nrelative to the repository: --source-root Sources puts\nNotesApp/List.swift:42 at Sources/NotesApp/List.swift"
  )
  static let options: [Option] =
    [
      format, sourceRoot, Option.json.help("the same as --format json"), Option.quiet.help("print the summary only"),
      summary, maxFindings, rule, noRule, model,
      Option.profile.help(
        "the old spelling of --model PROFILE: --model --profile legacy\nis --model legacy (still accepted)"),
      Option.ascii.help("plain ASCII arrows and marks in the text format's messages"),
    ] + Option.reading + [Option.jobs]
  static var details: String {
    var s = "rules:\n"
    for kind in RuleInfo.Kind.allCases {
      for severity in [Diagnostic.Severity.error, .warning] {
        let ids = RuleInfo.all.filter { $0.kind == kind && $0.severity == severity }.map(\.id)
        guard !ids.isEmpty else { continue }
        let heading = kind == .format ? "format \(severity.rawValue)s" : kind == .model ? "--model" : kind.rawValue
        var lines = [""]
        for id in ids {
          let piece = (lines[lines.count - 1].isEmpty ? "" : " ") + id + (id == ids.last ? "" : ",")
          if lines[lines.count - 1].count + piece.count > 54 {
            lines.append(id + (id == ids.last ? "" : ","))
          } else {
            lines[lines.count - 1] += piece
          }
        }
        s += Option.helpTable([Option.flag(heading, lines.joined(separator: "\n"))])
      }
    }
    s += """
      Graph, lifecycle and model findings are errors. 'spatial-replay check
      --format sarif' lists every rule with its description.

      A progress bar shows on stderr when it is a terminal and the work takes
      more than a second (erased while findings are printed).
      """
    return s
  }
  static let exitStatus = """
    0 no errors (warnings alone are fine unless --strict), 1 errors found
    (lifecycle, graph or model findings), 2 a file could not be read or has
    format errors (malformed lines, seq gaps, no header, an empty file...),
    64 usage error.
    """
  static let examples = [
    "spatial-replay check Journals/demo.intended.ndjson",
    "spatial-replay check --rule modal-leak,will-repeated Journals/demo.legacy.ndjson",
    "spatial-replay check --model Journals/demo.legacy.ndjson",
    "spatial-replay check --model legacy --no-rule unknown-type Journals/*.legacy.ndjson",
    "spatial-replay check --format sarif Journals/*.ndjson > check.sarif",
    "spatial-replay check --format junit Journals/ > check.xml",
    "spatial-replay check --strict --json a.ndjson b.ndjson > findings.ndjson",
    "spatial-replay check -q --max-line-bytes 65536 - < big.ndjson",
    "spatial-replay check --summary --jobs 4 fleet/",
  ]

  var paths: [String]
  var options: ReadOptions
  var format: CheckFormat
  var quiet: Bool
  /// `--summary`: the journals' summaries without their findings.
  var summary: Bool
  var maxFindings: Int
  var rules: RuleSelection
  var model: Profile?
  /// The arrows and marks of the text output's messages.
  var glyphs: Glyphs
  var runner: FleetRunner
  /// `--source-root`: prefixed to a `source` file in SARIF and GitHub locations.
  var sourceRoot: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    paths = try JournalInput.paths(arguments, command: Self.name)
    options = try ReadOptions(arguments)
    runner = try FleetRunner(arguments)
    let named = arguments.choice(Self.format, as: CheckFormat.self)
    if arguments.flag(Option.json) {
      guard named == nil || named == .json else { throw UsageError("--json contradicts --format \(named!.rawValue)") }
      format = .json
    } else {
      format = named ?? .text
    }
    glyphs = Glyphs(ascii: arguments.flag(Option.ascii))
    guard !glyphs.isASCII || format == .text else {
      throw UsageError("--ascii is for the text format; --format \(format.rawValue) keeps messages as they are")
    }
    sourceRoot = arguments.value(Self.sourceRoot)
    if let sourceRoot, format != .sarif && format != .github {
      throw UsageError(
        "--source-root \(sourceRoot) is for --format sarif or github, which locate findings in the app's code")
    }
    quiet = arguments.flag(Option.quiet)
    summary = arguments.flag(Self.summary)
    guard !summary || format == .text || format == .json else {
      throw UsageError("--summary is a text or JSON report; --format \(format.rawValue) has its own")
    }
    maxFindings = try arguments.int(Self.maxFindings, min: 0) ?? .max
    let only = arguments.values(Self.rule)
    let excluded = arguments.values(Self.noRule)
    if let both = only.first(where: excluded.contains) {
      throw UsageError("--rule \(both) contradicts --no-rule \(both)")
    }
    do throws(UnknownRuleError) {
      rules = try RuleSelection(only: only, excluding: excluded)
    } catch {
      throw UsageError(error.description)
    }
    let profile = arguments.choice(Option.profile)
    if arguments.flag(Self.model) {
      let given = arguments.value(Self.model)
      if let given, let profile, given != profile {
        throw UsageError("--model \(given) contradicts --profile \(profile)")
      }
      model = (given ?? profile).flatMap(Profile.init(rawValue:)) ?? .intended
    } else {
      guard profile == nil else { throw UsageError("--profile needs --model") }
      guard !only.contains(CheckRule.modelDivergence.id) else {
        throw UsageError("rule \(CheckRule.modelDivergence.id) needs --model")
      }
    }
  }

  func run(_ context: inout Context) throws -> Int32 {
    let (format, glyphs, color, summary, quiet) = (format, glyphs, context.useColor, summary, quiet)
    let sourceRoot = sourceRoot
    let output: @Sendable () -> any CheckOutput = {
      summary
        ? SummaryCheckOutput(json: format == .json, quiet: quiet)
        : format.output(color: color, glyphs: glyphs, sourceRoot: sourceRoot, version: SpatialReplay.version)
    }
    var writer = FindingWriter(output: output(), quiet: quiet || summary, maxFindings: maxFindings)
    var verdict = Verdict()
    var files: [CheckedFile] = []
    var total = CheckSummary()
    // Formats that write across journals (one SARIF log, one JUnit suite) and --max-findings
    // (a count over every journal) need the journals one after the other.
    let acrossFiles = !summary && (format == .sarif || format == .junit || maxFindings < .max)
    let runner = acrossFiles ? FleetRunner(jobs: 1) : self.runner
    try runner.run(
      paths, context: &context, state: &writer,
      fresh: { FindingWriter(output: output(), quiet: quiet || summary, maxFindings: .max) },
      work: { path, context, writer, progress in check(path, &writer, &context, &progress) },
      deliver: { _, file, _ in
        if let summary = file.summary {
          verdict.noteFormatErrors(summary.formatErrors)
          if summary.errors > 0 { verdict.findings = true }
          total.add(summary)
        } else {
          verdict.noteUnreadable()
        }
        files.append(file)
      })
    writer.output.end(files: files, total: total, omitted: writer.omitted, into: &context.stdout)
    return verdict.status
  }

  /// Checks one journal, writes its findings and its end, and returns what was found.
  private func check(
    _ path: String, _ writer: inout FindingWriter, _ context: inout Context, _ progress: inout FileProgress
  ) -> CheckedFile {
    let name = JournalInput.displayName(path)
    var findings: [CheckFinding] = []
    func failed(_ error: JournalFileError) -> CheckedFile {
      progress.finish(&context.stderr)
      context.error(displayText(error.description, limit: .max))
      let file = CheckedFile(name: name, failure: error.message)
      writer.output.endFile(file, into: &context.stdout)
      return file
    }
    // Decoding runs on every core and the checker on a thread of its own, while
    // this one merges, compares with the model and writes the findings: no one
    // thread does all of the work, so the busiest one finishes sooner.
    let reader: JournalPass
    do {
      reader = try JournalPass(path: path, options: options, checking: CheckerPass(rules: rules, model: model))
    } catch {
      return failed(error)
    }
    var check = JournalCheck(rules: rules, model: model)
    while var batch = reader.next() {
      check.consume(&batch.items, checked: batch.checked, into: &findings)
      if !findings.isEmpty { writer.write(&findings, file: name, &context, &progress) }
      progress.update(reader.bytesRead, &context.stderr)
    }
    progress.finish(&context.stderr)
    if let error = reader.readError { return failed(error) }
    check.finish(checked: reader.finalFindings, into: &findings)
    writer.write(&findings, file: name, &context, &progress)
    let file = CheckedFile(name: name, summary: check.summary)
    writer.output.endFile(file, into: &context.stdout)
    return file
  }
}

/// Writes findings to a check output, up to `--max-findings` over every journal, none with `-q`.
struct FindingWriter: Sendable {
  var output: any CheckOutput
  let quiet: Bool
  let maxFindings: Int
  private var shown = 0
  /// Findings left out by `--max-findings`.
  private(set) var omitted = 0

  init(output: any CheckOutput, quiet: Bool, maxFindings: Int) {
    self.output = output
    self.quiet = quiet
    self.maxFindings = maxFindings
  }

  /// Writes `findings` (erasing the progress bar first) and empties the array.
  mutating func write(
    _ findings: inout [CheckFinding], file: String, _ context: inout Context, _ progress: inout FileProgress
  ) {
    defer { findings.removeAll(keepingCapacity: true) }
    guard !quiet else { return }
    for finding in findings {
      guard shown < maxFindings else {
        omitted += 1
        continue
      }
      shown += 1
      progress.finish(&context.stderr)
      output.finding(finding, file: file, into: &context.stdout)
    }
  }
}
