/// Where one JSON value is in a line and what kind it is.
struct JSONValueRef {
  enum Kind: UInt8 {
    case string, number, bool, null, object, array
  }

  var kind: Kind
  /// Strings: the content has escapes. Numbers: there is a fraction or an
  /// exponent. Booleans: the value.
  var flag: Bool
  /// Offset of the value's first byte (the opening quote of a string).
  var start: Int
  /// Offset one past the value's last byte (after the closing quote of a string).
  var end: Int
}

/// The kind of container a token is inside, for "unexpected end of line inside …".
enum JSONContainer {
  case object, array

  var phrase: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    }
  }
}

/// A cursor over one line that checks JSON syntax (RFC 8259) and UTF-8 as it
/// moves forward.
///
/// Implementation note: this is the hot path of every command. The scanner
/// works on a raw pointer and a byte offset, never allocates on the common
/// path (ASCII strings without escapes, short numbers, a flat object) and
/// computes nothing about lines or columns. Everything rare (escapes,
/// non-ASCII text, nested containers, building an error) lives in
/// `@inline(never)` functions, so the common loops stay small enough to be
/// inlined into the decoder.
struct JSONScanner {
  let base: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  var index = 0

  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")

  init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
    self.base = base
    self.count = count
    self.maxDepth = maxDepth
  }

  // MARK: Whitespace

  /// Skips the four whitespace bytes JSON allows between tokens.
  @inline(__always)
  mutating func skipWhitespace() {
    while index < count {
      let c = base[index]
      guard c <= 0x20, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return }
      index += 1
    }
  }

  // MARK: Strings

  /// Scans the string whose opening quote is at `index` and moves past its closing quote.
  /// - Returns: whether the string contains escapes (its content then needs ``unescape(from:to:)``).
  /// - Throws: on a bad escape, an unpaired surrogate, a raw control character,
  ///   invalid UTF-8 or the end of the line.
  ///
  /// Implementation note: sixteen bytes are tested at a time (``StringBytes``);
  /// only a line of fewer than 16 bytes is tested byte by byte.
  @inline(__always)
  mutating func scanString() throws(DecodeError) -> Bool {
    var k = index + 1
    if count >= 16 {
      k = StringBytes.firstSpecial(base, from: k, count: count)
      if k < count, base[k] == Self.quote {
        index = k + 1
        return false
      }
      return try scanStringSlow(from: k)
    }
    while k < count {
      let c = base[k]
      if c == Self.quote {
        index = k + 1
        return false
      }
      // One comparison rejects both controls (< 0x20) and non-ASCII (≥ 0x80).
      if c &- 0x20 >= 0x60 || c == Self.backslash { break }
      k += 1
    }
    return try scanStringSlow(from: k)
  }

  /// The high bit of each byte of `word` (little-endian) that ends the plain
  /// part of a string: `"`, `\`, a control character or a non-ASCII byte.
  ///
  /// Implementation note: the classic SWAR tests `(x - 0x01…) & ~x & 0x80…`
  /// (a zero byte) and `(x - 0x20…) & ~x & 0x80…` (a byte below 0x20). A borrow
  /// can only flag bytes above a byte that really matched, so the lowest set
  /// bit always marks the first special byte.
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let zeroQuote = (quotes &- ones) & ~quotes
    let zeroBackslash = (backslashes &- ones) & ~backslashes
    let control = (word &- ones &* 0x20) & ~word
    return (zeroQuote | zeroBackslash | control | word) & high
  }

  /// The rest of a string from its first escape, control or non-ASCII byte.
  @inline(never)
  mutating func scanStringSlow(from start: Int) throws(DecodeError) -> Bool {
    var k = start
    var escaped = false
    while k < count {
      let c = base[k]
      if c == Self.quote {
        index = k + 1
        return escaped
      } else if c == Self.backslash {
        escaped = true
        k = try scanEscape(at: k)
      } else if c < 0x20 {
        throw .malformed(k, "control character \(hexByte(c)) must be escaped in a string")
      } else if c >= 0x80 {
        let length = utf8SequenceLength(at: k)
        guard length > 0 else { throw .invalidUTF8(k, c) }
        k += length
      } else {
        k += 1
      }
    }
    throw .malformed(count, "unexpected end of line inside a string")
  }

  /// Checks the escape whose backslash is at `k`.
  /// - Returns: the offset after the escape (after both halves of a surrogate pair).
  mutating func scanEscape(at k: Int) throws(DecodeError) -> Int {
    guard k + 1 < count else { throw .malformed(count, "unexpected end of line inside a string") }
    switch base[k + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return k + 2
    case UInt8(ascii: "u"):
      let unit = try hex4(escapeAt: k)
      switch unit {
      case 0xD800...0xDBFF:
        guard k + 7 < count, base[k + 6] == Self.backslash, base[k + 7] == UInt8(ascii: "u") else {
          throw .malformed(k, "unpaired surrogate \\u\(hex4Text(unit)) in a string")
        }
        let low = try hex4(escapeAt: k + 6)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw .malformed(k, "unpaired surrogate \\u\(hex4Text(unit)) in a string")
        }
        return k + 12
      case 0xDC00...0xDFFF:
        throw .malformed(k, "unpaired surrogate \\u\(hex4Text(unit)) in a string")
      default:
        return k + 6
      }
    default:
      let next = k + 1
      if base[next] >= 0x80, let error = invalidUTF8(at: next) { throw error }
      throw .malformed(k, "invalid escape '\\\(characterText(at: next))' in a string")
    }
  }

  /// The code unit of the `\uXXXX` escape whose backslash is at `k`.
  func hex4(escapeAt k: Int) throws(DecodeError) -> UInt32 {
    guard k + 6 <= count else { throw .malformed(count, "unexpected end of line inside a string") }
    var value: UInt32 = 0
    for j in (k + 2)..<(k + 6) {
      guard let digit = hexDigitValue(base[j]) else {
        if base[j] >= 0x80, let error = invalidUTF8(at: j) { throw error }
        let text = String(decoding: UnsafeBufferPointer(start: base + k + 1, count: j + 1 - (k + 1)), as: UTF8.self)
        throw .malformed(k, "invalid escape '\\\(displayText(text, limit: 8))' in a string")
      }
      value = value << 4 | digit
    }
    return value
  }

  /// The content of a validated string, `from` and `to` being the offsets
  /// after the opening and of the closing quote, with its escapes decoded.
  @inline(never)
  func unescape(from: Int, to: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(to - from)
    var k = from
    while k < to {
      let c = base[k]
      guard c == Self.backslash else {
        out.append(c)
        k += 1
        continue
      }
      switch base[k + 1] {
      case UInt8(ascii: "u"):
        var scalar = validatedHex4(at: k + 2)
        k += 6
        if (0xD800...0xDBFF).contains(scalar) {
          let low = validatedHex4(at: k + 2)
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          k += 6
        }
        appendUTF8(scalar, to: &out)
        continue
      case let letter: out.append(JSONEscape.control(letter) ?? letter)  // or '"', '\' or '/'
      }
      k += 2
    }
    return out
  }

  private func validatedHex4(at k: Int) -> UInt32 {
    var value: UInt32 = 0
    for j in k..<(k + 4) { value = value << 4 | (hexDigitValue(base[j]) ?? 0) }
    return value
  }

  // MARK: UTF-8

  /// The length of the well-formed UTF-8 sequence starting with the non-ASCII
  /// byte at `k`, or 0 if it is not one (a stray continuation byte, an
  /// overlong form, an encoded surrogate, a scalar above U+10FFFF or a
  /// sequence cut short), following the Unicode Standard's table 3-7.
  @inline(__always)
  func utf8SequenceLength(at k: Int) -> Int {
    let b0 = base[k]
    let remaining = count - k
    @inline(__always) func continuation(_ j: Int) -> Bool { base[k + j] & 0xC0 == 0x80 }
    switch b0 {
    case 0xC2...0xDF:
      return remaining >= 2 && continuation(1) ? 2 : 0
    case 0xE0...0xEF:
      guard remaining >= 3 else { return 0 }
      let b1 = base[k + 1]
      let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
      let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
      return b1 >= low && b1 <= high && continuation(2) ? 3 : 0
    case 0xF0...0xF4:
      guard remaining >= 4 else { return 0 }
      let b1 = base[k + 1]
      let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
      let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
      return b1 >= low && b1 <= high && continuation(2) && continuation(3) ? 4 : 0
    default:
      return 0
    }
  }

  /// The framing error for invalid UTF-8 at `k`, or nil if the bytes there are valid.
  func invalidUTF8(at k: Int) -> DecodeError? {
    let c = base[k]
    guard c >= 0x80, utf8SequenceLength(at: k) == 0 else { return nil }
    return .invalidUTF8(k, c)
  }
}

