import Projection

extension SnapshotReader.Damaged: CustomStringConvertible {
  /// `damaged snapshot at byte 120`.
  public var description: String { "damaged snapshot at byte \(offset)" }
}
