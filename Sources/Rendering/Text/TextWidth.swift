/// How many terminal columns text takes, and how to cut it to a number of columns.
///
/// East Asian wide and fullwidth characters and emoji shown as emoji take two
/// columns; everything else one (the text has been through `displayText`, so
/// no control or zero-width characters remain). A character of several
/// scalars that does not start wide (an accent, an Indic conjunct such as
/// `क्ष`) takes what its scalars take, marks and format characters none, as a
/// terminal (`wcwidth`) draws it.
package enum TextWidth {
  /// Columns of one character: 2 for wide ones, else 1, or the sum over its scalars.
  package static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 1 }
    if isWide(first) { return 2 }
    guard scalars.count > 1 else { return 1 }
    var width = 0
    for scalar in scalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: continue
      default: width += isWide(scalar) ? 2 : 1
      }
    }
    return max(1, width)
  }

  /// Columns of a string.
  package static func columns(of text: String) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// `text` cut to at most `limit` columns, ending with `ellipsis` when cut.
  package static func truncate(_ text: String, to limit: Int, ellipsis: Character) -> String {
    guard columns(of: text) > limit else { return text }
    var out = ""
    var used = 0
    for character in text {
      let width = columns(of: character)
      if used + width > limit - 1 { break }
      out.append(character)
      used += width
    }
    if limit > 0 { out.append(ellipsis) }
    return out
  }

  /// `text` in at most `limit` columns: whole when it fits, else shortened in the middle, its start,
  /// `ellipsis` and its end (`Checkout…Controller#115`), so that the part that tells two names apart
  /// stays: an instance number (`#115`, the ids the recording guide recommends) always, the class's
  /// start and the rest of its end as room allows. What every shortened label goes through: the map's
  /// boxes in the terminal (`map`, `step`) and the fleet page's names (the report's page follows the
  /// same rule in its script, `middle` in `report.js`).
  ///
  /// The start takes half the room, less when a word of a camel-case name ends a little before
  /// (`Checkout`, not `CheckoutVie`), and the end the rest, at least the instance number; `head`
  /// gives the start's columns instead (to tell apart two labels still alike).
  package static func middle(_ text: String, to limit: Int, ellipsis: Character, head: Int? = nil) -> String {
    guard columns(of: text) > limit else { return text }
    guard limit > 1 else { return limit == 1 ? String(ellipsis) : "" }
    let characters = Array(text)
    let room = limit - 1
    // The instance number: `#` and digits, at the end.
    var number = 0
    if let hash = characters.lastIndex(of: "#"), hash < characters.count - 1,
      characters[(hash + 1)...].allSatisfy({ $0.isASCII && $0.isNumber })
    {
      number = characters[hash...].reduce(0) { $0 + columns(of: $1) }
    }
    var start: Int
    if let head {
      start = min(max(0, head), room)
    } else {
      start = min(room / 2, room - min(number, room))
      // Back to the end of a word (an uppercase letter after a lowercase one starts the next) when one
      // ends up to a quarter of the room before.
      var used = 0
      var wordEnd: Int?
      for (i, character) in characters.enumerated() {
        if i > 0, character.isUppercase, characters[i - 1].isLowercase, used >= start - room / 4, used >= 1 {
          wordEnd = used
        }
        used += columns(of: character)
        if used > start { break }
      }
      if let wordEnd { start = wordEnd }
    }
    var front = ""
    var used = 0
    for character in characters {
      let width = columns(of: character)
      if used + width > start { break }
      front.append(character)
      used += width
    }
    var back: [Character] = []
    var backUsed = 0
    for character in characters.reversed() {
      let width = columns(of: character)
      if backUsed + width > room - used { break }
      back.append(character)
      backUsed += width
    }
    return front + String(ellipsis) + String(back.reversed())
  }

  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v < 0x1100 { return false }
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return scalar.properties.isEmojiPresentation
    }
  }
}
