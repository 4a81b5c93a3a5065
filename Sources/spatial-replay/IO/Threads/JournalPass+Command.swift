import Journal
import Projection

extension JournalPass {
  /// Opens a journal for a command that reads many (`stats`, `export`): on
  /// failure, ends the progress bar, reports the error and returns nil.
  static func open(
    _ path: String, options: ReadOptions, checking: CheckerPass? = nil, progress: inout FileProgress,
    context: inout Context
  ) -> JournalPass? {
    do {
      return try JournalPass(path: path, options: options, checking: checking)
    } catch {
      progress.finish(&context.stderr)
      context.error(displayText(error.description, limit: .max))
      return nil
    }
  }

  /// After the last batch: reports a read error (ending the progress bar first).
  /// - Returns: true when the journal was read to its end.
  func readToTheEnd(progress: inout FileProgress, context: inout Context) -> Bool {
    guard let error = readError else { return true }
    progress.finish(&context.stderr)
    context.error(displayText(error.description, limit: .max))
    return false
  }
}
