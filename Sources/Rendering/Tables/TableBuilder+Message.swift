import Projection

extension TableBuilder {
  /// A builder of `table`'s rows whose findings say what was found as `check` prints it (Unicode marks).
  ///
  /// - Parameters:
  ///   - table: the table to build.
  ///   - file: the journal's path, for the `file` column.
  public init(table: Table, file: String) {
    self.init(table: table, file: file, message: { $0.message })
  }
}
