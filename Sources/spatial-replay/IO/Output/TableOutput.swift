import Journal
import Projection
import Rendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `export` writes a table: standard output, one file, or one file per
/// partition in a Hive-style layout (`DIR/build=B/session=S/part.ndjson`).
///
/// Rows are encoded into one buffer and written in blocks of 256 KiB. Files
/// are ``AtomicFile``s, renamed into place by ``finish(_:)``. In the
/// partitioned layout up to ``openPartitions`` files stay open (unnamed until
/// complete, so a killed export leaves nothing); past that, the one written
/// least recently is set aside (named `.part.ndjson.tmp-PID` and closed).
///
/// In Parquet, each file has its ``ParquetWriter``, which holds its rows until a row
/// group is full; the writers of all partitions hold at most ``parquetBudget`` bytes
/// together (past that, the one holding most writes its row group), so memory stays
/// about one row group however many partitions there are.
struct TableOutput {
  enum Destination {
    case standardOutput
    case file(String)
    /// One directory level per key, in this order.
    case partitions(directory: String, keys: [PartitionKey])
  }

  private(set) var encoder: TableEncoder
  let destination: Destination
  private var buffer: [UInt8] = []
  private var single: AtomicFile?
  /// By the bytes of the folder names (``ExactText``): canonically equivalent values are two partitions.
  private var partitions: [ExactText: AtomicFile] = [:]
  /// Keys of `partitions` in creation order (committed in that order).
  private var partitionOrder: [ExactText] = []
  private var active: AtomicFile?
  /// Whether the partition of the current context is the active one.
  private var partitionChosen = false
  /// Partitions with a descriptor open, the most recently written last.
  private var openNames: [ExactText] = []
  /// Directories this output created, parents first: those left empty are removed at the end.
  private var createdDirectories: [String] = []
  /// Partitions whose file could not be made: their rows are dropped, and each is reported.
  private(set) var failures: [PartitionFailure] = []
  private var failedNames: Set<ExactText> = []
  /// Whether the rows of the current context are dropped (its partition failed).
  private var discarding = false
  /// Partition files kept open at most (descriptors are limited, 1,024 by default).
  static let openPartitions = 64
  private static let blockSize = 1 << 18

  /// The Parquet writer of the active file (nil for NDJSON and CSV).
  private var writer: ParquetWriter?
  /// The Parquet writers of the other partitions, by partition directory.
  private var heldWriters: [ExactText: ParquetWriter] = [:]
  /// The partition of `writer`.
  private var writerName = ExactText("")
  /// Bytes the writers in `heldWriters` hold, by partition, and their sum.
  private var heldBytes: [ExactText: Int] = [:]
  private var heldTotal = 0
  /// Spooled Parquet rows that end past the bytes received so far.
  private var pendingSpool: [UInt8] = []
  private var compression = ParquetCompression.none
  /// What the Parquet writers of a partitioned export hold at most, together.
  static let parquetBudget = 2 * ParquetWriter.defaultRowGroupBytes

  /// Opens the destination; a single file gets its header at once.
  /// - Throws: ``CommandFailure`` if the file or directory cannot be created.
  init(
    table: Table, format: TableFormat, compression: ParquetCompression = .none, destination: Destination,
    guardsFormulas: Bool = true
  ) throws(CommandFailure) {
    encoder = TableEncoder(table: table, format: format, guardsFormulas: guardsFormulas)
    self.destination = destination
    self.compression = compression
    buffer.reserveCapacity(Self.blockSize + (1 << 16))
    if format == .parquet, case .partitions = destination {
    } else if format == .parquet {
      writer = ParquetWriter(table: table, compression: compression)
    }
    switch destination {
    case .standardOutput:
      encoder.appendHeader(to: &buffer)
    case .file(let path):
      single = try AtomicFile(path: path)
      encoder.appendHeader(to: &buffer)
    case .partitions(let directory, _):
      try makeDirectories(directory, created: &createdDirectories)
    }
  }

  /// The common columns of the rows that follow (in the partitioned layout, also their
  /// partition, opened when the first of those rows comes).
  mutating func setContext(_ context: RowContext, _ stdout: inout FileOutput) throws(CommandFailure) {
    guard context != encoder.context else { return }
    if case .partitions = destination, !buffer.isEmpty { try flush(&stdout) }
    encoder.context = context
    partitionChosen = false
  }

