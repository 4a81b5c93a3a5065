import Journal
import Projection

/// Where `export` writes a table: standard output, one file, or one file per
/// partition in a Hive-style layout (`DIR/build=B/session=S/part.ndjson`).
///
/// Rows are encoded into one buffer and written in blocks of 256 KiB. Files
/// are ``AtomicFile``s, renamed into place by ``finish(_:)``. In the
/// partitioned layout up to ``openPartitions`` files stay open (unnamed until
/// complete, so a killed export leaves nothing); past that, the one written
/// least recently is set aside (named `.part.ndjson.tmp-PID` and closed).
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
  private var partitions: [String: AtomicFile] = [:]
  /// Keys of `partitions` in creation order (committed in that order).
  private var partitionOrder: [String] = []
  private var active: AtomicFile?
  /// Whether the partition of the current context is the active one.
  private var partitionChosen = false
  /// Partitions with a descriptor open, the most recently written last.
  private var openNames: [String] = []
  /// Partition files kept open at most (descriptors are limited, 1,024 by default).
  static let openPartitions = 64
  private static let blockSize = 1 << 18

  /// Opens the destination; a single file gets its header at once.
  /// - Throws: ``CommandFailure`` if the file or directory cannot be created.
  init(table: Table, format: TableFormat, destination: Destination) throws(CommandFailure) {
    encoder = TableEncoder(table: table, format: format)
    self.destination = destination
    buffer.reserveCapacity(Self.blockSize + (1 << 16))
    switch destination {
    case .standardOutput:
      encoder.appendHeader(to: &buffer)
    case .file(let path):
      single = try AtomicFile(path: path)
      encoder.appendHeader(to: &buffer)
    case .partitions(let directory, _):
      try makeDirectories(directory)
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
    for row in rows { encoder.append(row, to: &buffer) }
    if buffer.count >= Self.blockSize { try flush(&stdout) }
  }

  /// Appends rows of the current context that ``encoder`` has already encoded (on another thread).
  mutating func append(encoded bytes: some Collection<UInt8>, _ stdout: inout FileOutput) throws(CommandFailure) {
    guard !bytes.isEmpty else { return }
    if !partitionChosen { try choosePartition(&stdout) }
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.blockSize { try flush(&stdout) }
  }

  /// In the partitioned layout, makes the current context's partition the active one.
  private mutating func choosePartition(_ stdout: inout FileOutput) throws(CommandFailure) {
    partitionChosen = true
    guard case .partitions(let directory, let keys) = destination else { return }
    let name = PartitionPath.directory(keys, encoder.context)
    if let file = partitions[name], file === active { return }
    try flush(&stdout)
    openNames.removeAll { $0 == name }
    openNames.append(name)
    if openNames.count > Self.openPartitions {
      try partitions[openNames.removeFirst()]?.suspend()
    }
    if let file = partitions[name] {
      active = file
      return
    }
    let folder = directory + "/" + name
    try makeDirectories(folder)
    let file = try AtomicFile(path: folder + "/" + PartitionPath.fileName(encoder.format))
    partitions[name] = file
    partitionOrder.append(name)
    active = file
    encoder.appendHeader(to: &buffer)
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
      guard let active else { preconditionFailure("rows before any context") }
      try active.write(buffer)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes the rest and renames every file into place.
  mutating func finish(_ stdout: inout FileOutput) throws(CommandFailure) {
    try flush(&stdout)
    active = nil
    try single?.commit()
    for name in partitionOrder { try partitions[name]!.commit() }
  }

  /// Removes every temporary file; no target is touched.
  mutating func abandon() {
    single?.abandon()
    for file in partitions.values { file.abandon() }
  }

  /// The partition directories written, in creation order.
  var partitionNames: [String] { partitionOrder }
}
