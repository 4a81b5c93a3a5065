import Journal
import Projection

/// The formats `check --format` writes.
public enum CheckFormat: String, CaseIterable, Sendable {
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
public struct CheckedFile: Sendable {
  /// The path as given (`<stdin>` for `-`).
  public var name: String
  /// The summary, nil when the file could not be read.
  public var summary: CheckSummary?
  /// Why the file could not be read.
  public var failure: String?

  public init(name: String, summary: CheckSummary? = nil, failure: String? = nil) {
    self.name = name
    self.summary = summary
    self.failure = failure
  }
}

/// Where `check` sends what it finds: each finding as it is final, each
/// file's end, and the end of the run, each written into `out`. One type per ``CheckFormat``.
public protocol CheckOutput: Sendable {
  mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream)
  mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream)
  /// `omitted`: findings left out by `--max-findings`.
  mutating func end(files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream)
}

extension CheckFormat {
  /// A fresh output of this format.
  ///
  /// - Parameters:
  ///   - color: whether the text colours the severity.
  ///   - glyphs: the arrows and marks of the text.
  ///   - sourceRoot: where the app's files are (`--source-root`), for SARIF and GitHub.
  ///   - version: the tool's version, as SARIF names its driver.
  public func output(color: Bool, glyphs: Glyphs = .unicode, sourceRoot: String? = nil, version: String)
    -> any CheckOutput
  {
    switch self {
    case .text: TextCheckOutput(color: color, glyphs: glyphs)
    case .json: JSONCheckOutput()
    case .sarif: SARIFCheckOutput(sourceRoot: sourceRoot, version: version)
    case .junit: JUnitCheckOutput()
    case .github: GitHubCheckOutput(sourceRoot: sourceRoot)
    }
  }
}

extension CallSite {
  /// The location of a finding's `source` in the app's code, its file under `root` when given
  /// (`--source-root`); nil when the finding has none or it is not `FILE:LINE`.
  init?(of diagnostic: CheckFinding, root: String?) {
    guard let text = diagnostic.source, var location = CallSite(text) else { return nil }
    if let root, !root.isEmpty, !location.file.hasPrefix("/") {
      location.file = (root.hasSuffix("/") ? root : root + "/") + location.file
    }
    self = location
  }
}
