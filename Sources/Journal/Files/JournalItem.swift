/// What a ``JournalReader`` yields, in file order: a decoded record, or a finding about the journal.
public enum JournalItem: Sendable {
  /// A line that decoded, with its 1-based line number and the byte offset of the line's start.
  case record(Record, line: Int, offset: Int64)
  /// A warning or an error about a line (framing, JSON, envelope, seq, time, header).
  ///
  /// Implementation note: `indirect`, so that an item is the size of a record
  /// case, not of a diagnostic: items are copied into batches by the thousand,
  /// and findings of the reader are rare.
  indirect case diagnostic(Diagnostic)
}
