import Journal

/// The words shared by the descriptions: finger counts (numbers are
/// `Double.journalText`, ids are written by `Glyphs.id`).
enum Wording {
  /// `1 finger`, `2 fingers`.
  static func fingers(_ count: Int) -> String { count == 1 ? "1 finger" : "\(count) fingers" }
}
