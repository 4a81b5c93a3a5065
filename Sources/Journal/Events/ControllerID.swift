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

  /// Whether the id satisfies the format's rule (non-empty, at most 256 bytes):
  /// the one definition the decoder, the navigator and the scenario parser check.
  public var isValid: Bool { !rawValue.isEmpty && rawValue.utf8.count <= Self.maximumLength }
}
