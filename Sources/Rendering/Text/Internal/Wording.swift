import Journal

/// The words shared by the descriptions of events (`log`'s sentences, `diff`'s lines): finger counts and
/// a modal's presenter as they are shown (numbers are `Double.journalText`, ids are written by `Glyphs.id`).
enum Wording {
  /// `modal sheet presented by home`, the ids already made safe for a terminal.
  static func modal(_ controller: String, presentedBy presenter: String) -> String {
    "modal \(controller) presented by \(presenter)"
  }

  /// `1 finger`, `2 fingers`.
  static func fingers(_ count: Int) -> String { count == 1 ? "1 finger" : "\(count) fingers" }
}
