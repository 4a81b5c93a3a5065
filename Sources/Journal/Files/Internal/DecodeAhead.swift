import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension JournalReader {
  /// The processors this process may use, at most 4: what to pass as
  /// `decodingThreads` to ``init(path:options:decodingThreads:)``.
  public static var availableThreads: Int {
    Int(max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
  }
}

/// Lines read ahead in a batch and decoded on several threads, for a
/// ``JournalReader`` that then checks them in order.
///
/// A batch is up to ``batchLines`` lines (and about ``batchBytes`` bytes),
/// copied out of the ``LineReader``'s buffer into one arena so that they stay
/// valid while the workers decode them and until the reader has handed out the
/// last of them (`cat` copies each record's line through). Memory: one arena
/// and one array of decoded records, whatever the journal's size.
///
/// Implementation note: the batch is split into as many contiguous parts as
/// there are threads and decoded with `DispatchQueue.concurrentPerform`, the
/// calling thread taking one part; the cost of the fork and join (some
/// microseconds) is spread over thousands of lines.
final class DecodeAhead {
  let threads: Int
  let limits: DecodeLimits
  let batchLines: Int
  static let batchBytes = 1 << 20

  /// What the workers made of each line of the batch.
  enum Outcome: UInt8 {
    /// Not decoded: the reader reports the line without decoding it.
    case skipped
    /// Its record is in ``records``.
    case decoded
    /// It did not decode; the error is in ``errors``.
    case failed
  }

  private var arena: UnsafeMutableRawPointer
  private var arenaCapacity: Int
  /// The lines of the batch (`count` of them), their bytes in the arena.
  ///
  /// Implementation note: raw buffers rather than arrays held by the class,
  /// whose every access the runtime checks for exclusivity, a cost paid on
  /// every line of the batch.
  private let lines: UnsafeMutablePointer<LineReader.Line>
  /// Where each line's bytes start in the arena, while the batch fills (the arena may still move).
  private let offsets: UnsafeMutablePointer<Int>
  private var count = 0
  /// One outcome per line of the batch; a record is initialised where it is `.decoded`, until taken.
  private let outcomes: UnsafeMutablePointer<Outcome>
  private let records: UnsafeMutablePointer<Record>
  /// The errors of the lines that failed, by line index in the batch (rare).
  private var errors: [Int: DecodeError] = [:]
  private var position = 0
  /// One cache of ids per part of a batch: part k always decodes with the k-th.
  private let ids: [IDCache]

  init(threads: Int, limits: DecodeLimits, batchLines: Int = 4096) {
    self.threads = max(1, threads)
    self.limits = limits
    self.batchLines = max(1, batchLines)
    arenaCapacity = Self.batchBytes + 4096
    arena = UnsafeMutableRawPointer.allocate(byteCount: arenaCapacity, alignment: 16)
    outcomes = .allocate(capacity: self.batchLines)
    records = .allocate(capacity: self.batchLines)
    lines = .allocate(capacity: self.batchLines)
    offsets = .allocate(capacity: self.batchLines)
    ids = (0..<self.threads).map { _ in IDCache() }
  }

  deinit {
    dropRest()
    arena.deallocate()
    outcomes.deallocate()
    records.deallocate()
    lines.deallocate()
    offsets.deallocate()
  }

  /// The next line of the batch, nil at its end; then ``takeRecord(_:)`` its record or ``takeError(_:)`` its error.
  @inline(__always)
  func nextLine() -> (line: LineReader.Line, index: Int)? {
    guard position < count else { return nil }
    defer { position += 1 }
    return (lines[position], position)
  }

  /// The outcome of the line at `index`, whose record (moved out) or error the reader then takes.
  @inline(__always)
  func outcome(_ index: Int) -> Outcome { outcomes[index] }

  /// Moves the record of the line at `index` out (its outcome must be `.decoded`).
  @inline(__always)
  func takeRecord(_ index: Int) -> Record {
    outcomes[index] = .skipped
    return (records + index).move()
  }

  @inline(never)
  func takeError(_ index: Int) -> DecodeError {
    guard let error = errors.removeValue(forKey: index) else {
      preconditionFailure("line \(index) of the batch failed without an error")
    }
    return error
  }

  /// Reads the next batch and decodes it; false at the end of the input (or a read error).
  func fill(from reader: LineReader) -> Bool {
    dropRest()
    if !errors.isEmpty { errors.removeAll() }
    position = 0
    var n = 0
    var used = 0
    let limit = batchLines
    while n < limit, used < Self.batchBytes, let line = reader.next() {
      let length = line.bytes.count
      if used + length > arenaCapacity { grow(to: used + length, keeping: used) }
      if length > 0, let source = line.bytes.baseAddress { (arena + used).copyMemory(from: source, byteCount: length) }
      (lines + n).initialize(to: line)
      offsets[n] = used
      n += 1
      used += length
    }
    count = n
    if n == 0 { return false }
    for i in 0..<n {
      lines[i].bytes = UnsafeRawBufferPointer(start: arena + offsets[i], count: lines[i].bytes.count)
    }
    decodeBatch()
    return true
  }

  /// Deinitialises the records of the batch that were not taken.
  private func dropRest() {
    for i in 0..<count where outcomes[i] == .decoded {
      (records + i).deinitialize(count: 1)
      outcomes[i] = .skipped
    }
  }

  @inline(never)
  private func grow(to needed: Int, keeping used: Int) {
    let capacity = max(needed, arenaCapacity * 2)
    let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    larger.copyMemory(from: arena, byteCount: used)
    arena.deallocate()
    arena = larger
    arenaCapacity = capacity
  }

  private func decodeBatch() {
    let count = self.count
    let parts = min(threads, max(1, count / 64))
    let limits = self.limits
    let shared = SharedBatch(lines: lines, outcomes: outcomes, records: records, ids: ids)
    let failures: [[(Int, DecodeError)]]
    if parts == 1 {
      failures = [shared.decode(0..<count, limits: limits, ids: shared.ids[0])]
    } else {
      let results = UnsafeMutableBufferPointer<[(Int, DecodeError)]>.allocate(capacity: parts)
      results.initialize(repeating: [])
      defer { results.deallocate() }
      let out = SharedFailures(results: results)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        out.results[part] = shared.decode(
          part * count / parts..<(part + 1) * count / parts, limits: limits, ids: shared.ids[part])
      }
      failures = Array(results)
      _ = results.deinitialize()
    }
    for part in failures { for (i, error) in part { errors[i] = error } }
  }

  /// The bytes the decoder reads for `line`, as ``JournalReader`` would hand
  /// them to it; nil when the reader reports the line without decoding it
  /// (over-long, a byte order mark past the first line, blank).
  @inline(__always)
  static func decodable(_ line: LineReader.Line) -> UnsafeRawBufferPointer? {
    if line.isOverLong { return nil }
    var bytes = line.bytes
    if startsWithByteOrderMark(bytes) {
      guard line.number == 1 else { return nil }
      bytes = UnsafeRawBufferPointer(rebasing: bytes[3...])
    }
    if line.terminated && isBlank(bytes) { return nil }
    return bytes
  }
}

