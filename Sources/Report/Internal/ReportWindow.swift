import Journal

/// Which records of a journal read in file order a page keeps and shows: those
/// from the first whose seq reaches `seqs` to the last before one past it, at
/// most `maxEvents` of them, ending sooner once the records kept hold
/// ``ReportRun/maxWindowBytes``; the records before the window are kept too
/// (the page's fold starts at the first).
///
/// Both threads of a report take every record through one (the checker's, where
/// the page's builder steps, and the page's, which keeps the records): the window
/// depends on the records alone, so the two agree without telling each other.
struct ReportWindow: Sendable {
  let seqs: ClosedRange<Int>?
  /// The most events shown: `maxEvents`, or fewer once the records kept hold too many bytes.
  private(set) var limit: Int
  /// The records read, and those `seqs` selects so far.
  private(set) var total = 0
  private(set) var selected = 0
  private var inWindow = false
  private var pastWindow = false
  private var keptBytes = 0

  init(seqs: ClosedRange<Int>?, maxEvents: Int) {
    self.seqs = seqs
    limit = maxEvents
  }

  /// What becomes of one record.
  struct Take {
    /// The page keeps it (the window's records and those before it).
    var kept: Bool
    /// It is one of the window's events.
    var shown: Bool
  }

  /// Takes the journal's next record.
  mutating func take(_ record: Record) -> Take {
    total += 1
    if !pastWindow {
      if !inWindow && record.seq >= (seqs?.lowerBound ?? .min) { inWindow = true }
      if inWindow && record.seq > (seqs?.upperBound ?? .max) { pastWindow = true }
    }
    if inWindow && !pastWindow { selected += 1 }
    let kept = !pastWindow && selected <= limit
    if kept {
      keptBytes += record.heldBytes
      if keptBytes > ReportRun.maxWindowBytes && selected > 0 && selected < limit { limit = selected }
    }
    return Take(kept: kept, shown: inWindow && !pastWindow && selected <= limit)
  }

  /// Whether the window has ended before the records `seqs` selects (``limit`` cut it).
  var isCut: Bool { selected > limit }
}