  /// Appends rows (of the current context).
  mutating func append(_ rows: [TableRow], _ stdout: inout FileOutput) throws(CommandFailure) {
    guard !rows.isEmpty else { return }
    if !partitionChosen { try choosePartition(&stdout) }
    if encoder.format == .parquet { return try appendParquet(rows, &stdout) }
    // Written out block by block, not after the whole batch: the common columns (a long
    // build in the header) are repeated in every row, so a batch's rows may encode to
    // gigabytes.
    for row in rows {
      encoder.append(row, to: &buffer)
      if buffer.count >= Self.blockSize { try flush(&stdout) }
    }
  }

  /// Appends rows of the current context that ``encoder`` has already encoded (on another thread).
  mutating func append(encoded bytes: some Collection<UInt8>, _ stdout: inout FileOutput) throws(CommandFailure) {
    guard !bytes.isEmpty else { return }
    if !partitionChosen { try choosePartition(&stdout) }
    if encoder.format == .parquet { return try appendSpooled(bytes, &stdout) }
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.blockSize { try flush(&stdout) }
  }

  private mutating func appendParquet(_ rows: [TableRow], _ stdout: inout FileOutput) throws(CommandFailure) {
    // The rows of a journal whose partition failed are dropped, as the text formats drop them.
    guard !discarding else { return }
    guard var writer = writer.take() else { preconditionFailure("Parquet rows without a writer") }
    writer.context = encoder.context
    for row in rows {
      writer.append(row)
      if writer.isRowGroupFull {
        writer.writeRowGroup(to: &buffer)
        self.writer = writer
        try flush(&stdout)
        writer = self.writer.take()!
      }
    }
    self.writer = writer
  }

  /// Spooled rows (``TableRow/appendSpooled(to:)``), which may end inside a row: the rest waits.
  private mutating func appendSpooled(_ bytes: some Collection<UInt8>, _ stdout: inout FileOutput)
    throws(CommandFailure)
  {
    pendingSpool.append(contentsOf: bytes)
    var rows: [TableRow] = []
    var offset = 0
    pendingSpool.withUnsafeBytes { all in
      while let row = TableRow.spooled(all, at: &offset) { rows.append(row) }
    }
    pendingSpool.removeSubrange(..<offset)
    try appendParquet(rows, &stdout)
  }

  /// Keeps the Parquet writers of the partitions not being written under ``parquetBudget``:
  /// the one holding most writes its row group.
  private mutating func limitHeldParquet() throws(CommandFailure) {
    while heldTotal > Self.parquetBudget, let (name, bytes) = heldBytes.max(by: { $0.value < $1.value }) {
      var out: [UInt8] = []
      heldWriters[name]!.writeRowGroup(to: &out)
      try writeHeld(out, to: name)
      heldBytes[name] = 0
      heldTotal -= bytes
    }
  }

  /// In the partitioned layout, makes the current context's partition the active one.
  private mutating func choosePartition(_ stdout: inout FileOutput) throws(CommandFailure) {
    partitionChosen = true
    guard case .partitions(let directory, let keys) = destination else { return }
    let name = ExactText(PartitionPath.directory(keys, encoder.context))
    if let file = partitions[name], file === active { return }
    try flush(&stdout)
    discarding = false
    let folder = directory + "/" + name.text
    if failedNames.contains(name) {
      noteFailure(folder: folder, reason: nil)
      return
    }
    openNames.removeAll { $0 == name }
    openNames.append(name)
    if openNames.count > Self.openPartitions {
      try partitions[openNames.removeFirst()]?.suspend()
    }
    if let file = partitions[name] {
      if encoder.format == .parquet { try switchWriter(to: name) }
      active = file
      return
    }
    let file: AtomicFile
    do {
      try makeDirectories(folder, created: &createdDirectories)
      try Self.refuseLinksOut(of: directory, to: folder)
      file = try AtomicFile(path: folder + "/" + PartitionPath.fileName(encoder.format))
    } catch {
      // One journal's partition that cannot be made costs its rows, not the other journals'.
      openNames.removeLast()
      failedNames.insert(name)
      noteFailure(folder: folder, reason: error.message)
      return
    }
    partitions[name] = file
    partitionOrder.append(name)
    if encoder.format == .parquet { try switchWriter(to: name) }
    active = file
    encoder.appendHeader(to: &buffer)
  }

