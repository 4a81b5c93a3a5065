/// The journal-level rules a reader checks across lines: the header, `seq`
/// contiguity, `time` order and unknown types (reported once per type).
///
/// Implementation note: ``check(_:line:offset:report:)`` runs once per record
/// of journals with millions of lines; it compares a few integers and only
/// builds messages (in `@inline(never)` functions) when something is wrong.
///
/// Public for readers that split lines themselves (`tail --follow` reads a
/// growing file with its own follower) and must still apply the same rules.
public struct IntegrityTracker: Sendable {
  /// Warnings become errors.
  public let strict: Bool
  /// Highest `seq` seen; counting resumes from it after a gap or a repeat.
  private var highestSeq: Int?
  /// The time of the previous record.
  private var lastTime: Timestamp?
  /// The line of the first record (`nil` before any record).
  private var firstRecordLine: Int?
  /// The line of the session header, if one was seen.
  private var headerLine: Int?
  private var unknownTypes: Set<String> = []
  /// Whether a header's format version was looked at (it is reported once, on the first header).
  private var versionChecked = false
  /// Lines since the last record that were not decoded (malformed, framing):
  /// each may have been an event, so a gap that size is not reported again.
  private var undecodedLines = 0

  public init(strict: Bool) { self.strict = strict }

  /// Whether any record was checked.
  public var sawRecord: Bool { firstRecordLine != nil }

  /// The finding for a journal that ended without a single record: it has no
  /// header (the format requires one at seq 0), whether it is empty, blank or
  /// nothing but lines that did not decode. Reported on its last line (line 1
  /// when empty), so findings stay in line order.
  @inline(never)
  public func missingHeaderAtEnd(lastLine: Int, lastOffset: Int64) -> Diagnostic? {
    guard firstRecordLine == nil else { return nil }
    let message =
      lastLine == 0
      ? "the journal is empty: it must start with a session header at seq 0"
      : "the journal has no session header: none of its lines is an event"
    return Diagnostic(
      rule: .noHeader, severity: .error, line: max(lastLine, 1), offset: lastOffset, message: message)
  }

  /// The severity of a finding the format calls a warning.
  public func warningSeverity() -> Diagnostic.Severity { strict ? .error : .warning }

  /// The checks of one line before it is decoded: a byte order mark (`bom` on
  /// line 1, `framing` elsewhere), a `\r\n` line end (`crlf`), a blank line
  /// (`blank-line`). Calls `report` for each finding.
  ///
  /// - Returns: the bytes to decode (without the first line's byte order
  ///   mark) and how many columns that mark shifts, or nil when the line is
  ///   not to be decoded (blank, or a mark out of place).
  @inline(__always)
  public mutating func frame(
    line number: Int, offset: Int64, bytes: UnsafeRawBufferPointer, terminated: Bool, crlf: Bool,
    report: (Diagnostic) -> Void
  ) -> (bytes: UnsafeRawBufferPointer, columnShift: Int)? {
    var bytes = bytes
    var columnShift = 0
    if startsWithByteOrderMark(bytes) {
      if number == 1 {
        report(
          Diagnostic(
            rule: .bom, severity: warningSeverity(), line: 1, column: 1, offset: 0,
            message: "UTF-8 byte order mark at the start of the file"))
        bytes = UnsafeRawBufferPointer(rebasing: bytes[3...])
        columnShift = 3
      } else {
        noteUndecodedLine()
        report(
          Diagnostic(
            rule: .framing, severity: .error, line: number, column: 1, offset: offset,
            message: "byte order mark (U+FEFF) not at the start of the file"))
        return nil
      }
    }
    if crlf {
      report(
        Diagnostic(
          rule: .crlf, severity: warningSeverity(), line: number, offset: offset,
          message: "line ends with \\r\\n instead of \\n"))
    }
    if terminated && isBlank(bytes) {
      report(
        Diagnostic(
          rule: .blankLine, severity: warningSeverity(), line: number, offset: offset,
          message: "blank line"))
      return nil
    }
    return (bytes, columnShift)
  }

  /// Notes a line that should have been a record but could not be decoded.
  public mutating func noteUndecodedLine() { undecodedLines += 1 }

  /// Checks one record against the lines before it; calls `report` for each finding.
  public mutating func check(_ record: Record, line: Int, offset: Int64, report: (Diagnostic) -> Void) {
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
    case .session(let header):
      if let finding = headerFinding(isSession: true, record: record, line: line, offset: offset) { report(finding) }
      if !versionChecked {
        versionChecked = true
        if header.version != 1 { report(versionFinding(header.version, seq: seq, line: line, offset: offset)) }
      }
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
            rule: .unknownType, severity: warningSeverity(), line: line, seq: seq, offset: offset,
            message: "unknown event type \"\(displayText(type))\" (kept as is; reported once per type)"))
      }
    case .alloc, .root, .link, .unlink, .modal, .touches, .pan, .move, .lifecycle, .dealloc, .mark:
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
        rule: .seqGap, severity: .error, line: line, seq: seq, offset: offset,
        message: "seq jumps from \(highest) to \(seq) (\(missing) \(missing == 1 ? "event" : "events") missing)")
    }
    let message = seq == highest ? "seq \(seq) repeats" : "seq \(seq) repeats (after seq \(highest))"
    return Diagnostic(
      rule: .seqRepeat, severity: .error, line: line, seq: seq, offset: offset, message: message)
  }

  @inline(never)
  private func timeFinding(from last: Timestamp, to time: Timestamp, seq: Int, line: Int, offset: Int64)
    -> Diagnostic
  {
    Diagnostic(
      rule: .timeBackwards, severity: .error, line: line, seq: seq, offset: offset,
      message: "time goes backwards from \(last.rfc3339) to \(time.rfc3339)")
  }

  /// A header that declares another format version than the one the reader knows: it reads the
  /// journal as version 1 (what a newer writer added it keeps as unknown types and keys), and says so.
  @inline(never)
  private func versionFinding(_ version: Int, seq: Int, line: Int, offset: Int64) -> Diagnostic {
    let reading =
      version > 1
      ? "a newer format than this version of spatial-replay knows; it is read as version 1 (types and keys "
        + "it does not know are kept as they are)"
      : "there is no such version; the journal is read as version 1"
    return Diagnostic(
      rule: .formatVersion, severity: warningSeverity(), line: line, seq: seq, offset: offset,
      message: "the header declares format version \(version): \(reading)")
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
      rule: .noHeader, severity: .error, line: line, seq: record.seq, offset: offset, message: message)
  }
}
