/// The manual page, in troff (`man -l`), generated from the overview and every
/// command's help: the same text `--help` prints, so the two cannot disagree.
enum ManPage {
  static var text: String {
    var s = """
      .TH SPATIAL-REPLAY 1 "" "spatial-replay \(SpatialReplay.version)" "User Commands"
      .SH NAME
      spatial-replay \\- record, replay, audit and compare journals of a spatial view-controller map
      .SH SYNOPSIS
      .B spatial-replay
      .I command
      [\\fIoptions\\fR] [\\fIfiles\\fR]
      .SH DESCRIPTION

      """
    s += block(SpatialReplay.overview)
    s += ".SH COMMANDS\n"
    for command in SpatialReplay.commands {
      s += ".SS \(escape(command.name))\n"
      s += escape(command.abstract) + "\n"
      s += block(command.help)
    }
    s += """
      .SH "EXIT STATUS"
      0 fine; 1 findings or differences; 2 input that cannot be read correctly; 64 usage error.
      .SH "SEE ALSO"
      The project's docs/ folder: the journal format, the model, check, diff, bisect and the exported tables.

      """
    return s
  }

  /// Columns a preformatted line may take: `man` indents a section's text by 7, and
  /// the page must fit 80 columns (`MANWIDTH=80 man -l -`).
  static let blockWidth = 72

  /// Preformatted text (`.nf`), escaped for troff, its lines wrapped to ``blockWidth``.
  private static func block(_ text: String) -> String {
    var s = ".PP\n.nf\n"
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      for part in wrapped(String(line), width: blockWidth) { s += escape(part) + "\n" }
    }
    return s + ".fi\n"
  }

  /// `line` cut at spaces into lines of at most `width` columns. A continuation is indented
  /// as the text after the line's first gap of two spaces or more (the help column of an
  /// option, `  --model [PROFILE]      also ...`), or else as the line itself plus two.
  static func wrapped(_ line: String, width: Int) -> [String] {
    let characters = Array(line)
    guard characters.count > width else { return [line] }
    let lead = characters.prefix { $0 == " " }.count
    var indent = lead + 2
    var i = lead
    while i + 1 < characters.count {
      if characters[i] == " " && characters[i + 1] == " " {
        var j = i
        while j < characters.count && characters[j] == " " { j += 1 }
        if j < min(40, width / 2) { indent = j }
        break
      }
      i += 1
    }
    var lines: [String] = []
    var rest = characters
    var first = true
    while rest.count > width {
      // The last space that leaves the line within the width, past the indentation.
      let floor = first ? lead : indent
      var cut = width
      while cut > floor && rest[cut] != " " { cut -= 1 }
      if cut <= floor {
        cut = width  // one word longer than the line: cut it
      }
      var end = cut
      while end > 0 && rest[end - 1] == " " { end -= 1 }
      lines.append(String(rest[..<end]))
      var next = cut
      while next < rest.count && rest[next] == " " { next += 1 }
      rest = Array(repeating: " ", count: indent) + Array(rest[next...])
      first = false
    }
    lines.append(String(rest))
    return lines
  }

  /// A backslash and `-` escaped, other than ASCII by code point, a leading `.` or `'`
  /// protected, so no text is read as a request.
  private static func escape(_ line: String) -> String {
    var out = ""
    for scalar in line.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case _ where scalar.value > 0x7F:
        // troff reads bytes: every other character by its code point, \[u2192].
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: out.unicodeScalars.append(scalar)
      }
    }
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}
