/// A torn tail that a ``JournalWriter`` cut off the end of a journal: the
/// bytes of a final line without `\n` that did not decode (a writer died mid-append).
///
/// The bytes are not lost: they were appended, followed by `\n`, to the file
/// at ``path`` (the journal's path plus `.torn`).
public struct TornTail: Sendable, Hashable {
  /// Byte offset in the journal where the torn line started (the journal's new size).
  public var offset: Int64
  /// How many bytes were cut off.
  public var length: Int
  /// The `.torn` file the bytes were moved to.
  public var path: String
}
