/// Numbers (RFC 8259's grammar, their integer and `Double` values) and the literals `true`, `false`, `null`.
extension JSONScanner {
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
}
