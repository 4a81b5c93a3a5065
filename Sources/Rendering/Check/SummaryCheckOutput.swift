import Journal
import Projection

/// `check --summary`: no findings, one line per journal as it ends (its summary, or
/// why it could not be read), then the totals, even for one journal. As text, the
/// lines of the text report (`FILE: 40 events, 5 errors, 0 warnings (RULE N, ...)`,
/// `FILE: unreadable: WHY`, `total: N files, ...`); with `--json`, one JSON object per
/// line (`{"file":…,"events":N,…}`, `{"file":…,"unreadable":"why"}`, then
/// `{"total":true,"files":N,…,"unreadable":N}`). With `-q`, the totals only.
public struct SummaryCheckOutput: CheckOutput {
  let json: Bool
  let quiet: Bool

  public init(json: Bool, quiet: Bool) {
    self.json = json
    self.quiet = quiet
  }

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {}

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {
    guard !quiet else { return }
    if json {
      var json = JSONBuffer()
      JSONCheckOutput.file(file, into: &json)
      out.write(json.text + "\n")
    } else if let summary = file.summary {
      out.write(displayText(file.name, limit: .max) + ": " + TextCheckOutput.text(summary) + "\n")
    } else {
      out.write(
        displayText(file.name, limit: .max) + ": unreadable: " + displayText(file.failure ?? "", limit: .max) + "\n")
    }
  }

  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
    guard json else { return out.write(TextCheckOutput.totalLine(files: files, total: total) + "\n") }
    var json = JSONBuffer()
    json.open("{")
    json.key("total")
    json.bool(true)
    json.counts([("files", files.count)])
    JSONCheckOutput.counts(total, into: &json)
    json.counts([("unreadable", files.filter { $0.summary == nil }.count)])
    json.close("}")
    out.write(json.text + "\n")
  }
}
