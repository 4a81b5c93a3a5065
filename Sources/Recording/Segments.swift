import Journal
import Projection

/// How segment files are named and what their headers say, for the recorder and for readers.
///
/// A segment is `BASE.NNNNNN.ndjson` (six digits or more, from 000001) while it is
/// written, `BASE.NNNNNN.ndjson.gz` once closed and compressed. Its header carries
/// ``segmentKey`` (its index); every segment after the session's first starts with
/// the state rebuilt where it starts (as `cat --replayable` writes it: the events,
/// then a `mark` ``ReplayableSlice/markLabel`` with `from`) and each of its events
/// carries ``ReplayableSlice/sourceSeqKey``, its seq in the whole session.
public enum SegmentName {
  /// The header key holding a segment's index (1 for the first).
  public static let segmentKey = "segment"

  /// The path of segment `index` of `base`.
  public static func path(base: String, index: Int, compressed: Bool) -> String {
    let digits = String(index)
    let padded = String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    return "\(base).\(padded).ndjson\(compressed ? ".gz" : "")"
  }

  /// The base and index of a segment's path (`notes.000002.ndjson.gz` → (`notes`, 2)), or nil.
  public static func parse(_ path: String) -> (base: String, index: Int, compressed: Bool)? {
    var rest = Substring(path)
    let compressed = rest.hasSuffix(".gz")
    if compressed { rest = rest.dropLast(3) }
    guard rest.hasSuffix(".ndjson") else { return nil }
    rest = rest.dropLast(7)
    guard let dot = rest.lastIndex(of: ".") else { return nil }
    let digits = rest[rest.index(after: dot)...]
    guard digits.count >= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits), index > 0
    else { return nil }
    return (String(rest[..<dot]), index, compressed)
  }
}

/// The segment files of one recorded session (on the recorder's writer queue only).
struct SegmentSet {
  let base: String
  let rotation: Rotation
  let durability: Durability
  /// The header of every segment (before its ``SegmentName/segmentKey``).
  let header: Record

  /// The open segment's index (0: none opened yet).
  private(set) var index = 0
  private var fd: Int32 = -1
  private var path = ""
  /// Bytes written to the open segment, and encoded for it but not yet written.
  private(set) var bytes = 0
  private var buffer: [UInt8] = []
  private(set) var bufferedEvents = 0
  private var openedAt: UInt64 = 0
  private var localSeq = 0
  /// Whether the open segment starts the session (no rebuilt state, seqs are the session's own).
  private var isSessionStart = false
  private var encoder = RecordEncoder()
  /// Closed segments kept, oldest first.
  private(set) var closed: [(path: String, bytes: Int)] = []
  /// Segments removed to keep within the bound.
  private(set) var removed = 0

  init(base: String, rotation: Rotation, durability: Durability, header: Record) {
    self.base = base
    self.rotation = rotation
    self.durability = durability
    self.header = header
    index = Self.recover(base: base)
  }

  var isOpen: Bool { fd >= 0 }

  /// Cleans what a crash left of an earlier run with the same base (a compressed copy's temporary
  /// file, a segment both compressed and not) and returns the last index used, so that this run
  /// never writes over it.
  private static func recover(base: String) -> Int {
    let folder = Files.folder(of: base)
    let prefix = Files.name(of: base) + "."
    var last = 0
    for name in Files.names(in: folder) {
      if name.hasPrefix("." + prefix) && name.hasSuffix(".tmp") {
        Files.remove(folder + "/" + name)
        continue
      }
      guard name.hasPrefix(prefix), let parsed = SegmentName.parse(folder + "/" + name),
        parsed.base == base || Files.name(of: parsed.base) == Files.name(of: base)
      else { continue }
      last = max(last, parsed.index)
      if !parsed.compressed && Files.exists(folder + "/" + name + ".gz") {
        // Compressed and renamed, the crash came before the original was removed.
        Files.remove(folder + "/" + name)
      } else if !parsed.compressed {
        // An open segment of a run that died: a torn last line is cut off (kept in `.torn`).
        if let writer = try? JournalWriter(path: folder + "/" + name, durability: .none) { _ = try? writer.close() }
      }
    }
    return last
  }

  /// Whether the open segment is due to be closed.
  func isDue(now: UInt64) -> Bool {
    guard isOpen else { return false }
    if bytes >= rotation.maxSegmentBytes { return true }
    if let limit = rotation.maxSegmentDuration {
      let (seconds, attoseconds) = limit.components
      let nanos = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
      if now - openedAt >= nanos { return true }
    }
    return false
  }

