import CZlib
import Journal
import Projection

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The point index of a journal: where every block of ``blockRecords`` records
/// starts in the file, the state before it, the state after the last record,
/// and the findings of the whole journal, so that `at FILE SEQ` and `map --at
/// SEQ` fold at most one block instead of the journal up to SEQ.
///
/// `at` and `map` build it in the pass they make anyway when there is none (or
/// it no longer matches the journal), and use it from the next query on. It is
/// a cache: it lives in a directory of its own (``directory(_:)``), one file per
/// journal, named after a hash of the journal's absolute path; a damaged or
/// foreign file is ignored and rebuilt.
///
/// It never answers for a journal that changed since it was built: the index
/// keeps the journal's size, modification and change times, device and inode,
/// the read options, and a hash of samples of the journal (the first 4 KiB of
/// every block and the last 64 KiB of the file). A query compares them all
/// before it trusts the index; a journal appended to since is read again in
/// full, and its index rebuilt.
///
/// It never answers from a damaged file either: every state block carries the
/// CRC-32 of its bytes in the table, and the table the CRC-32 of itself, of the
/// magic and of its offset; a query checks the table's before it reads
/// anything and a block's before it decodes the state.
///
/// File layout: `SRPIDX2\n`, the snapshots, the table (``SnapshotWriter``
/// bytes), the table's CRC-32 as 4 bytes and its offset as 8 bytes, both little-endian.
///
/// Implementation note: the fold is sequential, so the state after an event
/// costs every event before it; a snapshot every 16,384 records (about 2 MB of
/// journal) bounds a query to reading the table, decoding one state and
/// folding at most one block, whatever the journal's length.
struct PointIndex {
  /// Where one block of records starts and what it holds.
  struct Block: Equatable {
    /// The offset of its first record's line in the journal.
    var offset: Int64
    var records: Int
    var lowestSeq: Int
    var highestSeq: Int
    /// The state before its first record.
    var snapshot: StoredState
  }

  /// A state in the index file: where its bytes lie, and their CRC-32.
  struct StoredState: Equatable {
    var range: Range<Int64>
    var checksum: UInt32

    /// Whether its bytes lie within `bounds`.
    func lies(within bounds: Range<Int64>) -> Bool {
      range.lowerBound >= bounds.lowerBound && range.upperBound <= bounds.upperBound
    }
  }

  /// The journal an index was built from, as the file system and the reader see it.
  struct Source: Equatable {
    var path: String
    var file: FileStamp
    /// The read options it was read with.
    var options: ReadOptions
  }

  var source: Source
  /// A hash of samples of the journal (``sample(_:blocks:size:)``).
  var sample: UInt64
  var blocks: [Block]
  /// The state after the last record.
  var final: StoredState
  var diagnostics: [Diagnostic]
  var hadErrors: Bool
  var seqRange: ClosedRange<Int>?

  static let blockRecords = 16_384
  /// Journals smaller than this are read in full: that takes a few milliseconds.
  static let minimumJournalSize: Int64 = 1 << 20
  /// A journal with more findings than this gets no index (they would be most of it).
  static let maximumDiagnostics = 10_000
  static let magic = Array("SRPIDX2\n".utf8)
  /// The table's CRC-32 (4 bytes) and offset (8 bytes) at the end of the file.
  static let trailerSize = 12
  /// The environment variable naming the index directory; `off` (or empty) turns the index off.
  static let environmentVariable = "SPATIAL_REPLAY_INDEX"
}

// MARK: Where it lives

extension PointIndex {
  /// The journal to index and where its index file is, or nil when a journal
  /// is not indexed: standard input, not a regular file, smaller than
  /// ``minimumJournalSize``, gzip-compressed, or the index turned off.
  struct Location {
    var source: Source
    var indexPath: String

    init?(journal path: String, options: ReadOptions, environment: [String: String]) {
      guard path != "-", let directory = PointIndex.directory(environment),
        let absolute = realpath(path, nil)
      else { return nil }
      let journal = String(cString: absolute)
      free(absolute)
      guard let source = Source(path: journal, options: options), source.file.size >= PointIndex.minimumJournalSize,
        !Self.isGzip(journal)
      else { return nil }
      self.source = source
      indexPath = directory + "/" + hex(fnv1a(Array(journal.utf8))) + ".index"
    }

    private static func isGzip(_ path: String) -> Bool {
      guard let head = PointIndex.read(path, count: 2, at: 0) else { return true }
      return head == [0x1F, 0x8B]
    }
  }

