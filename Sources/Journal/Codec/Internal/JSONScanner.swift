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
  /// Implementation note: eight bytes are tested at a time (``specialBytes(_:)``);
  /// only the last few bytes of a line are tested one by one.
  @inline(__always)
  mutating func scanString() throws(DecodeError) -> Bool {
    var k = index + 1
    while k &+ 8 <= count {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
      let special = Self.specialBytes(word)
      if special != 0 {
        k &+= special.trailingZeroBitCount &>> 3
        if base[k] == Self.quote {
          index = k + 1
          return false
        }
        return try scanStringSlow(from: k)
      }
      k &+= 8
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
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
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
      default: out.append(base[k + 1])  // '"', '\' or '/'
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

  // MARK: Numbers and literals

  /// Scans the number at `index` (RFC 8259 grammar) and moves past it.
  /// - Returns: whether it has a fraction or an exponent.
  /// - Throws: `invalid number`, pointing at its first byte.
  @inline(__always)
  mutating func scanNumber() throws(DecodeError) -> Bool {
    let start = index
    var k = index
    @inline(__always) func digit(_ j: Int) -> Bool { j < count && base[j] &- UInt8(ascii: "0") < 10 }
    if base[k] == UInt8(ascii: "-") { k += 1 }
    guard digit(k) else { throw .malformed(start, "invalid number") }
    if base[k] == UInt8(ascii: "0") {
      k += 1
    } else {
      while digit(k) { k += 1 }
    }
    var fractional = false
    if k < count, base[k] == UInt8(ascii: ".") {
      fractional = true
      k += 1
      guard digit(k) else { throw .malformed(start, "invalid number") }
      while digit(k) { k += 1 }
    }
    if k < count, base[k] | 0x20 == UInt8(ascii: "e") {
      fractional = true
      k += 1
      if k < count, base[k] == UInt8(ascii: "+") || base[k] == UInt8(ascii: "-") { k += 1 }
      guard digit(k) else { throw .malformed(start, "invalid number") }
      while digit(k) { k += 1 }
    }
    // `01`, `1.2.3`, `1e5e5`, `12abc`: the number runs on into something that is not a separator.
    if k < count {
      let c = base[k]
      if c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || isWordByte(c) {
        throw .malformed(start, "invalid number")
      }
    }
    index = k
    return fractional
  }

  /// The value of a number without fraction or exponent, or nil if it has one or does not fit in an `Int`.
  @inline(__always)
  func integerValue(_ ref: JSONValueRef) -> Int? {
    guard ref.kind == .number, !ref.flag else { return nil }
    var k = ref.start
    let negative = base[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    let digits = ref.end - k
    if digits <= 18 {
      var value = 0
      while k < ref.end {
        value = value &* 10 &+ Int(base[k] &- UInt8(ascii: "0"))
        k += 1
      }
      return negative ? -value : value
    }
    var value = 0
    while k < ref.end {
      let (times10, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(base[k] &- UInt8(ascii: "0")))
      guard !o1, !o2 else { return nil }
      value = sum
      k += 1
    }
    return negative ? -value : value
  }

  /// The nearest `Double` to a number token (correctly rounded).
  ///
  /// Implementation note: up to 19 significant digits with a decimal exponent
  /// of at most 22 either way are converted exactly with one multiplication
  /// or division (Clinger's fast path: both operands are exact doubles, so
  /// IEEE rounding gives the correctly rounded result). Everything else goes
  /// to the standard library's correctly rounded parser.
  @inline(__always)
  func doubleValue(_ ref: JSONValueRef) -> Double {
    var k = ref.start
    let negative = base[k] == UInt8(ascii: "-")
    if negative { k += 1 }
    var mantissa: UInt64 = 0
    var digitCount = 0
    var exponent = 0
    while k < ref.end, base[k] &- UInt8(ascii: "0") < 10 {
      mantissa = mantissa &* 10 &+ UInt64(base[k] &- UInt8(ascii: "0"))
      digitCount += 1
      k += 1
    }
    if k < ref.end, base[k] == UInt8(ascii: ".") {
      k += 1
      while k < ref.end, base[k] &- UInt8(ascii: "0") < 10 {
        mantissa = mantissa &* 10 &+ UInt64(base[k] &- UInt8(ascii: "0"))
        digitCount += 1
        exponent -= 1
        k += 1
      }
    }
    if k < ref.end || digitCount > 19 || mantissa > 1 << 53 || exponent < -22 {
      return slowDoubleValue(ref)
    }
    var value = Double(mantissa)
    if exponent < 0 { value /= Self.powersOfTen[-exponent] }
    return negative ? -value : value
  }

  static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  @inline(never)
  func slowDoubleValue(_ ref: JSONValueRef) -> Double {
    let text = String(decoding: UnsafeBufferPointer(start: base + ref.start, count: ref.end - ref.start), as: UTF8.self)
    return Double(text) ?? .nan
  }

  /// Scans `true`, `false` or `null` at `index`.
  @inline(__always)
  mutating func scanLiteral(_ literal: StaticString, inside container: JSONContainer) throws(DecodeError) {
    let n = literal.utf8CodeUnitCount
    guard index + n <= count, bytesEqual(base + index, n, literal), index + n == count || !isWordByte(base[index + n])
    else { throw expectedValue(inside: container) }
    index += n
  }

  // MARK: Values

  /// Scans any value at `index` (after whitespace) and moves past it.
  /// - Parameters:
  ///   - depth: the nesting depth of the container the value is in (the top-level object is 1).
  ///   - container: what the value is inside, for the end-of-line message.
  @inline(__always)
  mutating func scanValue(depth: Int, inside container: JSONContainer) throws(DecodeError) -> JSONValueRef {
    guard index < count else { throw .malformed(count, "unexpected end of line inside \(container.phrase)") }
    let start = index
    switch base[index] {
    case Self.quote:
      let escaped = try scanString()
      return JSONValueRef(kind: .string, flag: escaped, start: start, end: index)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let fractional = try scanNumber()
      return JSONValueRef(kind: .number, flag: fractional, start: start, end: index)
    case UInt8(ascii: "t"):
      try scanLiteral("true", inside: container)
      return JSONValueRef(kind: .bool, flag: true, start: start, end: index)
    case UInt8(ascii: "f"):
      try scanLiteral("false", inside: container)
      return JSONValueRef(kind: .bool, flag: false, start: start, end: index)
    case UInt8(ascii: "n"):
      try scanLiteral("null", inside: container)
      return JSONValueRef(kind: .null, flag: false, start: start, end: index)
    case UInt8(ascii: "{"):
      try scanContainer(depth: depth + 1)
      return JSONValueRef(kind: .object, flag: false, start: start, end: index)
    case UInt8(ascii: "["):
      try scanContainer(depth: depth + 1)
      return JSONValueRef(kind: .array, flag: false, start: start, end: index)
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      throw .malformed(start, "invalid number")
    default:
      throw expectedValue(inside: container)
    }
  }

  /// One open container of ``scanContainer(depth:)``.
  private struct Frame {
    var isObject: Bool
    /// The keys seen so far (objects only), unescaped.
    var keys: Set<[UInt8]> = []
  }

  /// Scans the object or array at `index`, with everything nested in it, and moves past it.
  ///
  /// Implementation note: nesting is followed with an explicit stack rather
  /// than recursion, and the depth is checked before each container is
  /// entered, so a hostile line can neither overflow the machine stack nor
  /// go deeper than `maxDepth`. Nested values only occur in keys the format
  /// does not define, so this path may allocate.
  /// - Parameter depth: the depth of the container at `index`.
  @inline(never)
  mutating func scanContainer(depth: Int) throws(DecodeError) {
    guard depth <= maxDepth else { throw .tooDeep(index, limit: maxDepth) }
    var frames = [Frame(isObject: base[index] == UInt8(ascii: "{"))]
    index += 1
    var first = true
    while true {
      skipWhitespace()
      var isObject = frames[frames.count - 1].isObject
      var container: JSONContainer { isObject ? .object : .array }
      let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
      if first, index < count, base[index] == close {
        index += 1
        frames.removeLast()
        if frames.isEmpty { return }
      } else {
        if isObject {
          guard index < count, base[index] == Self.quote else {
            throw unexpected("expected '\"' to start a key", inside: .object)
          }
          let keyStart = index
          let escaped = try scanString()
          let key =
            escaped
            ? unescape(from: keyStart + 1, to: index - 1)
            : Array(UnsafeBufferPointer(start: base + keyStart + 1, count: index - 1 - (keyStart + 1)))
          guard frames[frames.count - 1].keys.insert(key).inserted else { throw .duplicateKey(keyStart, key) }
          skipWhitespace()
          guard index < count, base[index] == UInt8(ascii: ":") else {
            throw unexpected("expected ':' after a key", inside: .object)
          }
          index += 1
          skipWhitespace()
        }
        if index < count, base[index] == UInt8(ascii: "{") || base[index] == UInt8(ascii: "[") {
          guard depth + frames.count <= maxDepth else { throw .tooDeep(index, limit: maxDepth) }
          frames.append(Frame(isObject: base[index] == UInt8(ascii: "{")))
          index += 1
          first = true
          continue
        }
        _ = try scanValue(depth: depth + frames.count - 1, inside: container)
      }
      // After a value: a comma, or the end of one or more containers.
      while true {
        skipWhitespace()
        isObject = frames[frames.count - 1].isObject
        guard index < count else {
          throw .malformed(count, "unexpected end of line inside \(container.phrase)")
        }
        if base[index] == UInt8(ascii: ",") {
          index += 1
          first = false
          break
        }
        guard base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
          throw unexpected(
            isObject ? "expected ',' or '}' after a value" : "expected ',' or ']' after a value", inside: container)
        }
        index += 1
        frames.removeLast()
        if frames.isEmpty { return }
      }
    }
  }

  // MARK: Describing what was found

  /// The JSON text of a value, verbatim.
  func text(_ ref: JSONValueRef) -> String {
    String(decoding: UnsafeBufferPointer(start: base + ref.start, count: ref.end - ref.start), as: UTF8.self)
  }

  /// A value as error messages show it: its JSON text cut to 20 characters, or `an object` / `an array`.
  @inline(never)
  func found(_ ref: JSONValueRef) -> String {
    switch ref.kind {
    case .object: "an object"
    case .array: "an array"
    default: displayText(text(ref), limit: 20)
    }
  }

  /// The error for an unexpected byte (or the end of the line) where `expectation` was due.
  @inline(never)
  func unexpected(_ expectation: String, inside container: JSONContainer) -> DecodeError {
    guard index < count else { return .malformed(count, "unexpected end of line inside \(container.phrase)") }
    if let error = invalidUTF8(at: index) { return error }
    return .malformed(index, "\(expectation), found '\(characterText(at: index))'")
  }

  /// The error for something at `index` that cannot start a value.
  @inline(never)
  func expectedValue(inside container: JSONContainer) -> DecodeError {
    guard index < count else { return .malformed(count, "unexpected end of line inside \(container.phrase)") }
    if let error = invalidUTF8(at: index) { return error }
    if isWordByte(base[index]) { return .malformed(index, "expected a value, found '\(wordText(at: index))'") }
    return .malformed(index, "expected a value, found '\(characterText(at: index))'")
  }

  /// The error for a line that does not start with an object.
  @inline(never)
  func notAnObject() -> DecodeError {
    guard index < count else { return .malformed(index, "expected a JSON object, found the end of the line") }
    if let error = invalidUTF8(at: index) { return error }
    let found: String
    switch base[index] {
    case UInt8(ascii: "["): found = "an array"
    case Self.quote: found = "a string"
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): found = "a number"
    case let c where isWordByte(c):
      let word = wordText(at: index)
      found = word == "true" || word == "false" || word == "null" ? word : "'\(word)'"
    default: found = "'\(characterText(at: index))'"
    }
    return .malformed(index, "expected a JSON object, found \(found)")
  }

  /// The character at `k` (valid UTF-8 there), made safe to show.
  func characterText(at k: Int) -> String {
    let length = base[k] < 0x80 ? 1 : max(1, utf8SequenceLength(at: k))
    return displayText(String(decoding: UnsafeBufferPointer(start: base + k, count: length), as: UTF8.self))
  }

  /// The run of letters and digits at `k`, cut to 20 characters.
  func wordText(at k: Int) -> String {
    var end = k
    while end < count, isWordByte(base[end]) { end += 1 }
    return displayText(String(decoding: UnsafeBufferPointer(start: base + k, count: end - k), as: UTF8.self), limit: 20)
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
