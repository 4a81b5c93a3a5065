import Journal
import Testing

/// What a command shows of a journal's findings: each warning rule once, the
/// first errors, and the counts of the rest, in memory per rule only.
@Suite struct DiagnosticLimitTests {
  static func finding(_ rule: FormatRule, _ severity: Diagnostic.Severity, line: Int) -> Diagnostic {
    Diagnostic(rule: rule, severity: severity, line: line, message: rule.rawValue)
  }

  @Test func warningsShowOncePerRuleAndErrorsUpToTheLimit() {
    var limit = DiagnosticLimit(maxErrors: 2)
    var shown: [Int] = []
    let findings = [
      Self.finding(.blankLine, .warning, line: 2), Self.finding(.blankLine, .warning, line: 3),
      Self.finding(.crlf, .warning, line: 4), Self.finding(.malformed, .error, line: 5),
      Self.finding(.blankLine, .warning, line: 6), Self.finding(.malformed, .error, line: 7),
      Self.finding(.malformed, .error, line: 8), Self.finding(.seqGap, .error, line: 9),
      Self.finding(.malformed, .error, line: 10),
    ]
    for finding in findings where limit.admit(finding) { shown.append(finding.line) }
    #expect(shown == [2, 4, 5, 7])
    #expect(limit.omitted == 5)
    #expect(
      limit.omissions(file: "j.ndjson") == [
        "j.ndjson: 2 more blank-line warnings like the one on line 2 not shown",
        "j.ndjson: 3 more errors not shown (malformed 2, seq-gap 1; --max-errors 0 shows them all)",
      ])
  }

  @Test func zeroShowsEveryError() {
    var limit = DiagnosticLimit(maxErrors: 0)
    var shown = 0
    for line in 1...10_000 where limit.admit(Self.finding(.malformed, .error, line: line)) { shown += 1 }
    #expect(shown == 10_000)
    #expect(limit.omissions(file: "j") == [])
  }

  @Test func oneMoreIsSingular() {
    var limit = DiagnosticLimit()
    for line in 1...(DiagnosticLimit.defaultMaxErrors + 1) {
      _ = limit.admit(Self.finding(.malformed, .error, line: line))
    }
    _ = limit.admit(Self.finding(.crlf, .warning, line: 1))
    _ = limit.admit(Self.finding(.crlf, .warning, line: 2))
    #expect(
      limit.omissions(file: "j") == [
        "j: 1 more crlf warning like the one on line 1 not shown",
        "j: 1 more error not shown (malformed 1; --max-errors 0 shows them all)",
      ])
  }
}