  /// The directory of index files: `$SPATIAL_REPLAY_INDEX`, else
  /// `$XDG_CACHE_HOME/spatial-replay/index`, else `$HOME/.cache/spatial-replay/index`;
  /// nil when the variable is `off` or empty, or there is no home.
  static func directory(_ environment: [String: String]) -> String? {
    if let chosen = environment[environmentVariable] {
      return chosen.isEmpty || chosen == "off" ? nil : chosen
    }
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/spatial-replay/index" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/spatial-replay/index" }
    return nil
  }
}

extension PointIndex.Source {
  /// The journal as it is now; nil when it is not a regular file.
  init?(path: String, options: ReadOptions) {
    guard let file = FileStamp(regularFile: path) else { return nil }
    self.init(path: path, file: file, options: options)
  }
}

// MARK: Answering

extension PointIndex {
  /// The index of the journal at `location` if there is one, it is whole (its
  /// checksums agree) and it matches the journal as it is now.
  static func load(_ location: Location) -> PointIndex? {
    guard let size = fileSize(location.indexPath), size >= Int64(magic.count + trailerSize),
      let trailer = read(location.indexPath, count: trailerSize, at: size - Int64(trailerSize))
    else { return nil }
    let checksum = trailer[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let tableOffset = trailer[4...].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    guard tableOffset >= Int64(magic.count), tableOffset <= size - Int64(trailerSize),
      let head = read(location.indexPath, count: magic.count, at: 0), head == magic,
      let table = read(location.indexPath, count: Int(size - Int64(trailerSize) - tableOffset), at: tableOffset),
      crc32(table, crc32(magic + trailer[4...])) == checksum
    else { return nil }
    var input = SnapshotReader(table)
    // The states lie between the magic and the table.
    let states = Int64(magic.count)..<tableOffset
    guard let index = try? PointIndex(table: &input), input.isAtEnd,
      index.blocks.allSatisfy({ $0.snapshot.lies(within: states) }), index.final.lies(within: states),
      index.source == location.source,
      index.sample == sample(location.source.path, blocks: index.blocks, size: index.source.file.size)
    else { return nil }
    return index
  }

  /// The state after the first record with `seq` (after the last record when nil),
  /// from the nearest snapshot: `.notFound` when the journal has no such record,
  /// nil when the index and the journal disagree (the caller then reads the journal).
  func state(afterSeq seq: Int?, indexPath: String, name: String, options: ReadOptions) -> Answer? {
    guard let seq else { return state(final, indexPath).map(Answer.state) }
    for block in blocks where block.lowestSeq <= seq && seq <= block.highestSeq {
      guard var state = state(block.snapshot, indexPath) else { return nil }
      let fd = open(source.path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      guard lseek(fd, off_t(block.offset), SEEK_SET) == block.offset else { return nil }
      let reader = JournalReader(fileDescriptor: fd, name: name, options: options)
      var folded = 0
      while folded < block.records, let item = reader.next() {
        guard case .record(let record, _, _) = item else { continue }
        reduce(into: &state, record)
        folded += 1
        if record.seq == seq { return .state(state) }
      }
      guard folded == block.records else { return nil }
    }
    return .notFound(seq)
  }

  enum Answer {
    case state(State)
    /// The journal has no record with this seq.
    case notFound(Int)
  }

  /// The state stored, nil when it cannot be read or its bytes do not have their checksum.
  private func state(_ stored: StoredState, _ indexPath: String) -> State? {
    guard let bytes = Self.read(indexPath, count: Int(stored.range.count), at: stored.range.lowerBound),
      PointIndex.crc32(bytes) == stored.checksum
    else { return nil }
    var input = SnapshotReader(bytes)
    return try? State(snapshot: &input)
  }
}

// MARK: Building

extension PointIndex {
  /// Builds an index as the journal is read: ``record(_:offset:before:)`` for
  /// every record before it is folded, ``diagnostic(_:)`` for every finding,
  /// then ``finish(final:hadErrors:seqRange:)``. Only the table is kept in
  /// memory; the states go to the file as they are made.
  final class Builder {
    private let location: Location
    private let file: AtomicFile
    private var written = Int64(PointIndex.magic.count)
    private var blocks: [Block] = []
    private var diagnostics: [Diagnostic] = []
    private var failed = false
    private var out = SnapshotWriter()

    /// Starts an index file, or returns nil when its directory cannot be made or written.
    init?(_ location: Location) {
      let directory = String(
        location.indexPath[..<(location.indexPath.lastIndex(of: "/") ?? location.indexPath.endIndex)])
      guard (try? makeDirectories(directory)) != nil, let file = try? AtomicFile(path: location.indexPath) else {
        return nil
      }
      self.location = location
      self.file = file
      failed = (try? file.write(PointIndex.magic)) == nil
    }

    /// Notes a record about to be folded into `state`: every ``blockRecords``
    /// records starts a block, or every as many records as the state has
    /// controllers when it has more.
    ///
    /// Implementation note: a state costs its controllers to write, so a block
    /// at least as long as the state is large keeps the index's size and the
    /// time to build it linear in the journal's, even for a journal of a
    /// million controllers.
    @inline(__always)
    func record(_ record: Record, offset: Int64, before state: State) {
      if blocks.isEmpty
        || blocks[blocks.count - 1].records >= max(PointIndex.blockRecords, state.controllerCount)
      {
        startBlock(offset: offset, state: state)
      }
      blocks[blocks.count - 1].records += 1
      blocks[blocks.count - 1].lowestSeq = min(blocks[blocks.count - 1].lowestSeq, record.seq)
      blocks[blocks.count - 1].highestSeq = max(blocks[blocks.count - 1].highestSeq, record.seq)
    }

    func diagnostic(_ diagnostic: Diagnostic) {
      if diagnostics.count <= PointIndex.maximumDiagnostics { diagnostics.append(diagnostic) }
    }

    @inline(never)
    private func startBlock(offset: Int64, state: State) {
      blocks.append(Block(offset: offset, records: 0, lowestSeq: .max, highestSeq: .min, snapshot: write(state)))
    }

    /// Writes a state; returns where it lies in the file and its CRC-32.
    private func write(_ state: State) -> StoredState {
      out.removeAll()
      state.snapshot(into: &out)
      let start = written
      if !failed { failed = (try? file.write(out.bytes)) == nil }
      written += Int64(out.bytes.count)
      return StoredState(range: start..<written, checksum: PointIndex.crc32(out.bytes))
    }

    /// Writes the table and puts the index in place, unless the journal changed
    /// while it was read or has too many findings (then there is no index).
    func finish(final state: State, hadErrors: Bool, seqRange: ClosedRange<Int>?) {
      guard !failed, diagnostics.count <= PointIndex.maximumDiagnostics,
        Source(path: location.source.path, options: location.source.options) == location.source,
        let sample = PointIndex.sample(location.source.path, blocks: blocks, size: location.source.file.size)
      else { return file.abandon() }
      let index = PointIndex(
        source: location.source, sample: sample, blocks: blocks, final: write(state), diagnostics: diagnostics,
        hadErrors: hadErrors, seqRange: seqRange)
      out.removeAll()
      index.table(into: &out)
      let offset = (0..<8).map { UInt8(truncatingIfNeeded: written >> (8 * $0)) }
      let checksum = PointIndex.crc32(out.bytes, PointIndex.crc32(PointIndex.magic + offset))
      let tail = out.bytes + (0..<4).map { UInt8(truncatingIfNeeded: checksum >> (8 * $0)) } + offset
      guard (try? file.write(tail)) != nil, (try? file.commit()) != nil else { return file.abandon() }
    }
  }
}

// MARK: The table

extension PointIndex {
  fileprivate func table(into out: inout SnapshotWriter) {
    out.string(source.path)
    for value in [source.file.size, source.file.modified, source.file.changed] { out.int(Int(value)) }
    out.unsigned(source.file.identity.device)
    out.unsigned(source.file.identity.inode)
    out.bool(source.options.strict)
    out.int(source.options.limits.maxLineLength)
    out.int(source.options.limits.maxDepth)
    out.unsigned(sample)
    out.int(blocks.count)
    for block in blocks {
      for value in [Int(block.offset), block.records, block.lowestSeq, block.highestSeq] { out.int(value) }
      block.snapshot.table(into: &out)
    }
    final.table(into: &out)
    out.int(diagnostics.count)
    for d in diagnostics {
      out.string(d.rule.id)
      out.bool(d.severity == .error)
      out.int(d.line)
      out.optional(d.column) { $0.int($1) }
      out.optional(d.seq) { $0.int($1) }
      out.optional(d.offset) { $0.int(Int($1)) }
      out.optional(d.length) { $0.int($1) }
      out.string(d.message)
      // The reader's findings name no controllers and no move: kept in the layout all the same.
      out.int(0)
      out.bool(false)
    }
    out.bool(hadErrors)
    out.optional(seqRange) { out, range in
      out.int(range.lowerBound)
      out.int(range.upperBound)
    }
  }

  fileprivate init(table input: inout SnapshotReader) throws(SnapshotReader.Damaged) {
    let path = try input.string()
    let file = FileStamp(
      size: Int64(try input.int()), modified: Int64(try input.int()), changed: Int64(try input.int()),
      identity: FileIdentity(device: try input.unsigned(), inode: try input.unsigned()))
    var options = ReadOptions(strict: try input.bool())
    options.limits = DecodeLimits(maxLineLength: try input.int(), maxDepth: try input.int())
    source = Source(path: path, file: file, options: options)
    sample = try input.unsigned()
    blocks = []
    for _ in 0..<(try input.int(in: 0...Int(Int32.max))) {
      let offset = Int64(try input.int())
      let records = try input.int()
      let lowest = try input.int()
      let highest = try input.int()
      blocks.append(
        Block(
          offset: offset, records: records, lowestSeq: lowest, highestSeq: highest,
          snapshot: try StoredState(table: &input)))
    }
    final = try StoredState(table: &input)
    diagnostics = []
    for _ in 0..<(try input.int(in: 0...PointIndex.maximumDiagnostics)) {
      guard let rule = FormatRule(rawValue: try input.string()) else {
        throw SnapshotReader.Damaged(offset: input.position)
      }
      var d = Diagnostic(
        rule: rule, severity: try input.bool() ? .error : .warning, line: try input.int(), message: "")
      d.column = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.int() }
      d.seq = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.int() }
      d.offset = try input.optional { (input) throws(SnapshotReader.Damaged) in Int64(try input.int()) }
      d.length = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.int() }
      d.message = try input.string()
      for _ in 0..<(try input.int(in: 0...Int(Int32.max))) { _ = try input.string() }
      _ = try input.optional { (input) throws(SnapshotReader.Damaged) in try input.int() }
      diagnostics.append(d)
    }
    hadErrors = try input.bool()
    seqRange = try input.optional { (input) throws(SnapshotReader.Damaged) in
      let lower = try input.int()
      let upper = try input.int()
      guard lower <= upper else { throw SnapshotReader.Damaged(offset: input.position) }
      return lower...upper
    }
  }
}

