/// Text from a journal made safe for a terminal or a log line.
///
/// Anything in a journal is data: control characters (C0, DEL, C1), bidi
/// overrides and isolates, zero-width and line/paragraph separators are
/// written as `\u{XX}` escapes so nothing can change the terminal's state,
/// and very long strings are cut with `cut` after `limit` characters.
///
/// ```swift
/// displayText("evil\u{1B}[2J")  // "evil\u{1B}[2J" with the escape spelled out
/// ```
///
/// - Parameter cut: ends a string cut at `limit`; renderers pass the one of
///   their glyphs (`Glyphs.text(_:limit:)` in Projection), so `--ascii` output stays ASCII.
public func displayText(_ value: String, limit: Int = 64, cut: Character = "…") -> String {
  // Implementation note: most text (ids, classes, finding messages) needs no
  // escape and fits the limit; it is recognised on its UTF-8 bytes and returned
  // as it is, without a copy. `check` on a journal with many findings spent
  // half its time building the copy scalar by scalar otherwise.
  if let plain = value.utf8.withContiguousStorageIfAvailable({ isPlain($0, limit: limit) }), plain {
    return value
  }
  var out = ""
  var count = 0
  for scalar in value.unicodeScalars {
    if count >= limit {
      out.append(cut)
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

/// Whether UTF-8 text has no scalar that ``needsEscape(_:)`` and at most `limit` scalars.
///
/// The text is valid UTF-8 (a Swift string's), so a lead byte has its continuation bytes.
///
/// Implementation note: eight bytes at a time while they are all printable
/// ASCII (0x20–0x7E, one scalar each, none to escape), as finding messages
/// and ids nearly always are: `check` of a legacy journal scans a message for
/// nearly every line, and byte by byte that scan would be a large share of it.
func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
  var scalars = 0
  var i = 0
  let n = bytes.count
  if let base = bytes.baseAddress {
    let raw = UnsafeRawPointer(base)
    while i + 8 <= n {
      let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      // A byte below 0x20 or above 0x7E sets its high bit in one of the two.
      let low = (w &- 0x2020_2020_2020_2020) & ~w
      let high = (w &+ 0x0101_0101_0101_0101) | w
      guard (low | high) & 0x8080_8080_8080_8080 == 0 else { break }
      scalars += 8
      if scalars > limit { return false }
      i += 8
    }
  }
  while i < n {
    let b = bytes[i]
    if b & 0xC0 == 0x80 {
      i += 1
      continue  // a continuation byte: not a new scalar
    }
    if unsafeSequenceLength(bytes, at: i) > 0 { return false }
    scalars += 1
    if scalars > limit { return false }
    i += 1
  }
  return true
}

/// The length of the UTF-8 sequence at `i` if it encodes a scalar that
/// ``needsEscape(_:)`` (1 for C0 and DEL, 2 for C1, 3 for the bidi, zero-width
/// and separator characters), else 0.
///
/// In UTF-8 those above ASCII are: C1 (`C2 80`–`C2 9F`), U+200B–U+200F
/// (`E2 80 8B`–`8F`), U+2028–U+202E (`E2 80 A8`–`AE`), U+2060–U+206F
/// (`E2 81 A0`–`AF`), U+FEFF (`EF BB BF`) and U+FFF9–U+FFFB (`EF BF B9`–`BB`).
@inline(__always)
func unsafeSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
  let b = bytes[i]
  if b < 0x80 { return b < 0x20 || b == 0x7F ? 1 : 0 }
  guard b == 0xC2 || b == 0xE2 || b == 0xEF else { return 0 }
  let n = bytes.count
  let b1 = i + 1 < n ? bytes[i + 1] : 0
  if b == 0xC2 { return (0x80...0x9F).contains(b1) ? 2 : 0 }
  let b2 = i + 2 < n ? bytes[i + 2] : 0
  switch b {
  case 0xE2 where b1 == 0x80 && ((0x8B...0x8F).contains(b2) || (0xA8...0xAE).contains(b2)): return 3
  case 0xE2 where b1 == 0x81 && (0xA0...0xAF).contains(b2): return 3
  case 0xEF where (b1 == 0xBB && b2 == 0xBF) || (b1 == 0xBF && (0xB9...0xBB).contains(b2)): return 3
  default: return 0
  }
}

/// Copies data (NDJSON, CSV, JSON) bound for a terminal, writing every scalar
/// that ``needsEscape(_:)`` as a JSON escape (`\u001b`, `\u009b`, `\u202e`),
/// except line feeds and tabs: nothing in the data can change the terminal's
/// state. Inside a JSON string the escape means the same character, so JSON
/// stays valid and equal; `spatial-replay` applies this only when standard
/// output is a terminal, never to a file or a pipe.
///
/// ```swift
/// var out: [UInt8] = []
/// escapeForTerminal(Array("a\u{1B}[2Jb\n".utf8), into: &out)  // a\u001b[2Jb and a line feed
/// ```
public func escapeForTerminal(_ bytes: [UInt8], into out: inout [UInt8]) {
  bytes.withUnsafeBufferPointer { buffer in
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var start = 0
    var i = 0
    while i < buffer.count {
      let length = unsafeSequenceLength(buffer, at: i)
      let b = buffer[i]
      guard length > 0, b != 0x0A, b != 0x09 else {
        i += 1
        continue
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<i]))
      var scalar = UInt32(b)
      if length == 2 { scalar = UInt32(b & 0x1F) << 6 | UInt32(buffer[i + 1] & 0x3F) }
      if length == 3 {
        scalar = UInt32(b & 0x0F) << 12 | UInt32(buffer[i + 1] & 0x3F) << 6 | UInt32(buffer[i + 2] & 0x3F)
      }
      out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
      for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(scalar >> UInt32(shift)) & 15]) }
      i += length
      start = i
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
  }
}
