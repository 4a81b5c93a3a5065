import Journal
import Projection

/// The "did you mean" of a name that no journal holds: a controller id of
/// `--controller`, a screen of `funnel --steps`. The names that start with
/// what was given, ignoring case (`Home` for `HomeViewController#1`, the first
/// three and a count), else the nearest one (``closestWord(to:in:ignoringCase:)``).
///
/// ```swift
/// NameSuggestion.text(for: "compse", among: ["compose", "home"])  // " (did you mean compose?)"
/// NameSuggestion.text(for: "zzz", among: ["compose"])             // ""
/// ```
enum NameSuggestion {
  /// ` (did you mean A, B, C, … (12 in all)?)`, or "" when no name is close.
  static func text(for name: String, among names: some Sequence<String>) -> String {
    let sorted = names.sorted { VersionOrder.precedes($0, $1) }
    let key = name.lowercased()
    let starting = sorted.filter { $0.lowercased().hasPrefix(key) }
    if !starting.isEmpty { return " (did you mean \(list(starting))?)" }
    if let near = closestWord(to: name, in: sorted) { return " (did you mean \(displayText(near))?)" }
    return ""
  }

  /// `a, b, c, … (12 in all)`: the first three names, escaped for display, and a count.
  static func list(_ names: [String]) -> String {
    names.prefix(3).map { displayText($0) }.joined(separator: ", ")
      + (names.count > 3 ? ", … (\(names.count) in all)" : "")
  }

  /// Whether ``text(for:among:)`` could suggest `candidate` for `name`: what a
  /// journal keeps of its names for a check across many journals.
  static func mayName(_ candidate: String, for name: String) -> Bool {
    candidate.lowercased().hasPrefix(name.lowercased()) || closestWord(to: name, in: CollectionOfOne(candidate)) != nil
  }
}

/// Names given on the command line that the journals must hold, checked
/// across every journal read: `funnel --steps` (screens, by class or by id as
/// `--by` says). Fed one journal at a time (``note(names:otherKind:)``, then
/// ``merge(_:)`` in input order), it keeps only the names given that some
/// journal holds and the few names that could be suggested for the others,
/// never every name of a fleet.
///
/// ```swift
/// var check = NameCheck(["Chekout"])
/// check.note(names: ["CheckoutViewController"], otherKind: ["checkout"])
/// try check.check(option: "--steps", noun: "screen")
/// // unknown screen 'Chekout' in --steps (did you mean CheckoutViewController?)
/// ```
struct NameCheck: Sendable {
  /// The names given, in order.
  let wanted: [String]
  /// The names given that a journal holds.
  private(set) var found: Set<String> = []
  /// Names of the journals that may be suggested for a name given.
  private(set) var candidates: Set<String> = []
  /// The names given that a journal holds as the other kind of name (an id where a class is expected).
  private(set) var asOtherKind: Set<String> = []

  init(_ wanted: [String]) { self.wanted = wanted }

  /// One journal's names (`names`, of the kind the option takes) and those of the other kind.
  mutating func note(names: Set<String>, otherKind: Set<String> = []) {
    for name in wanted where !found.contains(name) {
      if names.contains(name) {
        found.insert(name)
        continue
      }
      if otherKind.contains(name) { asOtherKind.insert(name) }
      for candidate in names where NameSuggestion.mayName(candidate, for: name) { candidates.insert(candidate) }
    }
  }

  /// What another journal's check found.
  mutating func merge(_ other: NameCheck) {
    found.formUnion(other.found)
    candidates.formUnion(other.candidates)
    asOtherKind.formUnion(other.asOtherKind)
  }

  /// The first name given that no journal holds, as a usage error:
  /// `unknown NOUN 'NAME' in OPTION (did you mean …?)`, or, for a name of the
  /// other kind, `unknown NOUN 'NAME' in OPTION: OTHER` (`otherKind` says what it is instead).
  func check(option: String, noun: String, otherKind: (String) -> String = { _ in "" }) throws(UsageError) {
    for name in wanted where !found.contains(name) {
      var message = "unknown \(noun) '\(displayText(name))' in \(option)"
      if asOtherKind.contains(name) {
        message += ": " + otherKind(name)
      } else {
        message += NameSuggestion.text(for: name, among: candidates)
      }
      throw UsageError(message)
    }
  }
}
