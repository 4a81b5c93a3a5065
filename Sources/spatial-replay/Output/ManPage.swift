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

  /// Preformatted text (`.nf`), escaped for troff.
  private static func block(_ text: String) -> String {
    var s = ".PP\n.nf\n"
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      s += escape(String(line)) + "\n"
    }
    return s + ".fi\n"
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