  /// Refuses a partition `folder` that a symbolic link below the output `directory` leads out
  /// of it (`DIR/session=S` a link to the folder of an input): nothing is written through it.
  private static func refuseLinksOut(of directory: String, to folder: String) throws(CommandFailure) {
    func resolved(_ path: String) -> String? {
      guard let real = realpath(path, nil) else { return nil }
      defer { free(real) }
      return String(cString: real)
    }
    guard let top = resolved(directory), let below = resolved(folder),
      below.hasPrefix(top == "/" ? "/" : top + "/")
    else {
      throw CommandFailure(
        "\(displayText(folder, limit: .max)): a symbolic link leads out of the output folder; nothing is written through it"
      )
    }
  }

  /// Drops the rows of the current context: its partition `folder` failed (`reason` the first time).
  private mutating func noteFailure(folder: String, reason: String?) {
    active = nil
    discarding = true
    let journal = encoder.context.file
    if let known = failures.firstIndex(where: { $0.folder == folder }) {
      if !failures[known].journals.contains(journal) { failures[known].journals.append(journal) }
    } else {
      failures.append(PartitionFailure(folder: folder, reason: reason ?? "cannot be written", journals: [journal]))
    }
  }

  /// Writes to a partition that is not the active one, leaving it closed if it was.
  private mutating func writeHeld(_ bytes: [UInt8], to name: ExactText) throws(CommandFailure) {
    guard let file = partitions[name] else { preconditionFailure("no partition \(name)") }
    try file.write(bytes)
    if !openNames.contains(name) { try file.suspend() }
  }

  /// Sets the active partition's Parquet writer aside and takes the one of `name` (new if need be).
  private mutating func switchWriter(to name: ExactText) throws(CommandFailure) {
    if let writer = writer.take() {
      let bytes = writer.bufferedBytes
      heldWriters[writerName] = writer
      heldBytes[writerName] = bytes
      heldTotal += bytes
    }
    writerName = name
    if let writer = heldWriters.removeValue(forKey: name) {
      heldTotal -= heldBytes.removeValue(forKey: name) ?? 0
      self.writer = writer
    } else {
      writer = ParquetWriter(table: encoder.table, compression: compression)
    }
    try limitHeldParquet()
  }

  /// Writes what is buffered to the current destination.
  private mutating func flush(_ stdout: inout FileOutput) throws(CommandFailure) {
    guard !buffer.isEmpty else { return }
    switch destination {
    case .standardOutput:
      stdout.write(bytes: buffer)
    case .file:
      try single!.write(buffer)
    case .partitions:
      guard let active else {
        precondition(discarding, "rows before any context")
        break
      }
      try active.write(buffer)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes the rest and renames every file into place.
  mutating func finish(_ stdout: inout FileOutput) throws(CommandFailure) {
    if encoder.format == .parquet {
      precondition(pendingSpool.isEmpty, "spooled Parquet rows cut short")
      writer?.finish(to: &buffer)
      try flush(&stdout)
      for (name, var held) in heldWriters {
        var out: [UInt8] = []
        held.finish(to: &out)
        try writeHeld(out, to: name)
      }
      heldWriters = [:]
      writer = nil
    }
    try flush(&stdout)
    active = nil
    try single?.commit()
    for name in partitionOrder { try partitions[name]!.commit() }
    removeEmptyDirectories()
  }

  /// Removes every temporary file, and the directories made for them; no target is touched.
  mutating func abandon() {
    single?.abandon()
    for file in partitions.values { file.abandon() }
    removeEmptyDirectories()
  }

  /// Removes the directories this output made that hold nothing (a partition that
  /// failed, or an export abandoned), children first; `rmdir` leaves any other.
  private mutating func removeEmptyDirectories() {
    for directory in createdDirectories.reversed() { rmdir(directory) }
    createdDirectories = []
  }
}

/// A partition of `export --partition` whose file could not be made, and the journals whose rows it lost.
struct PartitionFailure: Equatable {
  var folder: String
  var reason: String
  var journals: [String]

  /// The report: one line of at most `limit` characters, however long the paths.
  func message(limit: Int = 470) -> String {
    let names = journals.prefix(3).map { displayText($0, limit: .max) }.joined(separator: ", ")
    let more = journals.count > 3 ? " and \(journals.count - 3) more" : ""
    let text = "\(displayText(reason, limit: .max)) (the rows of \(names)\(more) are not written)"
    guard text.count > limit else { return text }
    // Keep both ends: the start names the folder, the end the journals.
    return String(text.prefix(limit / 2 - 1)) + "…" + String(text.suffix(limit / 2))
  }
}
