import Journal
import Projection
import Recording
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the segments of one session (`BASE.000001.ndjson`, `BASE.000002.ndjson.gz`, …, as the
/// `Recording` library's `SessionRecorder` writes them) as one journal.
///
/// Among the inputs, files named like segments whose header has a `segment` key are grouped by
/// session and base; each run of consecutive segments (by index, each starting where the one
/// before it ended) becomes one journal: the first segment whole (its rebuilt state too, when
/// it is not the session's first), then each later one without its header and rebuilt state
/// (up to its `replayable.start` mark), seqs following on and `sourceSeq` dropped. That
/// journal is written to a temporary file, removed at exit, which stands in the list where
/// the run's first segment was. A segment with any finding of the reader (a torn tail, a bad
/// line) is not joined: it is read as it is, so that the finding names the real file.
enum SegmentJoin {
  /// The temporary folder of joined journals (created on first use, removed at exit).
  private static let folder = Mutex<String?>(nil)

  /// The segments each joined journal was made of, so that an output is never one of them.
  private static let joinedFrom = Mutex<[String: [String]]>([:])

  /// The segments `path` was joined from (none for any other path).
  static func segments(joinedInto path: String) -> [String] { joinedFrom.withLock { $0[path] ?? [] } }

  /// `paths` with each run of segments of one session replaced by one joined journal.
  static func join(_ paths: [String]) -> [String] {
    var candidates: [Int: Segment] = [:]
    for (position, path) in paths.enumerated() where path != "-" {
      guard let parsed = SegmentName.parse(path),
        let segment = Segment(path: path, index: parsed.index, base: parsed.base)
      else { continue }
      candidates[position] = segment
    }
    guard candidates.count >= 2 else { return paths }
    var groups: [String: [(position: Int, segment: Segment)]] = [:]
    for (position, segment) in candidates { groups[segment.key, default: []].append((position, segment)) }
    var replaced: [Int: String] = [:]
    var dropped = Set<Int>()
    for (_, members) in groups.sorted(by: { $0.key < $1.key }) {
      var seen = Set<Int>()
      let sorted = members.sorted { ($0.segment.index, $0.position) < ($1.segment.index, $1.position) }.filter {
        // A segment found twice (compressed and not, after a crash between the two): read once.
        if seen.insert($0.segment.index).inserted { return true }
        dropped.insert($0.position)
        return false
      }
      var run: [(position: Int, segment: Segment)] = []
      func flush() {
        defer { run = [] }
        guard run.count >= 2, let joined = joined(run.map(\.segment)) else { return }
        replaced[run[0].position] = joined
        joinedFrom.withLock { $0[joined] = run.map(\.segment.path) }
        for member in run.dropFirst() { dropped.insert(member.position) }
      }
      for member in sorted {
        if let last = run.last, last.segment.index + 1 != member.segment.index { flush() }
        run.append(member)
      }
      flush()
    }
    guard !replaced.isEmpty || !dropped.isEmpty else { return paths }
    return paths.enumerated().compactMap { position, path in
      if let joined = replaced[position] { return joined }
      return dropped.contains(position) ? nil : path
    }
  }

  /// A segment among the inputs: its path, index and the session its header names.
  private struct Segment {
    var path: String
    var index: Int
    var key: String

    /// Reads the header; nil unless it is a segment's (a `session` line with a `segment` key equal to the name's index).
    init?(path: String, index: Int, base: String) {
      guard let reader = try? JournalReader(path: path), case .record(let record, _, _)? = reader.next(),
        case .session(let header) = record.event,
        record.extra.contains(where: { $0.key == SegmentName.segmentKey && $0.value.text == String(index) })
      else { return nil }
      self.path = path
      self.index = index
      key = header.session + "\u{0}" + base
    }
  }

  /// Writes the run as one journal; nil (the segments then read as they are) when a segment has a
  /// finding of the reader or does not start where the one before ended.
  private static func joined(_ run: [Segment]) -> String? {
    var out: [UInt8] = []
    var encoder = RecordEncoder()
    var seq = 0
    var nextSource: Int?
    for (k, segment) in run.enumerated() {
      guard let reader = try? JournalReader(path: segment.path) else { return nil }
      var inPrefix = k > 0
      var first = true
      while let item = reader.next() {
        guard case .record(var record, _, _) = item else { return nil }
        // A mark's further keys are its fields; other events' are extra keys.
        var fields: [Field] {
          if case .mark(_, let fields) = record.event { return fields }
          return record.extra
        }
        let source = fields.first { $0.key == ReplayableSlice.sourceSeqKey }.flatMap { Int($0.value.text) }
        if k > 0 {
          if first {
            first = false
            continue  // the header
          }
          if inPrefix {
            if case .mark(let label, let fields) = record.event, label == ReplayableSlice.markLabel {
              inPrefix = false
              let from = fields.first { $0.key == "from" }.flatMap { Int($0.value.text) }
              guard from == nil || from == nextSource else { return nil }
            }
            continue
          }
          guard source == nil || nextSource == nil || source == nextSource else { return nil }
          record.extra.removeAll { $0.key == ReplayableSlice.sourceSeqKey }
          if case .mark(let label, var fields) = record.event {
            fields.removeAll { $0.key == ReplayableSlice.sourceSeqKey }
            record.event = .mark(label: label, fields: fields)
          }
        }
        nextSource = (source ?? (k == 0 ? record.seq : (nextSource ?? 0))) + 1
        record.seq = seq
        seq += 1
        encoder.encode(record, into: &out)
        out.append(UInt8(ascii: "\n"))
      }
      guard reader.readError == nil, k == 0 || !inPrefix else { return nil }
    }
    guard let folder = temporaryFolder() else { return nil }
    // `notes.000001-000004.ndjson`: the base's name and the run's first and last index.
    let last = SegmentName.path(base: "", index: run[run.count - 1].index, compressed: false).dropFirst().prefix {
      $0 != "."
    }
    let first = String(run[0].path.split(separator: "/").last ?? "segments").replacingSuffix(".gz")
      .replacingSuffix(".ndjson")
    let path = "\(folder)/\(first)-\(last).ndjson"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var done = 0
    while done < out.count {
      let n = out.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      done += n
    }
    return path
  }

  private static func temporaryFolder() -> String? {
    folder.withLock { folder in
      if let folder { return folder }
      let root = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
      var template = Array("\(root)/spatial-replay-segments.XXXXXX".utf8CString)
      guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
      folder = String(cString: made)
      atexit { SegmentJoin.removeTemporaryFolder() }
      return folder
    }
  }

  private static func removeTemporaryFolder() {
    guard let folder = folder.withLock({ $0 }) else { return }
    if let handle = opendir(folder) {
      while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { unlink("\(folder)/\(name)") }
      }
      closedir(handle)
    }
    rmdir(folder)
  }
}

extension String {
  fileprivate func replacingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