/// The batch's lines and the places for their outcomes and records, for the
/// decoding threads: each thread reads its own range of lines and writes the
/// same range of outcomes and records.
///
/// Implementation note: `@unchecked Sendable` because the ranges of the
/// threads never overlap, each part has a cache of ids of its own, and
/// `concurrentPerform` returns only when all are done.
private struct SharedBatch: @unchecked Sendable {
  let lines: UnsafeMutablePointer<LineReader.Line>
  let outcomes: UnsafeMutablePointer<DecodeAhead.Outcome>
  let records: UnsafeMutablePointer<Record>
  let ids: [IDCache]

  /// Decodes the lines of `range` with `ids`; returns the errors of those that failed.
  func decode(_ range: Range<Int>, limits: DecodeLimits, ids: IDCache) -> [(Int, DecodeError)] {
    var failures: [(Int, DecodeError)] = []
    var minute = CanonicalMinute()
    for i in range {
      guard let bytes = DecodeAhead.decodable(lines[i]) else {
        outcomes[i] = .skipped
        continue
      }
      do {
        (records + i).initialize(to: try RecordDecoder.decode(bytes, limits: limits, minute: &minute, ids: ids))
        outcomes[i] = .decoded
      } catch {
        outcomes[i] = .failed
        failures.append((i, error))
      }
    }
    return failures
  }
}

/// One list of failures per thread (see ``SharedBatch``).
private struct SharedFailures: @unchecked Sendable {
  let results: UnsafeMutableBufferPointer<[(Int, DecodeError)]>
}
