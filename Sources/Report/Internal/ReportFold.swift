import Journal
import Projection

/// The page's builder stepping through the checker's fold (a ``FoldConsumer``):
/// on the checker's thread, with the checker's state, so that the report folds
/// the journal once.
///
/// The builder starts with the state before the window's first event, steps
/// with the state after each of its events, and ends with the state after its
/// last one: the state before the first record past the window, kept then (a
/// copy that shares the checker's storage until the checker's next change), or
/// the checker's at the end of the journal.
struct ReportFold: FoldConsumer {
  private var window: ReportWindow
  private(set) var builder: ReportRunBuilder
  /// Whether the builder has begun, and whether the window has ended (the records since are not stepped).
  private(set) var begun = false
  private var closed = false
  /// Whether the record being folded is one of the window's events.
  private var shown = false
  /// The state after the window's last event, once a record past it came.
  private(set) var stateAfterWindow: State?

  init(window: ReportWindow, builder: ReportRunBuilder) {
    self.window = window
    self.builder = builder
  }

  mutating func willFold(_ record: Record, state: State) {
    shown = window.take(record).shown
    if shown && !begun {
      begun = true
      builder.begin(state)
    } else if begun && !shown && !closed {
      closed = true
      stateAfterWindow = state
    }
  }

  mutating func didFold(_ record: Record, state: State) {
    if shown { builder.step(record, state) }
  }
}
