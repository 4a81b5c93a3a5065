import Journal
import Projection

/// The flight recorder's memory: the last events, bounded in encoded bytes (and
/// optionally in events and seconds), with the model's state where the buffer starts.
///
/// An event pushed out of the buffer is folded into ``stateAtStart``; the buffer never
/// starts inside a transition (the events of one in flight at its start are pushed out
/// with it), so that the state rebuilt there and the events after it replay as the
/// session did.
struct FlightBuffer {
  let limits: FlightRecorder
  private var records: [Record] = []
  private var sizes: [Int] = []
  /// Where the oldest kept event is in `records` (a ring grown by appending and compacted by halves).
  private var head = 0
  private(set) var bytes = 0
  private(set) var stateAtStart = State()
  private var encoder = RecordEncoder()
  private var scratch: [UInt8] = []

  init(limits: FlightRecorder) { self.limits = limits }

  var count: Int { records.count - head }
  var events: ArraySlice<Record> { records[head...] }

  mutating func append(_ record: Record) {
    scratch.removeAll(keepingCapacity: true)
    encoder.encode(record, into: &scratch)
    let size = scratch.count + 1
    records.append(record)
    sizes.append(size)
    bytes += size
    while count > 1 && isOver(newest: record.time) { evict() }
    while count > 1 && stateAtStart.transitionInFlight != nil { evict() }
    if head > 1024 && head * 2 > records.count {
      records.removeFirst(head)
      sizes.removeFirst(head)
      head = 0
    }
  }

  private func isOver(newest: Timestamp) -> Bool {
    if bytes > limits.maxBytes { return true }
    if let maxEvents = limits.maxEvents, count > maxEvents { return true }
    if let seconds = limits.maxSeconds,
      Double(newest.microseconds - records[head].time.microseconds) > seconds * 1_000_000
    {
      return true
    }
    return false
  }

  private mutating func evict() {
    reduce(into: &stateAtStart, records[head])
    bytes -= sizes[head]
    head += 1
  }

  /// The buffer as a journal of its own: `header`, the state rebuilt where it starts, the
  /// `replayable.start` mark, the events (each with its seq in the session as `sourceSeq`), then `last`.
  func journal(header: Record, last: Event) -> [UInt8] {
    var out: [UInt8] = []
    var encoder = RecordEncoder()
    var seq = 0
    let start = count > 0 ? records[head] : nil
    let time = start?.time ?? header.time
    func emit(_ record: Record) {
      var local = record
      local.seq = seq
      seq += 1
      encoder.encode(local, into: &out)
      out.append(UInt8(ascii: "\n"))
    }
    var head = header
    head.time = time
    emit(head)
    let from = start?.seq ?? 0
    if from > 1 {
      for event in stateAtStart.rebuildingEvents() { emit(Record(seq: 0, time: time, event: event)) }
      emit(
        Record(
          seq: 0, time: time,
          event: .mark(
            label: ReplayableSlice.markLabel, fields: [Field(key: "from", value: RawJSON(unchecked: String(from)))])))
    }
    var lastTime = time
    for record in events {
      var r = record
      r.extra.append(Field(key: ReplayableSlice.sourceSeqKey, value: RawJSON(unchecked: String(record.seq))))
      emit(r)
      lastTime = record.time
    }
    emit(Record(seq: 0, time: lastTime, event: last))
    return out
  }
}