extension PointIndex.StoredState {
  /// Its start, end and checksum, in the table.
  fileprivate func table(into out: inout SnapshotWriter) {
    out.int(Int(range.lowerBound))
    out.int(Int(range.upperBound))
    out.unsigned(UInt64(checksum))
  }

  fileprivate init(table input: inout SnapshotReader) throws(SnapshotReader.Damaged) {
    let start = Int64(try input.int())
    let end = Int64(try input.int())
    let checksum = try input.unsigned()
    guard start <= end, checksum <= UInt32.max else { throw SnapshotReader.Damaged(offset: input.position) }
    self.init(range: start..<end, checksum: UInt32(checksum))
  }
}

// MARK: Files

extension PointIndex {
  /// A hash of the first 4 KiB of every block and of the last 64 KiB of the journal.
  static func sample(_ path: String, blocks: [Block], size: Int64) -> UInt64? {
    var hash = fnvOffsetBasis
    for block in blocks {
      guard let bytes = read(path, count: Int(min(4096, size - block.offset)), at: block.offset) else { return nil }
      hash = fnv1a(bytes, hash)
    }
    let tail = min(size, 65_536)
    guard let bytes = read(path, count: Int(tail), at: size - tail) else { return nil }
    return fnv1a(bytes, hash)
  }

