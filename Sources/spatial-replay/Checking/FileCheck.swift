import Journal

/// The checks run over one journal, fed the reader's items in file order.
///
/// The format-level findings come from the reader itself; analyses that need
/// the records (lifecycle rules) plug in at ``consume(_:)``, where each record
/// passes by once, and report their findings in file order with the reader's.
struct FileCheck {
  struct Counts {
    var events = 0
    var errors = 0
    var warnings = 0

    mutating func add(_ other: Counts) {
      events += other.events
      errors += other.errors
      warnings += other.warnings
    }

    /// `1,000,000 events, 0 errors, 1 warning`.
    var text: String { "\(events.counted("event")), \(errors.counted("error")), \(warnings.counted("warning"))" }
  }

  private(set) var counts = Counts()

  /// Takes the reader's next item; returns the findings to print for it, in order.
  mutating func consume(_ item: JournalItem) -> [Diagnostic] {
    switch item {
    case .record:
      counts.events += 1
      return []
    case .diagnostic(let diagnostic):
      count(diagnostic)
      return [diagnostic]
    }
  }

  private mutating func count(_ diagnostic: Diagnostic) {
    switch diagnostic.severity {
    case .error: counts.errors += 1
    case .warning: counts.warnings += 1
    }
  }
}
