import Journal

/// A consumer of the checker's fold itself: it steps through the journal
/// beside the checker, record by record, reading the model's state before and
/// after the checker folds each one, so that it needs no fold of its own.
///
/// Given to a ``CheckerPass`` (``CheckerPass/init(rules:model:facts:folding:)``),
/// it runs where the checker runs (in a ``JournalPass``, on the checker's
/// thread) and is handed back at the end (``CheckerPass/folding``,
/// ``JournalPass/finalFolding``). A consumer that needs more of the state than
/// a record's ``RecordFacts`` (the report's page, which writes every
/// controller's row and the map after each event) is one.
///
/// ```swift
/// struct Alive: FoldConsumer {
///   var counts: [Int] = []
///   mutating func willFold(_ record: Record, state: State) {}
///   mutating func didFold(_ record: Record, state: State) {
///     counts.append(state.controllers.filter(\.isAlive).count)
///   }
/// }
/// var pass = CheckerPass(folding: Alive())
/// _ = pass.check(&batch)
/// let counts = (pass.folding as? Alive)?.counts
/// ```
public protocol FoldConsumer: Sendable {
  /// Before the checker folds `record`: `state` is the fold of every record before it.
  mutating func willFold(_ record: Record, state: State)
  /// Once the checker has folded `record`: `state` is the fold of it and of every record before it.
  mutating func didFold(_ record: Record, state: State)
}