  /// `count` bytes of a file from `offset` (from the end when nil); nil when it cannot be read.
  static func read(_ path: String, count: Int, at offset: Int64?) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0, count >= 0 else { return nil }
    defer { close(fd) }
    var start = offset ?? 0
    if offset == nil {
      let end = lseek(fd, 0, SEEK_END)
      guard end >= count else { return nil }
      start = Int64(end) - Int64(count)
    }
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = bytes.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + done, count - done, off_t(start) + off_t(done))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      done += n
    }
    return bytes
  }

  /// The CRC-32 (zlib's) of `bytes`, continuing from `start`.
  static func crc32(_ bytes: [UInt8], _ start: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      var crc = UInt(start)
      var offset = 0
      while offset < buffer.count {
        let count = min(buffer.count - offset, 1 << 30)
        crc = CZlib.crc32(crc, buffer.baseAddress! + offset, uInt(count))
        offset += count
      }
      return UInt32(truncatingIfNeeded: crc)
    }
  }

  private static func fileSize(_ path: String) -> Int64? {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_size) : nil
  }
}

private let fnvOffsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

/// FNV-1a, 64 bits: a hash of bytes that is the same in every process (Swift's `Hasher` is seeded per process).
private func fnv1a(_ bytes: [UInt8], _ start: UInt64 = fnvOffsetBasis) -> UInt64 {
  var hash = start
  for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
  return hash
}

private func hex(_ value: UInt64) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 16 - digits.count) + digits
}
