/// Text from a journal made safe for a terminal or a log line.
///
/// Anything in a journal is data: control characters (C0, DEL, C1), bidi
/// overrides and isolates, zero-width and line/paragraph separators are
/// written as `\u{XX}` escapes so nothing can change the terminal's state,
/// and very long strings are cut with `…` after `limit` characters.
///
/// ```swift
/// displayText("evil\u{1B}[2J")  // "evil\u{1B}[2J" with the escape spelled out
/// ```
public func displayText(_ value: String, limit: Int = 64) -> String {
  var out = ""
  var count = 0
  for scalar in value.unicodeScalars {
    if count >= limit {
      out += "…"
      return out
    }
    if needsEscape(scalar) {
      out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    } else {
      out.unicodeScalars.append(scalar)
    }
    count += 1
  }
  return out
}

/// Whether a scalar must not reach a terminal as is.
@inline(__always)
func needsEscape(_ s: Unicode.Scalar) -> Bool {
  let v = s.value
  if v < 0x20 || (v >= 0x7F && v < 0xA0) { return true }
  if v < 0x200B { return false }
  switch v {
  case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB: return true
  default: return false
  }
}
