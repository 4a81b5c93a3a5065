import Journal

/// What a diff compares: which event types, and how controllers of two runs are matched.
///
/// ```swift
/// var options = DiffOptions()            // lifecycle, move, modal, dealloc, link, unlink; matching .auto
/// options.include("pan")
/// options.exclude("link")
/// options.matching = .className          // the 2nd NotesViewController of A is the 2nd of B
/// ```
public struct DiffOptions: Sendable, Hashable {
  /// How a controller of one run is identified with a controller of the other.
  public enum Matching: String, Sendable, Hashable, CaseIterable {
    /// By id: `notes` in A is `notes` in B.
    case id
    /// By class and order of allocation: the n-th allocated `NotesViewController`
    /// of A is the n-th of B, written `NotesViewController#n`.
    case className = "class"
    /// By class when the ids of both runs are made per instance (counters such
    /// as `NotesViewController#115`, or addresses: ``ControllerIDCensus/isGenerated``),
    /// else by id; decided when two runs are compared (``MatchingDecision``).
    /// Until then a run normalised this way names its controllers as
    /// ``className`` does.
    case auto
  }

  /// The event types that matter for ordering by default.
  public static let defaultTypes: [String] = ["lifecycle", "move", "modal", "dealloc", "link", "unlink"]

  /// The types never compared: the header (tools that compare recordings ignore it).
  public static let excludedTypes: Set<String> = ["session"]

  /// The event types compared (wire names; unknown type names are allowed).
  public private(set) var types: Set<String>
  public var matching: Matching
  /// How much work the alignment may spend before it gives up on a segment.
  public var budget: DiffBudget

  public init(
    types: some Sequence<String> = DiffOptions.defaultTypes, matching: Matching = .auto, budget: DiffBudget = .init()
  ) {
    self.types = Set(types).subtracting(Self.excludedTypes)
    self.matching = matching
    self.budget = budget
  }

  /// Adds a type to the compared set (`--include`); the header is never compared.
  public mutating func include(_ type: String) {
    guard !Self.excludedTypes.contains(type) else { return }
    types.insert(type)
  }

  /// Removes a type from the compared set (`--exclude`).
  public mutating func exclude(_ type: String) {
    types.remove(type)
  }

  /// The compared types: the default ones in their order, other known types
  /// in the spec's order, then unknown names sorted.
  public var orderedTypes: [String] {
    let defaults = Self.defaultTypes.filter { types.contains($0) }
    let known = Event.knownTypeNames.filter { types.contains($0) && !Self.defaultTypes.contains($0) }
    let others = types.subtracting(Event.knownTypeNames).sorted()
    return defaults + known + others
  }
}

/// Limits on the alignment's work, so that two unrelated runs never take
/// quadratic time or memory.
///
/// When a segment between anchors would need more than ``maxEditDistance``
/// edits, or the whole diff has spent ``maxWork`` steps, the segment becomes
/// one replace hunk.
public struct DiffBudget: Sendable, Hashable {
  /// Largest edit distance the Myers fallback explores on one segment
  /// (its memory grows with the square of this: 2,048 is about 8 MB).
  public var maxEditDistance: Int
  /// Total comparison steps the alignment may spend (anchoring and Myers together).
  public var maxWork: Int

  public init(maxEditDistance: Int = 2048, maxWork: Int = 200_000_000) {
    self.maxEditDistance = maxEditDistance
    self.maxWork = maxWork
  }
}
