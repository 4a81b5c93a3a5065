import Journal

/// Small text helpers of the stepper's screen.
enum ScreenText {
  /// `1234567` as `1,234,567`.
  static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = n < 0 ? "-" : ""
    for (k, ch) in digits.enumerated() {
      if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return out
  }

  /// `text` cut to `width` columns (with an ellipsis when cut).
  static func fit(_ text: String, _ width: Int, ascii: Bool) -> String {
    guard width > 0 else { return "" }
    return TextWidth.truncate(text, to: width, ellipsis: ascii ? "~" : "…")
  }

  /// `text` cut or padded with spaces to exactly `width` columns.
  static func pad(_ text: String, _ width: Int, ascii: Bool) -> String {
    let cut = fit(text, width, ascii: ascii)
    let used = TextWidth.columns(of: cut)
    return used < width ? cut + String(repeating: " ", count: width - used) : cut
  }

  /// Words, each with the separator that comes before it (dropped at the
  /// start of a line), wrapped into at most `lines` lines of `width` columns;
  /// when they do not all fit, the last line ends with `+N more`.
  static func wrap(
    _ words: [(separator: String, word: String)], width: Int, lines: Int, ascii: Bool
  ) -> [String] {
    guard lines > 0, width > 0 else { return [] }
    /// Each line: its pieces (separator included after the first) and their columns.
    var rows: [[(text: String, columns: Int)]] = [[]]
    var used = 0
    var i = 0
    while i < words.count {
      let first = rows[rows.count - 1].isEmpty
      let text = first ? words[i].word : words[i].separator + words[i].word
      let columns = TextWidth.columns(of: text)
      if first || used + columns <= width {
        rows[rows.count - 1].append((text, columns))
        used += columns
        i += 1
      } else if rows.count < lines {
        rows.append([])
        used = 0
      } else {
        break
      }
    }
    if i < words.count {
      // Not everything fits: make room on the last line for the count of what is left.
      var rest = words.count - i
      while true {
        let first = rows[rows.count - 1].isEmpty
        let more = (first ? "" : " ") + "+\(rest) more"
        let columns = TextWidth.columns(of: more)
        if first || used + columns <= width {
          rows[rows.count - 1].append((more, columns))
          break
        }
        used -= rows[rows.count - 1].removeLast().columns
        rest += 1
      }
    }
    return rows.map { row in fit(row.map(\.text).joined(), width, ascii: ascii) }
  }
}
