/// Low-level JSON output as the journal format specifies: no spaces, strings
/// escaped minimally (only `"`, `\` and control characters), numbers as
/// ECMAScript's `Number.prototype.toString` writes them.
public enum JSONWriter {
  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends `value` as a JSON string literal (with quotes).
  ///
  /// Implementation note: runs of bytes that need no escape are copied in one
  /// `append(contentsOf:)`; this is the encoder's hottest loop.
  @inlinable
  public static func appendString(_ value: String, to out: inout [UInt8]) {
    var value = value
    value.withUTF8 { appendString(bytes: UnsafeRawBufferPointer($0), to: &out) }
  }

  @usableFromInline
  static func appendString(bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    appendEscaped(bytes, to: &out, forHTML: false)
  }

  /// Appends `value` as a JSON string literal that is also safe inside an HTML
  /// `<script>` element: besides the journal's escapes, `<`, `>`, `&`, U+2028
  /// and U+2029 are written as `\u003c`, `\u003e`, `\u0026`, `\u2028`,
  /// `\u2029`, so no string can end the element (`</script>`), open a comment
  /// or break a JavaScript line. The value read back is the same string.
  public static func appendHTMLSafeString(_ value: String, to out: inout [UInt8]) {
    var value = value
    value.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), to: &out, forHTML: true) }
  }

  /// Implementation note: always inlined into the two callers with a constant
  /// `forHTML`, so the journal encoder's loop keeps its three comparisons.
  @inline(__always)
  private static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8], forHTML: Bool) {
    out.append(UInt8(ascii: "\""))
    var start = 0
    var i = 0
    let n = bytes.count
    while i < n {
      let c = bytes[i]
      if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\")
        && !(forHTML && isHTMLSpecial(c, bytes, i))
      {
        i += 1
        continue
      }
      if start < i { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<i])) }
      out.append(UInt8(ascii: "\\"))
      if forHTML && c == 0xE2 {
        // U+2028 or U+2029: E2 80 A8 / E2 80 A9.
        out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "2")])
        out.append(bytes[i + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
        i += 3
        start = i
        continue
      }
      if let letter = escapeLetter(c) {
        out.append(letter)
      } else {
        out.append(contentsOf: [
          UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(c >> 4)], hex[Int(c & 15)],
        ])
      }
      i += 1
      start = i
    }
    if start < n { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<n])) }
    out.append(UInt8(ascii: "\""))
  }

  /// The letter after `\` that escapes `c` (`"`, `\`, or a control character with
  /// a short escape), or nil for the control characters written `\u00XX`.
  @inline(__always)
  static func escapeLetter(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "\""): UInt8(ascii: "\"")
    case UInt8(ascii: "\\"): UInt8(ascii: "\\")
    case 0x08: UInt8(ascii: "b")
    case 0x0C: UInt8(ascii: "f")
    case 0x0A: UInt8(ascii: "n")
    case 0x0D: UInt8(ascii: "r")
    case 0x09: UInt8(ascii: "t")
    default: nil
    }
  }

  /// `<`, `>`, `&`, or the first byte of U+2028 or U+2029.
  @inline(__always)
  private static func isHTMLSpecial(_ c: UInt8, _ bytes: UnsafeRawBufferPointer, _ i: Int) -> Bool {
    switch c {
    case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): return true
    case 0xE2: return i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
    default: return false
    }
  }

  /// Appends an integer in decimal.
  ///
  /// Implementation note: the digits are written straight into the array's new room
  /// (``ByteWriter/int(_:)``): a trace writes some ten integers per event. Up to three digits
  /// (a report's lanes, indexes and counts, some million of them) are appended one by one
  /// instead: reserving the room costs more than they do.
  public static func appendInt(_ value: Int, to out: inout [UInt8]) {
    let zero = UInt8(ascii: "0")
    if UInt(bitPattern: value) < 1000 {
      let v = UInt8(truncatingIfNeeded: value / 100)
      let rest = value % 100
      if v != 0 { out.append(zero &+ v) }
      if v != 0 || rest >= 10 { out.append(zero &+ UInt8(truncatingIfNeeded: rest / 10)) }
      out.append(zero &+ UInt8(truncatingIfNeeded: rest % 10))
      return
    }
    ByteWriter.append(atMost: ByteWriter.maxIntLength, to: &out) { $0.int(value) }
  }

  /// Appends a number as ECMAScript's `Number.prototype.toString` writes it:
  /// the shortest digits that read back exactly, `120` not `120.0`, decimal form
  /// for 1e-6 ≤ |x| < 1e21, exponent form (`1e-7`, `1e+21`) outside it, `-0` as `0`.
  /// Non-finite values cannot be written in JSON and are written as `null`.
  public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
    guard value.isFinite else {
      out.append(contentsOf: Array("null".utf8))
      return
    }
    if value == 0 {
      out.append(UInt8(ascii: "0"))
      return
    }
    if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
      appendInt(Int(value), to: &out)
      return
    }
    if appendShortDecimal(value, to: &out) { return }
    // Swift's shortest round-tripping digits in decimal form ("72.5", "0.001")
    // are ECMAScript's too; only exponent forms ("1e-07") and whole numbers
    // from 2^53 ("9007199254740992.0") need laying out again. Such short
    // strings live inline, so this path allocates nothing.
    var swift = value.description
    let decimal = swift.withUTF8 { bytes in
      guard !bytes.contains(UInt8(ascii: "e")), !bytes.reversed().starts(with: [UInt8(ascii: "0"), UInt8(ascii: ".")])
      else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if !decimal { out.append(contentsOf: Array(ecmaScriptString(value).utf8)) }
  }

  /// A number of one to three decimals below 10^9 (a pan's `19.5`), written without formatting a
  /// string (``ByteWriter/shortDecimal(_:)``); false, nothing written, for any other number.
  @inline(__always)
  private static func appendShortDecimal(_ value: Double, to out: inout [UInt8]) -> Bool {
    var written = false
    ByteWriter.append(atMost: ByteWriter.maxShortNumberLength, to: &out) { written = $0.shortDecimal(value) }
    return written
  }

  /// The ECMAScript spelling of a finite, non-zero double.
  static func ecmaScriptString(_ value: Double) -> String {
    // Swift's description gives the shortest round-tripping digits; only the
    // layout differs. Split it into sign, digits and decimal exponent.
    let swift = value.magnitude.description  // e.g. "120.0", "1e-07", "1.2345e+20", "0.001"
    var mantissa = Substring(swift)
    var exp10 = 0
    if let e = swift.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = swift[..<e]
      exp10 = Int(swift[swift.index(after: e)...]) ?? 0
    }
    var digits = ""
    var pointPosition = 0  // digits before the decimal point
    if let dot = mantissa.firstIndex(of: ".") {
      let intPart = mantissa[..<dot]
      let fracPart = mantissa[mantissa.index(after: dot)...]
      digits = String(intPart) + String(fracPart)
      pointPosition = intPart.count
    } else {
      digits = String(mantissa)
      pointPosition = digits.count
    }
    // Strip leading zeros (adjusting the point) and trailing zeros.
    while digits.count > 1, digits.first == "0" {
      digits.removeFirst()
      pointPosition -= 1
    }
    while digits.count > 1, digits.last == "0" { digits.removeLast() }
    // n is ECMAScript's exponent: value = 0.d1d2... × 10^n
    let n = pointPosition + exp10
    let k = digits.count
    var result = value < 0 ? "-" : ""
    if k <= n && n <= 21 {
      result += digits + String(repeating: "0", count: n - k)
    } else if 0 < n && n <= 21 {
      let idx = digits.index(digits.startIndex, offsetBy: n)
      result += digits[..<idx] + "." + digits[idx...]
    } else if -6 < n && n <= 0 {
      result += "0." + String(repeating: "0", count: -n) + digits
    } else {
      let e = n - 1
      let sign = e < 0 ? "-" : "+"
      if k == 1 {
        result += digits + "e" + sign + String(abs(e))
      } else {
        result += String(digits.first!) + "." + digits.dropFirst() + "e" + sign + String(abs(e))
      }
    }
    return result
  }
}
