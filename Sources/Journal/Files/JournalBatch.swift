/// Items of a journal in file order, handed from one stage of a streaming pass
/// to the next: whoever holds the batch owns it, and a consumer that reads it
/// takes it `inout`.
///
/// ```swift
/// var batch = JournalBatch()
/// while let item = reader.next() { batch.append(item) }
/// batch.forEachItem { i, item in
///   item.withRecord { record, line in print(line, record.seq) }
/// }
/// ```
///
/// Implementation note: a consumer reads a record where it lies, without
/// copying it out of its item (``JournalItem/withRecord(_:)``), which needs the
/// item mutable; so the batch is an array the holder owns, visited in place
/// (``forEachItem(_:)``), rather than a buffer lent read-only.
public struct JournalBatch: Sendable {
  /// The items, in file order.
  public var items: [JournalItem]

  public init() { items = [] }

  public init(_ items: [JournalItem]) { self.items = items }

  public var count: Int { items.count }
  public var isEmpty: Bool { items.isEmpty }

  /// Adds an item at the end (moved in, not copied).
  public mutating func append(_ item: consuming JournalItem) { items.append(item) }

  /// Calls `body` with each item in turn, in place, and its index.
  @inlinable
  public mutating func forEachItem<E: Error>(_ body: (_ index: Int, _ item: inout JournalItem) throws(E) -> Void)
    throws(E)
  {
    let count = items.count
    guard count > 0 else { return }
    // One uniqueness check for the batch, not one per item.
    try items.withUnsafeMutableBufferPointer { (slots) throws(E) in
      for i in 0..<count { try body(i, &slots[i]) }
    }
  }
}

extension JournalItem {
  /// Calls `body` with a record's record and line, borrowed in place; nil for a finding.
  ///
  /// Implementation note: the item is moved out of its place, matched, and put
  /// back as it was, with no `defer` (the optimizer then moves the record back
  /// rather than copying it). Matched in place (`case .record(let record, ...)`),
  /// the record was copied out of the item (its strings retained, through the
  /// runtime's generic copy of the payload) and the copy destroyed, at every record.
  @inlinable
  public mutating func withRecord<R, E: Error>(_ body: (_ record: borrowing Record, _ line: Int) throws(E) -> R)
    throws(E) -> R?
  {
    try withUnsafeMutablePointer(to: &self) { (slot) throws(E) -> R? in
      switch slot.move() {
      case .record(let record, let line, let offset):
        let result = Result { () throws(E) -> R in try body(record, line) }
        slot.initialize(to: .record(record, line: line, offset: offset))
        return try result.get()
      case let other:
        slot.initialize(to: other)
        return nil
      }
    }
  }

}
