/// When a ``JournalWriter`` forces appended events to the storage device (`fsync`).
///
/// - `always`: before each `append` returns. An append that returned survives
///   a process kill and a power cut. The slowest.
/// - `batch` (the default): group commit. The writer syncs once `batchSize`
///   events have been appended since the last sync, or once `batchInterval`
///   has passed (a background timer also syncs a quiet writer), and on `close`.
///   A process kill loses nothing that was appended (the kernel has it); a power
///   cut may lose the events of the last interval.
/// - `none`: never; the operating system writes the pages back when it likes,
///   and `close` does not sync either. A process kill loses nothing; a power cut
///   may lose any recent events.
public enum Durability: String, Sendable, CaseIterable {
  case always, batch, none
}
