import Journal
import Projection
import Rendering

/// One journal loaded for ``Stepper``: its ``Timeline`` (records and
/// snapshots), the findings of `check` and the indexes that make every key
/// answer without scanning the journal (the line of each record, where the
/// moves are, which record each finding belongs to).
///
/// ```swift
/// let journal = try StepperJournal.load(path: "Journals/notes.legacy.ndjson")
/// journal.count                  // records
/// journal.findings.count         // what `check` reports
/// let stepper = Stepper(journal: journal)
/// ```
public struct StepperJournal: Sendable {
  /// The name shown in the header (a path as given, `<stdin>` for `-`).
  public let name: String
  /// The records with their snapshots.
  public let timeline: Timeline
  /// The findings of `check` (reader integrity and lifecycle rules), sorted by
  /// line; empty while they are still being computed (see ``isChecked``).
  public private(set) var findings: [CheckFinding]
  /// False while the check runs in the background (``open(path:name:options:rules:model:glyphs:whenChecked:)``);
  /// ``withFindings(_:)`` gives the journal with its findings.
  public private(set) var isChecked: Bool

  /// 1-based journal line of each record.
  let lines: [Int32]
  /// Index of the record each finding is shown at: the first record on or
  /// after the finding's line (the last record for findings past it).
  private(set) var findingRecords: [Int32]
  /// Indexes of the `move` records, ascending.
  let moves: [Int32]
  /// For each record, the index of the last record at or before it that can
  /// change the map (``Event/mapChange``: its layout or its focus):
  /// records with the same value have the same map.
  let mapVersions: [Int32]
  /// Columns for an id in a box of the map: the widest id the journal
  /// allocates, from 3 to 12, so that boxes keep their width while stepping.
  let mapIDWidth: Int
  /// Every record's search text, built on the first search (shared by the copies).
  let searchIndex: SearchIndex

  /// A journal already read.
  ///
  /// - Parameters:
  ///   - name: shown in the header.
  ///   - records: the records in file order.
  ///   - lines: the 1-based line of each record (nil: record `i` is on line `i + 1`).
  ///   - findings: what `check` found, sorted by line; nil while it is not known yet.
  ///   - interval: records between the timeline's snapshots.
  /// - Complexity: O(n) in the records: the timeline's fold and one scan for the moves.
  public init(
    name: String, records: [Record], lines: [Int]? = nil, findings: [CheckFinding]?,
    interval: Int = Timeline.defaultInterval
  ) {
    precondition(lines == nil || lines!.count == records.count, "one line number per record")
    self.init(
      name: name, records: records, lineNumbers: lines.map { $0.map { Int32(truncatingIfNeeded: $0) } },
      findings: findings, interval: interval)
  }

  /// The designated initialiser, with line numbers as they are kept.
  init(
    name: String, records: [Record], lineNumbers lines: [Int32]?, findings: [CheckFinding]?,
    interval: Int = Timeline.defaultInterval
  ) {
    self.init(
      name: name, timeline: Timeline(records: records, interval: interval), lineNumbers: lines, findings: findings)
  }

  /// A journal whose timeline is built already (``Loader`` folds once for the
  /// check and the timeline, and notes the moves as it reads: `marks`).
  init(
    name: String, timeline: Timeline, lineNumbers lines: [Int32]?, findings: [CheckFinding]?,
    marks: RecordMarks? = nil
  ) {
    self.name = name
    self.timeline = timeline
    let records = timeline.records
    let lines = lines ?? (0..<records.count).map { Int32($0 + 1) }
    self.lines = lines
    let marks =
      marks
      ?? {
        var marks = RecordMarks(expected: records.count)
        for record in records { marks.add(record) }
        return marks
      }()
    precondition(marks.mapVersions.count == records.count, "one map version per record")
    self.moves = marks.moves
    self.mapVersions = marks.mapVersions
    self.mapIDWidth = marks.idWidth
    self.searchIndex = SearchIndex()
    self.findings = findings ?? []
    self.isChecked = findings != nil
    self.findingRecords = Self.records(of: findings ?? [], lines: lines)
  }

