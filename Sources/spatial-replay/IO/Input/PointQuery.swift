import Journal
import Projection

/// The state of a journal after one event (`at`, `map --at`) or after the last
/// (`map`), read in one streaming pass: the records are folded as they are
/// decoded and none is kept.
///
/// Every finding of the whole journal is still printed on stderr, and its
/// errors still decide the exit status, so the pass goes on to the end after
/// the event: from there it only looks at findings and the seq range (for the
/// message when the event is not in the journal).
///
/// ```swift
/// let result = try PointQuery.read(
///   "journal.ndjson", afterSeq: 120, options: ReadOptions(), limit: DiagnosticLimit(), context: &context)
/// result.state.focus
/// ```
///
/// Implementation note: one state needs no ``Timeline`` (every record plus a
/// snapshot every 256 of them): folding while reading keeps memory constant
/// in the journal's size, and decoding runs on the second core
/// (``JournalPass``) while this one folds. Even so a query late in a
/// large journal reads all of it; the point index
/// (``PointIndex``), built by the first query, lets the next ones fold at most
/// one block of 16,384 records from a stored state.
struct PointQuery {
  /// The exit status of the commands that ask for one state (`at`, `map`): what ``read(_:afterSeq:options:limit:context:)``
  /// fails on.
  static let exitStatus = """
    0 fine, 2 the file could not be read, the journal has format errors or
    no event with SEQ (a gap), 64 usage error (SEQ beyond the journal's
    range included).
    """

  /// The state after the event asked for, and whether the journal had errors.
  var state: State
  var hadErrors: Bool
  /// The state after the last event, when asked for (`at --controller`: which ids the journal
  /// allocates at all, to tell an id allocated later from one it never names).
  var final: State? = nil

  /// Reads `path` once, printing its findings on stderr (as many as `limit`
  /// lets through, then the count of the others); from its point
  /// index when it has one that matches it (``PointIndex``), else in full,
  /// building the index on the way.
  /// - Parameters:
  ///   - seq: the event after which the state is wanted (the first record
  ///     with that seq); nil for the state after the last record.
  ///   - wantsFinal: also the state after the last record, as ``final`` (from the index's
  ///     stored final state, else by folding on to the end).
  /// - Throws: a ``CommandFailure`` (exit 2) when the journal cannot be read or has no event `seq`.
  static func read(
    _ path: String, afterSeq seq: Int?, options: ReadOptions, limit: DiagnosticLimit, final wantsFinal: Bool = false,
    context: inout Context
  ) throws(CommandFailure) -> PointQuery {
    let name = JournalInput.displayName(path)
    var shown = ShownFindings(name: name, limit: limit)
    defer { shown.end(&context.stderr) }
    let location = PointIndex.Location(journal: path, options: options, environment: context.environment)
    if let location, let index = PointIndex.load(location),
      let answer = index.state(afterSeq: seq, indexPath: location.indexPath, name: name, options: options)
    {
      var final: State? = nil
      if wantsFinal,
        case .state(let state)? = index.state(
          afterSeq: nil, indexPath: location.indexPath, name: name, options: options)
      {
        final = state
      }
      // An index whose final state cannot be read answers nothing: the journal is read instead.
      if !wantsFinal || final != nil {
        for diagnostic in index.diagnostics { shown.write(diagnostic, &context.stderr) }
        switch answer {
        case .state(let state): return PointQuery(state: state, hadErrors: index.hadErrors, final: final)
        case .notFound(let seq): throw notFound(seq, name: name, range: index.seqRange, hadErrors: index.hadErrors)
        }
      }
    }
    let builder = location.flatMap(PointIndex.Builder.init)
    return try stream(
      path, afterSeq: seq, options: options, index: builder, wantsFinal: wantsFinal, shown: &shown, context: &context)
  }

  /// Reads the whole journal, folding up to `seq` (to the end when an index is being built or the final
  /// state is wanted).
  private static func stream(
    _ path: String, afterSeq seq: Int?, options: ReadOptions, index: PointIndex.Builder?, wantsFinal: Bool,
    shown: inout ShownFindings, context: inout Context
  ) throws(CommandFailure) -> PointQuery {
    let name = JournalInput.displayName(path)
    let reader: JournalPass
    do {
      reader = try JournalPass(
        path: path, options: options, decodingThreads: JournalReader.availableThreads)
    } catch {
      throw CommandFailure(displayText(error.description, limit: .max))
    }
    var state = State()
    var answer: State? = nil
    var hadErrors = false
    var lowest = Int.max
    var highest = Int.min
    while let batch = reader.next() {
      for item in batch.items.items {
        switch item {
        case .diagnostic(let diagnostic):
          shown.write(diagnostic, &context.stderr)
          index?.diagnostic(diagnostic)
          if diagnostic.severity == .error { hadErrors = true }
        case .record(let record, _, let offset):
          // Without an index to build, the fold stops at the event; the rest is only read for its findings.
          if let index {
            index.record(record, offset: offset, before: state)
            reduce(into: &state, record)
          } else if answer == nil || wantsFinal {
            reduce(into: &state, record)
          }
          if answer == nil && record.seq == seq { answer = state }
          lowest = min(lowest, record.seq)
          highest = max(highest, record.seq)
        }
      }
    }
    if let error = reader.readError { throw CommandFailure(displayText(error.description, limit: .max)) }
    let range = lowest <= highest ? lowest...highest : nil
    index?.finish(final: state, hadErrors: hadErrors, seqRange: range)
    guard let seq else { return PointQuery(state: state, hadErrors: hadErrors) }
    guard let answer else { throw notFound(seq, name: name, range: range, hadErrors: hadErrors) }
    return PointQuery(state: answer, hadErrors: hadErrors, final: index != nil || wantsFinal ? state : nil)
  }

  /// Why there is no state after `seq`, naming the journal's seq range.
  @inline(never)
  private static func notFound(_ seq: Int, name: String, range: ClosedRange<Int>?, hadErrors: Bool) -> CommandFailure {
    let name = displayText(name, limit: .max)
    guard let range else { return CommandFailure("\(name) has no events, so no seq \(seq)") }
    if range.contains(seq) {
      return CommandFailure(
        "\(name) has no event with seq \(seq) (its seq range is \(range.lowerBound)…\(range.upperBound), with gaps)")
    }
    // A SEQ outside a sound journal is a mistake in the arguments (64); format errors still win (2).
    return CommandFailure(
      "seq \(seq) is out of range: \(name) has seq \(range.lowerBound)…\(range.upperBound)",
      exitCode: hadErrors ? ExitCode.badInput : ExitCode.usage)
  }
}
