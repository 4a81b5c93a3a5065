import Journal
import Projection

/// `check --format json`: each finding as one JSON object (NDJSON), then one
/// object with `"summary":true`, the files and the totals.
public struct JSONCheckOutput: CheckOutput {
  public init() {}

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {
    out.write(finding.json(file: file))
    out.write("\n")
  }

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {}

  /// `{"summary":true,"files":[{"file":…,"events":N,"errors":N,"warnings":N,"formatErrors":N,
  /// "rules":{…},"unreported":{…}}|{"file":…,"unreadable":"why"}],"events":N,…,"unreadable":N}`.
  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
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
    out.write(json.text + "\n")
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
    json.counts(summary.ruleCounts.map { ($0.rule.id, $0.count) })
    json.close("}")
    json.key("unreported")
    json.open("{")
    json.counts(summary.unreportedCounts.map { ($0.rule.id, $0.count) })
    json.close("}")
  }
}