  /// The same journal with the findings of its check.
  ///
  /// - Complexity: O(findings).
  public func withFindings(_ findings: [CheckFinding]) -> StepperJournal {
    var journal = self
    journal.findings = findings
    journal.isChecked = true
    journal.findingRecords = Self.records(of: findings, lines: lines)
    return journal
  }

  /// The record each finding is shown at.
  private static func records(of findings: [CheckFinding], lines: [Int32]) -> [Int32] {
    var findingRecords: [Int32] = []
    findingRecords.reserveCapacity(findings.count)
    var r = 0
    for finding in findings {
      // Findings are sorted by line, so the record index only moves forwards.
      while r < lines.count - 1 && Int(lines[r]) < finding.line { r += 1 }
      findingRecords.append(Int32(r))
    }
    return findingRecords
  }

  /// Records in memory, checked here with every lifecycle rule (lines are `index + 1`).
  ///
  /// ```swift
  /// let journal = StepperJournal(name: "fixture", records: navigator.records)
  /// ```
  public init(name: String, records: [Record], rules: RuleSelection = .all) {
    self.init(name: name, records: records, findings: Checker.check(records, rules: rules).map(CheckFinding.rule))
  }

  /// The number of records.
  public var count: Int { timeline.records.count }

  /// Builds the search index now (on a background thread, say) rather than at
  /// the first search, after which every search is a byte scan
  /// (``SearchIndex``).
  public func prepareSearch() {
    _ = searchIndex.text(of: records)
  }

  /// The records.
  public var records: [Record] { timeline.records }

  /// The number of findings shown at or before record `index`.
  ///
  /// - Complexity: O(log findings).
  func findingsThrough(_ index: Int) -> Int {
    Self.upperBound(findingRecords, Int32(clamping: index))
  }

  /// How many moves are at or before record `index`.
  func movesThrough(_ index: Int) -> Int {
    Self.upperBound(moves, Int32(clamping: index))
  }

  /// The first of the ascending `marks` after `index` (`forward`), or the last one before it.
  static func mark(_ marks: [Int32], nextTo index: Int, forward: Bool) -> Int? {
    if forward {
      let k = upperBound(marks, Int32(clamping: index))
      return k < marks.count ? Int(marks[k]) : nil
    }
    let k = upperBound(marks, Int32(clamping: index - 1))
    return k > 0 ? Int(marks[k - 1]) : nil
  }

  /// The number of elements of the ascending `values` that are at most `value`.
  static func upperBound(_ values: [Int32], _ value: Int32) -> Int {
    var lo = 0
    var hi = values.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if values[mid] <= value { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}

/// The moves, map versions and id width of a journal's records, noted one
/// record at a time in file order (see ``StepperJournal/moves``, ``StepperJournal/mapVersions``
/// and ``StepperJournal/mapIDWidth``).
struct RecordMarks: Sendable {
  private(set) var moves: [Int32] = []
  private(set) var mapVersions: [Int32] = []
  private(set) var idWidth = 3
  private var version: Int32 = 0

  /// - Parameter expected: the records expected, to reserve room.
  init(expected: Int = 0) {
    mapVersions.reserveCapacity(expected)
  }

  /// Notes the next record.
  mutating func add(_ record: borrowing Record) {
    let i = Int32(truncatingIfNeeded: mapVersions.count)
    if record.event.mapChange != .nothing { version = i }
    switch record.event {
    case .move:
      moves.append(i)
    case .alloc(let id, _):
      // The longest id (the map narrows it to the width it has), up to what a terminal could show.
      if idWidth < 512 { idWidth = max(idWidth, TextWidth.columns(of: displayText(id.rawValue, limit: 512))) }
    case .session, .root, .link, .unlink, .modal, .touches, .pan, .lifecycle, .dealloc, .mark, .unknown:
      break
    }
    mapVersions.append(version)
  }
}
