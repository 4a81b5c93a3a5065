/// The journal-level rules a reader checks across lines: the header, `seq`
/// contiguity, `time` order and unknown types (reported once per type).
///
/// Implementation note: ``check(_:line:offset:report:)`` runs once per record
/// of journals with millions of lines; it compares a few integers and only
/// builds messages (in `@inline(never)` functions) when something is wrong.
struct IntegrityTracker {
  /// Warnings become errors.
  let strict: Bool
  /// Highest `seq` seen; counting resumes from it after a gap or a repeat.
  private var highestSeq: Int?
  /// The time of the previous record.
  private var lastTime: Timestamp?
  /// The line of the first record (`nil` before any record).
  private var firstRecordLine: Int?
  /// The line of the session header, if one was seen.
  private var headerLine: Int?
  private var unknownTypes: Set<String> = []
  /// Lines since the last record that were not decoded (malformed, framing):
  /// each may have been an event, so a gap that size is not reported again.
  private var undecodedLines = 0

  init(strict: Bool) { self.strict = strict }

  /// The severity of a finding the format calls a warning.
  func warningSeverity() -> Diagnostic.Severity { strict ? .error : .warning }

  /// Notes a line that should have been a record but could not be decoded.
  mutating func noteUndecodedLine() { undecodedLines += 1 }

  /// Checks one record against the lines before it; calls `report` for each finding.
  mutating func check(_ record: Record, line: Int, offset: Int64, report: (Diagnostic) -> Void) {
    let seq = record.seq
    if let highest = highestSeq {
      if seq != highest &+ 1 {
        // A seq the undecoded lines since the last record may account for is no gap.
        if seq <= highest || seq > highest &+ 1 &+ undecodedLines {
          report(seqFinding(seq: seq, highest: highest, line: line, offset: offset))
        }
        highestSeq = max(highest, seq)
      } else {
        highestSeq = seq
      }
    } else {
      highestSeq = seq
    }
    undecodedLines = 0
    if let last = lastTime, record.time < last {
      report(timeFinding(from: last, to: record.time, seq: seq, line: line, offset: offset))
    }
    lastTime = record.time
    switch record.event {
    case .session:
      if let finding = headerFinding(isSession: true, record: record, line: line, offset: offset) { report(finding) }
    case .unknown(let type, _):
      if firstRecordLine == nil,
        let finding = headerFinding(isSession: false, record: record, line: line, offset: offset)
      {
        report(finding)
      }
      if !unknownTypes.contains(type) {
        unknownTypes.insert(type)
        report(
          Diagnostic(
            rule: "unknown-type", severity: warningSeverity(), line: line, seq: seq, offset: offset,
            message: "unknown event type \"\(displayText(type))\" (kept as is; reported once per type)"))
      }
    default:
      if firstRecordLine == nil,
        let finding = headerFinding(isSession: false, record: record, line: line, offset: offset)
      {
        report(finding)
      }
    }
    if firstRecordLine == nil { firstRecordLine = line }
  }

  @inline(never)
  private func seqFinding(seq: Int, highest: Int, line: Int, offset: Int64) -> Diagnostic {
    if seq > highest {
      let missing = seq - highest - 1
      return Diagnostic(
        rule: "seq-gap", severity: .error, line: line, seq: seq, offset: offset,
        message: "seq jumps from \(highest) to \(seq) (\(missing) \(missing == 1 ? "event" : "events") missing)")
    }
    let message = seq == highest ? "seq \(seq) repeats" : "seq \(seq) repeats (after seq \(highest))"
    return Diagnostic(rule: "seq-repeat", severity: .error, line: line, seq: seq, offset: offset, message: message)
  }

  @inline(never)
  private func timeFinding(from last: Timestamp, to time: Timestamp, seq: Int, line: Int, offset: Int64)
    -> Diagnostic
  {
    Diagnostic(
      rule: "time-backwards", severity: .error, line: line, seq: seq, offset: offset,
      message: "time goes backwards from \(last.rfc3339) to \(time.rfc3339)")
  }

  @inline(never)
  private mutating func headerFinding(isSession: Bool, record: Record, line: Int, offset: Int64) -> Diagnostic? {
    let message: String
    if isSession {
      if let headerLine {
        message = "a second session header (the first is on line \(headerLine))"
      } else if firstRecordLine != nil {
        message = "the session header comes after other events; it must be the first line, at seq 0"
      } else if record.seq != 0 {
        message = "the session header has seq \(record.seq); it must be at seq 0"
      } else {
        headerLine = line
        return nil
      }
      if headerLine == nil { headerLine = line }
    } else {
      message =
        "the journal does not start with a session header (the first event is \"\(displayText(record.event.typeName))\" at seq \(record.seq))"
    }
    return Diagnostic(
      rule: "no-header", severity: .error, line: line, seq: record.seq, offset: offset, message: message)
  }
}
