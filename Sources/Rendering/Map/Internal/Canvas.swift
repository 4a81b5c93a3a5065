/// A few lines of terminal cells the map is drawn into, then written out
/// with or without colour.
struct Canvas {
  /// One terminal cell: a character (nil for the second half of a wide one) and its style.
  struct Glyph {
    var character: Character?
    var style: TerminalStyle
  }

  let width: Int
  private(set) var lines: [[Glyph]]

  init(width: Int, height: Int) {
    self.width = width
    lines = Array(repeating: Array(repeating: Glyph(character: " ", style: .plain), count: width), count: height)
  }

  /// Puts one character at column `x` of line `y`; anything outside the canvas is dropped.
  mutating func put(_ character: Character, x: Int, y: Int, style: TerminalStyle = .plain) {
    guard y >= 0, y < lines.count, x >= 0, x < width else { return }
    if TextWidth.columns(of: character) == 2 {
      guard x + 1 < width else {
        lines[y][x] = Glyph(character: " ", style: style)
        return
      }
      lines[y][x] = Glyph(character: character, style: style)
      lines[y][x + 1] = Glyph(character: nil, style: style)
    } else {
      lines[y][x] = Glyph(character: character, style: style)
    }
  }

  /// Puts `text` from column `x` on; returns the column after it.
  @discardableResult
  mutating func put(_ text: String, x: Int, y: Int, style: TerminalStyle = .plain) -> Int {
    var column = x
    for character in text {
      put(character, x: column, y: y, style: style)
      column += TextWidth.columns(of: character)
    }
    return column
  }

  /// Sets the style of columns `range` of line `y`.
  mutating func style(_ range: Range<Int>, y: Int, _ style: TerminalStyle) {
    guard y >= 0, y < lines.count else { return }
    for x in range where x >= 0 && x < width { lines[y][x].style = style }
  }

  /// The lines as text without line ends, trailing blanks cut (plain ones only, with colour).
  func rendered(color: Bool) -> [String] {
    lines.map { line in
      var end = line.count
      while end > 0, line[end - 1].character == " ", !color || line[end - 1].style == .plain { end -= 1 }
      var text = ""
      var current = TerminalStyle.plain
      for glyph in line[..<end] {
        if color, glyph.style != current {
          if current != .plain { text += TerminalStyle.reset }
          if glyph.style != .plain { text += glyph.style.sequence }
          current = glyph.style
        }
        if let character = glyph.character { text.append(character) }
      }
      if current != .plain { text += TerminalStyle.reset }
      return text
    }
  }
}
