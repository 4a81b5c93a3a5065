import Journal

/// Seeks over one journal: the state after any event, forwards or backwards.
///
/// The records are held in memory as `[Record]`: 136 bytes per record inline
/// (ids of up to 15 bytes fit inside), about 136 MB for a 1M-event journal,
/// plus the heap for longer strings and `mark` fields. On creation the timeline folds the
/// whole journal once and keeps a *snapshot* (a ``State`` value the fold
/// produced) before every `interval`-th record, so reaching any position
/// replays at most `interval - 1` records from the nearest snapshot before it.
/// Stepping forwards folds one record onto the current state.
///
/// Memory per snapshot: a `State` shares every unchanged part of its storage
/// with its neighbours (controllers are kept in chunks of 32, the id index in
/// 64 shards), so a snapshot costs its own list of chunk references (8 bytes
/// per 32 controllers), a copy of each chunk (32 controllers, about 5 KB) and
/// each index shard that the `interval` records since the previous snapshot
/// touched, and the arrivals of the transition in flight: O(controllers / 32 +
/// touched chunks × 32): for a journal of a few thousand controllers, tens of
/// KB per snapshot. A larger `interval` trades memory for longer backward
/// steps.
///
/// A snapshot can cost as much as the whole state (a stretch of records that
/// touches every index shard copies them all), so once there are more than
/// ``denseThreshold`` controllers, snapshots are spaced at least as many records
/// apart as there are controllers: with 10⁶ controllers the snapshots still cost
/// O(records) in all, not O(records × controllers / interval), and a seek
/// replays at most max(`interval`, controllers) records.
///
/// ```swift
/// let (records, _) = try JournalReader.readAll(path: "journal.ndjson")
/// var timeline = Timeline(records: records)
/// timeline.jump(toSeq: 120)
/// timeline.state.focus           // the focus after seq 120
/// timeline.stepBackward()        // the state after seq 119
/// timeline.state(at: 0).header   // any position, without moving
/// ```
public struct Timeline: Sendable {
  /// The journal's records, in file order.
  public let records: [Record]
  /// Records between two snapshots.
  public let interval: Int
  /// `snapshots[k]` is the state after the first `snapshotPositions[k]` records.
  private let snapshots: [State]
  /// Increasing, from 0: `interval` apart up to ``denseThreshold`` controllers.
  private let snapshotPositions: [Int]
  /// Record index of each seq when the seqs are not simply `0, 1, 2...` (gaps, repeats).
  private let seqIndex: [Int: Int]?

  /// The current position: the index in ``records`` of the last record folded, -1 before the first.
  public private(set) var index: Int
  /// The state after ``records``[``index``] (the empty state when `index` is -1).
  public private(set) var state: State

  /// The default number of records between snapshots.
  public static let defaultInterval = 256

  /// Past this many controllers, snapshots are spaced at least as many records apart as there are controllers.
  public static let denseThreshold = 1_024

  /// Folds `records` once, keeping a snapshot every `interval` records (past
  /// ``denseThreshold`` controllers, every as many records as there are
  /// controllers, if more); the position is then the last record.
  ///
  /// - Parameters:
  ///   - records: a journal's records in file order (as the reader returned them).
  ///   - interval: records between snapshots, at least 1.
  /// - Complexity: O(n) folds.
  public init(records: [Record], interval: Int = Timeline.defaultInterval) {
    precondition(interval >= 1, "a timeline needs an interval of at least 1 record")
    var schedule = SnapshotSchedule(interval: interval, expected: records.count)
    var state = State()
    for (i, record) in records.enumerated() {
      schedule.before(i, state)
      reduce(into: &state, record)
    }
    schedule.end(records.count, state)
    self.init(records: records, schedule: schedule, state: state)
  }

  /// A timeline whose fold was done elsewhere (the stepper's loading folds
  /// once for its check and its snapshots).
  ///
  /// - Parameters:
  ///   - records: the records folded.
  ///   - schedule: the snapshots taken before each record of the fold
  ///     (``SnapshotSchedule/before(_:_:)``), then at the end (``SnapshotSchedule/end(_:_:)``).
  ///   - state: the state after the last record.
  package init(records: [Record], schedule: SnapshotSchedule, state: State) {
    self.records = records
    self.interval = schedule.interval
    self.snapshots = schedule.snapshots
    self.snapshotPositions = schedule.positions
    self.state = state
    self.index = records.count - 1

    var contiguous = true
    for (i, record) in records.enumerated() where record.seq != i {
      contiguous = false
      break
    }
    if contiguous {
      seqIndex = nil
    } else {
      var map: [Int: Int] = [:]
      for (i, record) in records.enumerated() where map[record.seq] == nil { map[record.seq] = i }
      seqIndex = map
    }
  }

  /// Reads a journal file and builds its timeline.
  ///
  /// - Returns: the timeline over every record that could be read, and the reader's findings.
  /// - Throws: ``JournalFileError`` if the file cannot be opened or read.
  public static func load(
    path: String, options: ReadOptions = .init(), interval: Int = Timeline.defaultInterval
  ) throws(JournalFileError) -> (timeline: Timeline, diagnostics: [Diagnostic]) {
    let (records, diagnostics) = try JournalReader.readAll(path: path, options: options)
    return (Timeline(records: records, interval: interval), diagnostics)
  }

