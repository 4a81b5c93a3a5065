import Journal
import Projection

/// The text report: findings in line order (a warning repeated on many lines
/// shown once, with a count), then a summary line per file and a total line.
public struct TextCheckOutput: CheckOutput {
  let color: Bool
  /// The arrows and marks of the messages (`--ascii`) and of the model diff under a finding.
  let glyphs: Glyphs
  /// Per warning rule of the current file, in the order first seen: the first line shown and how
  /// many more were not. A list, not a dictionary: a file has a few warning rules at most, and a
  /// storm of blank lines compared each one's rule with the last's rather than hashing it.
  private var repeated: [(rule: Rule, first: Int, more: Int)] = []

  public init(color: Bool, glyphs: Glyphs) {
    self.color = color
    self.glyphs = glyphs
  }

  public mutating func finding(_ finding: CheckFinding, file: String, into out: inout some TextOutputStream) {
    if finding.severity == .warning {
      let rule = finding.rule
      if let k = repeated.lastIndex(where: { $0.rule == rule }) {
        repeated[k].more += 1
        return
      }
      repeated.append((rule, finding.line, 0))
    }
    finding.write(file: file, glyphs: glyphs, escaped: true, color: color, to: &out)
    out.write("\n")
    if let divergence = finding.divergence {
      var diff = ""
      divergence.render(glyphs: glyphs, into: &diff)
      for line in diff.split(separator: "\n") { out.write(displayText(String(line), limit: .max) + "\n") }
    }
  }

  public mutating func endFile(_ file: CheckedFile, into out: inout some TextOutputStream) {
    let name = displayText(file.name, limit: .max)
    for seen in repeated where seen.more > 0 {
      out.write(
        "\(name): \(seen.more.counted("more \(seen.rule) warning")) like the one on line \(seen.first) not shown\n")
    }
    repeated = []
    guard let summary = file.summary else { return }
    out.write(name + ": " + Self.text(summary) + "\n")
  }

  public mutating func end(
    files: [CheckedFile], total: CheckSummary, omitted: Int, into out: inout some TextOutputStream
  ) {
    if omitted > 0 {
      out.write("\(omitted.counted("more finding")) not shown (--max-findings)\n")
    }
    guard files.count > 1 else { return }
    out.write(Self.totalLine(files: files, total: total) + "\n")
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
