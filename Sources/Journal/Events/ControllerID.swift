/// The id of one controller instance: a non-empty string of at most 256 bytes,
/// unique within a session and never reused.
public struct ControllerID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The id as it appears in the journal.
  public let rawValue: String

  /// The longest id the format allows, in UTF-8 bytes.
  public static let maximumLength = 256

  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }

  public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Whether two ids are the same string.
  ///
  /// Implementation note: the fold and the checker compare ids at every
  /// event (the ends of the transition, the last ids looked up), mostly ids
  /// that differ. Ids of different UTF-8 lengths are told apart at once;
  /// `String`'s `==` otherwise, which returns at once for two ids that share
  /// their storage (the decoder hands a repeated id out so) and else compares
  /// the bytes through the runtime (measured: Benchmarks/README.md#figures-behind-the-notes). Two strings of
  /// different lengths are different ids even when Unicode calls them
  /// canonically equivalent: a journal's id is its bytes.
  @inlinable
  public static func == (lhs: ControllerID, rhs: ControllerID) -> Bool {
    lhs.rawValue.utf8.count == rhs.rawValue.utf8.count && lhs.rawValue == rhs.rawValue
  }

  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue)
  }

  /// Whether the id satisfies the format's rule (non-empty, at most 256 bytes):
  /// the one definition the decoder, the navigator and the scenario parser check.
  public var isValid: Bool { !rawValue.isEmpty && rawValue.utf8.count <= Self.maximumLength }
}
