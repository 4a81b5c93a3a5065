/// What a finding found, kept as data by the layer that found it and put into
/// words only by an output that shows it (the lifecycle checker's `Finding`
/// in `Projection`): a check that only counts its findings renders none.
///
/// The reader's own findings carry a sentence instead (``Diagnostic/Content/sentence(_:)``).
public protocol DiagnosticFact: Sendable {
  /// The sentence saying what was found, with plain ASCII arrows and marks for
  /// `ascii` (`check --ascii`), Unicode ones otherwise.
  func message(ascii: Bool) -> String
  /// Whether `other` is the same fact.
  func isEqual(to other: any DiagnosticFact) -> Bool
  func hash(into hasher: inout Hasher)
}

extension DiagnosticFact where Self: Hashable {
  public func isEqual(to other: any DiagnosticFact) -> Bool { (other as? Self) == self }
}
