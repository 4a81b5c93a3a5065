import Journal
import Projection
import Rendering

/// Where `export` sends one journal's rows: straight into the table's output
/// (with one job), or encoded into a spool with the common columns of each run
/// of rows (with several), which ``write(to:_:)`` later copies into the output
/// in the journal's turn. Either way the output gets the same bytes.
///
/// It carries the journal's copy of the ``RowFilter`` (the controllers it saw).
///
/// Implementation note: `@unchecked Sendable` because of the direct output, a
/// box around files (classes); a sink holding it is used only by the thread
/// that owns the output (one job), while spooling sinks hold values only.
struct RowSink: @unchecked Sendable {
  private let direct: SharedTableOutput?
  private var encoder: TableEncoder?
  var filter: RowFilter
  private var spool = FileOutput.spool()
  /// The runs of rows in the spool: their common columns and their length in bytes.
  private var runs: [(context: RowContext, bytes: Int)] = []
  private var encoded: [UInt8] = []
  /// Encoded bytes handed to the spool at a time.
  private static let blockSize = 1 << 18

  /// A sink writing to `output` as the rows come.
  init(_ output: SharedTableOutput, filter: RowFilter) {
    direct = output
    self.filter = filter
  }

  /// A sink encoding the rows with `encoder` into a spool.
  init(_ encoder: TableEncoder, filter: RowFilter) {
    direct = nil
    self.encoder = encoder
    self.filter = filter
  }

  /// The common columns of the rows that follow.
  mutating func setContext(_ context: RowContext, _ stdout: inout FileOutput) throws(CommandFailure) {
    if let direct { return try direct.output.setContext(context, &stdout) }
    guard runs.last?.context != context else { return }
    runs.append((context, 0))
    encoder?.context = context
  }

  /// Appends the rows the filter keeps.
  mutating func append(_ rows: [TableRow], _ stdout: inout FileOutput) throws(CommandFailure) {
    let kept = filter.isActive ? rows.filter { filter.selects($0) } : rows
    if let direct { return try direct.output.append(kept, &stdout) }
    guard !kept.isEmpty, let encoder else { return }
    // Spooled block by block: with its common columns a row may encode to a megabyte.
    for (i, row) in kept.enumerated() {
      encoder.append(row, to: &encoded)
      if encoded.count >= Self.blockSize || i == kept.count - 1 {
        spool.write(bytes: encoded)
        runs[runs.count - 1].bytes += encoded.count
        encoded.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Copies the spooled rows into `output`, run by run with their common columns.
  func write(to output: inout TableOutput, _ stdout: inout FileOutput) throws(CommandFailure) {
    guard direct == nil else { return }
    var spool = self.spool
    var runs = self.runs[...]
    var left = runs.first?.bytes ?? 0
    if let first = runs.first { try output.setContext(first.context, &stdout) }
    try spool.drain { (chunk: ArraySlice<UInt8>) throws(CommandFailure) in
      var chunk = chunk
      while !chunk.isEmpty {
        while left == 0 {
          runs.removeFirst()
          guard let run = runs.first else { preconditionFailure("spooled rows past the last run") }
          try output.setContext(run.context, &stdout)
          left = run.bytes
        }
        let piece = chunk.prefix(left)
        try output.append(encoded: piece, &stdout)
        left -= piece.count
        chunk = chunk.dropFirst(piece.count)
      }
    }
    for run in runs.dropFirst() { try output.setContext(run.context, &stdout) }
  }
}

/// The table output of an export, shared by the sink that writes to it directly and
/// the thread that delivers spooled rows.
final class SharedTableOutput {
  var output: TableOutput
  init(_ output: TableOutput) { self.output = output }
}