  /// The number of snapshots kept.
  public var snapshotCount: Int { snapshots.count }

  /// The `seq` of the current record, nil before the first.
  public var seq: Int? { index >= 0 ? records[index].seq : nil }

  /// The smallest and largest `seq` in the journal, nil when it has no records.
  public var seqRange: ClosedRange<Int>? {
    guard let first = records.first else { return nil }
    if seqIndex == nil { return first.seq...records[records.count - 1].seq }
    let seqs = records.map(\.seq)
    return seqs.min()!...seqs.max()!
  }

  /// The index in ``records`` of the record with this `seq` (the first one if it
  /// is repeated), nil if there is none.
  public func index(ofSeq seq: Int) -> Int? {
    if let seqIndex { return seqIndex[seq] }
    return seq >= 0 && seq < records.count ? seq : nil
  }

  /// The state after `records[index]` (the empty state for -1), without moving.
  ///
  /// - Complexity: at most `interval - 1` folds (max(`interval`, controllers) - 1 with more controllers).
  public func state(at index: Int) -> State {
    precondition(index >= -1 && index < records.count, "index \(index) is outside -1..<\(records.count)")
    // The last snapshot taken after at most `index + 1` records.
    var low = 0
    var high = snapshotPositions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if snapshotPositions[middle] <= index + 1 { low = middle } else { high = middle - 1 }
    }
    var state = snapshots[low]
    var i = snapshotPositions[low]
    while i <= index {
      reduce(into: &state, records[i])
      i += 1
    }
    return state
  }

  /// The state after the record with this `seq`, nil if there is none.
  public func state(afterSeq seq: Int) -> State? {
    index(ofSeq: seq).map { state(at: $0) }
  }

  /// Moves to `index` (-1 for before the first record).
  ///
  /// - Complexity: one fold when `index` is the next position, else at most `interval - 1` folds.
  public mutating func seek(to index: Int) {
    precondition(index >= -1 && index < records.count, "index \(index) is outside -1..<\(records.count)")
    if index == self.index { return }
    if index == self.index + 1 {
      reduce(into: &state, records[index])
    } else {
      state = state(at: index)
    }
    self.index = index
  }

  /// Moves to the record with this `seq`; returns false (and stays) if there is none.
  @discardableResult
  public mutating func jump(toSeq seq: Int) -> Bool {
    guard let i = index(ofSeq: seq) else { return false }
    seek(to: i)
    return true
  }

  /// Moves one record forwards; returns false at the last record.
  @discardableResult
  public mutating func stepForward() -> Bool {
    guard index + 1 < records.count else { return false }
    seek(to: index + 1)
    return true
  }

  /// Moves one record backwards (to before the first from the first); returns false before the first.
  @discardableResult
  public mutating func stepBackward() -> Bool {
    guard index >= 0 else { return false }
    seek(to: index - 1)
    return true
  }

  /// Moves `count` records (negative: backwards), stopping at either end; returns the records moved.
  @discardableResult
  public mutating func step(by count: Int) -> Int {
    let target = min(max(index + count, -1), records.count - 1)
    let moved = target - index
    seek(to: target)
    return moved
  }

  /// Moves to the first record (the header).
  public mutating func first() {
    if !records.isEmpty { seek(to: 0) }
  }

  /// Moves to the last record.
  public mutating func last() {
    seek(to: records.count - 1)
  }
}

/// Where a ``Timeline`` keeps its snapshots, decided as the fold goes: before
/// every `interval`-th record, spaced wider past ``Timeline/denseThreshold`` controllers.
package struct SnapshotSchedule: Sendable {
  /// Records between two snapshots.
  let interval: Int
  /// The states kept, in order.
  private(set) var snapshots: [State] = []
  /// The number of records folded into each snapshot.
  private(set) var positions: [Int] = []
  /// The record before which the next snapshot is taken.
  private var next = 0

  /// - Parameters:
  ///   - interval: records between snapshots, at least 1.
  ///   - expected: the records expected, to reserve room (0 when unknown).
  package init(interval: Int, expected: Int = 0) {
    precondition(interval >= 1, "a timeline needs an interval of at least 1 record")
    self.interval = interval
    snapshots.reserveCapacity(expected / interval + 1)
    positions.reserveCapacity(expected / interval + 1)
  }

  /// Whether a snapshot is taken before record `index`.
  package func isDue(_ index: Int) -> Bool { index == next }

  /// Before record `index` is folded: `state` is the state after the records before it.
  package mutating func before(_ index: Int, _ state: State) {
    guard index == next else { return }
    snapshots.append(state)
    positions.append(index)
    let controllers = state.controllerCount
    next = index + (controllers > Timeline.denseThreshold ? max(interval, controllers) : interval)
  }

  /// After the last of `count` records: `state` is the final state.
  package mutating func end(_ count: Int, _ state: State) {
    if count == next {
      snapshots.append(state)
      positions.append(count)
    }
  }
}
