/// What a ``JournalReader`` yields, in file order: a decoded record, or a finding about the journal.
public enum JournalItem: Sendable {
  /// A line that decoded, with its 1-based line number and the byte offset of the line's start.
  case record(Record, line: Int, offset: Int64)
  /// A warning or an error about a line (framing, JSON, envelope, seq, time, header).
  case diagnostic(Diagnostic)
}