  /// Opens the next segment: its header and, after the first, the state rebuilt from `state`
  /// with the `replayable.start` mark naming `from`, the seq of the next event.
  mutating func open(state: State, from: Int, time: Timestamp, now: UInt64) throws(Files.Failure) {
    isSessionStart = from == 1
    index += 1
    path = SegmentName.path(base: base, index: index, compressed: false)
    guard !Files.exists(path) else { throw Files.Failure(path: path, message: "a segment of this name exists") }
    openedAt = now
    localSeq = 0
    bytes = 0
    var head = header
    head.extra.append(Field(key: SegmentName.segmentKey, value: RawJSON(unchecked: String(index))))
    head.time = time
    emit(head, sourceSeq: nil)
    if !isSessionStart {
      for event in state.rebuildingEvents() { emit(Record(seq: 0, time: time, event: event), sourceSeq: nil) }
      emit(
        Record(
          seq: 0, time: time,
          event: .mark(
            label: ReplayableSlice.markLabel, fields: [Field(key: "from", value: RawJSON(unchecked: String(from)))])),
        sourceSeq: nil)
    }
    // The header and the rebuilt state reach the final name together, so that a process killed
    // while a segment opens leaves no segment without its header.
    try Files.writeAtomically(buffer, to: path, sync: durability != .none)
    buffer.removeAll(keepingCapacity: true)
    fd = try Files.openForAppending(path)
    bufferedEvents = 0
  }

  /// Encodes an event of the session for the open segment.
  mutating func append(_ record: Record) {
    emit(record, sourceSeq: isSessionStart ? nil : record.seq)
    bufferedEvents += 1
  }

  private mutating func emit(_ record: Record, sourceSeq: Int?) {
    var local = record
    local.seq = localSeq
    localSeq += 1
    if let sourceSeq {
      local.extra.append(Field(key: ReplayableSlice.sourceSeqKey, value: RawJSON(unchecked: String(sourceSeq))))
    }
    let before = buffer.count
    encoder.encode(local, into: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    bytes += buffer.count - before
  }

  /// Writes what is encoded in one `write` (so that a killed process leaves whole lines), synced under `always`.
  mutating func write() throws(Files.Failure) {
    guard isOpen, !buffer.isEmpty else { return }
    defer {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
      bufferedEvents = 0
    }
    try Files.write(fd, buffer, path: path)
    if durability == .always { try Files.sync(fd, path: path) }
  }

  /// Syncs the open segment (unless the durability is `none`).
  func sync() throws(Files.Failure) {
    guard isOpen, durability != .none else { return }
    try Files.sync(fd, path: path)
  }

  /// Closes the open segment: written, synced, compressed when asked (a temporary file renamed
  /// into place, then the original removed), and the oldest segments removed beyond the bound.
  mutating func close() throws(Files.Failure) {
    guard isOpen else { return }
    try write()
    try sync()
    Glibc_close(fd)
    fd = -1
    var kept = (path: path, bytes: bytes)
    if rotation.compress {
      let data = try Files.readAll(path)
      let compressed = Gzip.compress(data, level: 1)
      let target = path + ".gz"
      try Files.writeAtomically(compressed, to: target, sync: durability != .none)
      Files.remove(path)
      if durability != .none { Files.syncFolder(of: path) }
      kept = (target, compressed.count)
    }
    closed.append(kept)
    enforceBound()
  }

  /// Drops the open segment after a fault (what it holds stays as far as it was written).
  mutating func abandon() {
    if isOpen { Glibc_close(fd) }
    fd = -1
    buffer.removeAll()
    bufferedEvents = 0
  }

  /// Removes the oldest closed segments while all of them and the open one exceed the bound.
  mutating func enforceBound() {
    guard let limit = rotation.maxTotalBytes else { return }
    var total = closed.reduce(0) { $0 + $1.bytes } + (isOpen ? bytes : 0)
    while total > limit, !closed.isEmpty {
      let oldest = closed.removeFirst()
      Files.remove(oldest.path)
      total -= oldest.bytes
      removed += 1
    }
  }
}

#if canImport(Glibc)
  import Glibc
  private func Glibc_close(_ fd: Int32) { _ = Glibc.close(fd) }
#elseif canImport(Musl)
  import Musl
  private func Glibc_close(_ fd: Int32) { _ = Musl.close(fd) }
#elseif canImport(Darwin)
  import Darwin
  private func Glibc_close(_ fd: Int32) { _ = Darwin.close(fd) }
#endif