/// ASCII letters, digits and `_`: what may not directly follow a number or a literal.
@inline(__always)
func isWordByte(_ c: UInt8) -> Bool {
  c &- UInt8(ascii: "0") < 10 || (c | 0x20) &- UInt8(ascii: "a") < 26 || c == UInt8(ascii: "_")
}

@inline(__always)
func hexDigitValue(_ c: UInt8) -> UInt32? {
  if c &- UInt8(ascii: "0") < 10 { return UInt32(c &- UInt8(ascii: "0")) }
  let lower = c | 0x20
  if lower &- UInt8(ascii: "a") < 6 { return UInt32(lower &- UInt8(ascii: "a") + 10) }
  return nil
}

/// `0x0a`: a byte as error messages show it.
func hexByte(_ c: UInt8) -> String {
  let digits = Array("0123456789abcdef".utf8)
  return "0x" + String(decoding: [digits[Int(c >> 4)], digits[Int(c & 15)]], as: UTF8.self)
}

/// `d800`: a UTF-16 code unit as four lowercase hex digits.
func hex4Text(_ unit: UInt32) -> String {
  let digits = String(unit, radix: 16)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Appends the UTF-8 encoding of a scalar value (not a surrogate).
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
  switch scalar {
  case 0..<0x80:
    out.append(UInt8(scalar))
  case 0x80..<0x800:
    out.append(UInt8(0xC0 | scalar >> 6))
    out.append(UInt8(0x80 | scalar & 0x3F))
  case 0x800..<0x10000:
    out.append(UInt8(0xE0 | scalar >> 12))
    out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
    out.append(UInt8(0x80 | scalar & 0x3F))
  default:
    out.append(UInt8(0xF0 | scalar >> 18))
    out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
    out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
    out.append(UInt8(0x80 | scalar & 0x3F))
  }
}

/// Whether `n` bytes at `p` spell `literal` (an ASCII literal).
@inline(__always)
func bytesEqual(_ p: UnsafePointer<UInt8>, _ n: Int, _ literal: StaticString) -> Bool {
  guard n == literal.utf8CodeUnitCount else { return false }
  let q = literal.utf8Start
  var k = 0
  while k < n {
    if p[k] != q[k] { return false }
    k += 1
  }
  return true
}
