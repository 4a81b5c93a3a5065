import Journal

/// The words shared by the descriptions of events (`log`'s sentences, `diff`'s lines, `check`'s findings):
/// finger counts, a modal's presenter and ordinals as they are shown (numbers are `Double.journalText`, ids
/// are written by `Glyphs.id`).
enum Wording {
  /// `modal sheet presented by home`, the ids already made safe for a terminal.
  static func modal(_ controller: String, presentedBy presenter: String) -> String {
    "modal \(controller) presented by \(presenter)"
  }

  /// `1 finger`, `2 fingers`.
  static func fingers(_ count: Int) -> String { count == 1 ? "1 finger" : "\(count) fingers" }

  /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `12th`, `13th`, `21st`: a controller of a class in a diff,
  /// the count of a repeated didLoad.
  static func ordinal(_ n: Int) -> String {
    let suffix: String
    switch (n % 10, n % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(n)\(suffix)"
  }
}
