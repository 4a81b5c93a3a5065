/// Writes bytes straight into memory reserved for them beforehand: the pieces
/// of one output value (a trace event, an integer) without a capacity check,
/// a uniqueness check and a call per piece.
///
/// A writer is made over a buffer of `capacity` bytes (``JSONBuffer/write(atMost:_:)``
/// reserves it in the output array); each method checks that its bytes fit
/// and traps if they do not, so a wrong reservation is a crash, never a write
/// past the buffer. ``count`` is what was written. A writer lives only as long
/// as the closure it is handed to: the memory is the array's.
///
/// ```swift
/// var json = JSONBuffer()
/// json.write(atMost: 64) { out in
///   out.raw(#"{"ts":"#)
///   out.int(1_500_000)
///   out.raw("}")
/// }
/// // {"ts":1500000}
/// ```
///
/// Implementation note: a trace writes some 250 bytes in about ten pieces for
/// each event of a journal; appending each piece to an array (a generic copy,
/// a uniqueness check and a capacity check each time) would be most of the cost
/// of `trace`'s busiest thread. Public, frozen and inlinable (not `package`): the
/// optimizer inlines a `package` function into another module of the package
/// in no case, and each piece must be inlined where the event is written.
@frozen
public struct ByteWriter {
  @usableFromInline let base: UnsafeMutablePointer<UInt8>
  @usableFromInline let capacity: Int
  @usableFromInline var written = 0
  /// The bytes written so far, from the buffer's start.
  @inlinable public var count: Int { written }

  /// The most bytes ``int(_:)`` writes (`-9223372036854775808`).
  @inlinable public static var maxIntLength: Int { 20 }

  /// A writer into `buffer`, which outlives it (``append(atMost:to:_:)`` and
  /// ``appendCopied(atMost:to:_:)`` make one).
  @inlinable
  package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1).unsafelyUnwrapped
    capacity = buffer.count
  }

  /// Lets `body` write at most `capacity` bytes at the end of `out`, into room reserved for them
  /// (`append(addingCapacity:)`, which grows the array as `append` does).
  @inlinable
  @inline(__always)
  public static func append(atMost capacity: Int, to out: inout [UInt8], _ body: (inout ByteWriter) -> Void) {
    out.append(addingCapacity: capacity) { span in
      span.withUnsafeMutableBufferPointer { buffer, initialized in
        var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: buffer[initialized...]))
        body(&writer)
        initialized &+= writer.count
      }
    }
  }

  /// ``append(atMost:to:_:)`` through a buffer on the stack, then copied: `out` grows by what
  /// was written, not by the room reserved. For many small arrays (a trace's waiting span events,
  /// one array per controller), whose capacity the room would raise for good.
  /// - Precondition: `capacity` is at most ``stackCapacity``.
  @inlinable
  @inline(__always)
  public static func appendCopied(atMost capacity: Int, to out: inout [UInt8], _ body: (inout ByteWriter) -> Void) {
    precondition(capacity <= stackCapacity, "ByteWriter: more room than the stack buffer has")
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackCapacity) { buffer in
      var writer = ByteWriter(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
      body(&writer)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<writer.count]))
    }
  }

  /// The most bytes ``appendCopied(atMost:to:_:)`` writes.
  @inlinable public static var stackCapacity: Int { 1024 }

  /// Room for `n` more bytes, or a trap (the caller reserved too little).
  @inlinable
  @inline(__always)
  func ensure(_ n: Int) {
    precondition(n <= capacity &- count, "ByteWriter: more bytes than were reserved")
  }

  /// Text the caller spelled out in the source, verbatim.
  @inlinable
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    guard text.hasPointerRepresentation else {
      return text.withUTF8Buffer { copy(UnsafeRawBufferPointer($0)) }
    }
    let n = text.utf8CodeUnitCount
    ensure(n)
    (base + count).initialize(from: text.utf8Start, count: n)
    written &+= n
  }

  /// Bytes copied as they are.
  @inlinable
  @inline(__always)
  public mutating func bytes(_ bytes: RawSpan) {
    bytes.withUnsafeBytes { copy($0) }
  }

  /// Bytes copied as they are (the body of the public forms).
  @inlinable
  @inline(__always)
  mutating func copy(_ bytes: UnsafeRawBufferPointer) {
    ensure(bytes.count)
    if let source = bytes.baseAddress {
      UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
    }
    written &+= bytes.count
  }

  /// Bytes copied as they are.
  @inlinable
  @inline(__always)
  public mutating func bytes(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { copy($0) }
  }

  /// Text copied as it is, in UTF-8: text that needs no escape where it goes (a raw value, a name).
  @inlinable
  @inline(__always)
  public mutating func text(_ text: String) {
    var text = text
    text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
  }

  /// One byte.
  @inlinable
  @inline(__always)
  public mutating func byte(_ byte: UInt8) {
    ensure(1)
    base[count] = byte
    written &+= 1
  }

  /// An integer in decimal (at most ``maxIntLength`` bytes).
  ///
  /// Implementation note: the digits' count first (comparisons), then two digits a step from a
  /// table, from the last one back, straight into place.
  @inlinable
  @inline(__always)
  public mutating func int(_ value: Int) {
    ensure(Self.maxIntLength)
    var v = value.magnitude
    if value < 0 {
      base[count] = UInt8(ascii: "-")
      written &+= 1
    }
    var digits = 1
    var rest = v
    while rest >= 10_000 {
      digits &+= 4
      rest /= 10_000
    }
    if rest >= 10 { digits &+= 1 }
    if rest >= 100 { digits &+= 1 }
    if rest >= 1_000 { digits &+= 1 }
    written &+= digits
    var i = count
    let pairs = Self.digitPairs
    while v >= 100 {
      let pair = Int(truncatingIfNeeded: v % 100) &* 2
      v /= 100
      i &-= 2
      base[i] = pairs[pair]
      base[i &+ 1] = pairs[pair &+ 1]
    }
    if v >= 10 {
      let pair = Int(truncatingIfNeeded: v) &* 2
      base[i &- 2] = pairs[pair]
      base[i &- 1] = pairs[pair &+ 1]
    } else {
      base[i &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
    }
  }

  /// A value from 0 to 10^`width` - 1 in decimal, zeros before it to make `width` digits
  /// (`width` at most ``maxIntLength``): the fraction of a time, `000250000`.
  @inlinable
  @inline(__always)
  public mutating func int(_ value: Int, width: Int) {
    precondition(value >= 0 && width <= Self.maxIntLength, "ByteWriter: a padded integer is from 0, in 20 digits")
    ensure(width)
    var v = value
    var i = written &+ width
    while i > written {
      i &-= 1
      base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      v /= 10
    }
    precondition(v == 0, "ByteWriter: \(value) has more than \(width) digits")
    written &+= width
  }

  /// A value from 0 to 999,999 in six digits, zeros before it (the microseconds of a time), two
  /// digits a step from a table.
  @inlinable
  @inline(__always)
  public mutating func sixDigits(_ value: Int) {
    precondition(value >= 0 && value < 1_000_000, "ByteWriter: \(value) is not six digits")
    ensure(6)
    let pairs = Self.digitPairs
    let high = value / 10_000
    let rest = value &- high &* 10_000
    let middle = rest / 100
    let low = rest &- middle &* 100
    let at = base + written
    at[0] = pairs[high &* 2]
    at[1] = pairs[high &* 2 &+ 1]
    at[2] = pairs[middle &* 2]
    at[3] = pairs[middle &* 2 &+ 1]
    at[4] = pairs[low &* 2]
    at[5] = pairs[low &* 2 &+ 1]
    written &+= 6
  }

  /// The most bytes ``number(_:)`` writes (`-0.0000012345678901234567`, 25, with room to spare).
  @inlinable public static var maxNumberLength: Int { 32 }

  /// A number as ``JSONWriter/appendNumber(_:to:)`` spells it (at most ``maxNumberLength`` bytes):
  /// the short ones in place (``shortNumber(_:)``), any other through the general spelling.
  @inlinable
  public mutating func number(_ value: Double) {
    ensure(Self.maxNumberLength)
    if shortNumber(value) { return }
    var text: [UInt8] = []
    JSONWriter.appendNumber(value, to: &text)
    bytes(text)
  }

  /// The room ``shortNumber(_:)`` and ``shortDecimal(_:)`` need: a sign, an integer's room
  /// (``maxIntLength``), a point and three decimals.
  @inlinable public static var maxShortNumberLength: Int { 25 }

  /// A number as ``JSONWriter/appendNumber(_:to:)`` spells it, when that spelling is short: zero,
  /// a whole number below 2^53 in magnitude, or one of one to three decimals below 10^9
  /// (``shortDecimal(_:)``). Returns false, having written nothing, for any other number (and for
  /// infinities and NaN): the caller then writes it with ``JSONWriter/appendNumber(_:to:)``.
  ///
  /// Implementation note: a pan's distance and velocity, written in the piece of its event rather
  /// than appended each on its own.
  @inlinable
  public mutating func shortNumber(_ value: Double) -> Bool {
    guard value.isFinite else { return false }
    if value == 0 {
      byte(UInt8(ascii: "0"))
      return true
    }
    if value == value.rounded(.towardZero) && value.magnitude < 9_007_199_254_740_992 {
      int(Int(value))
      return true
    }
    return shortDecimal(value)
  }

  /// A number of one to three decimals below 10^9 (a pan's `19.5`) without formatting a string:
  /// `n` / 10^k for the smallest k that makes `|value|` × 10^k a whole number `n` that reads back
  /// as `|value|`. Returns false, having written nothing, for any other number.
  ///
  /// Implementation note: such an `n` with a last digit other than 0 is the shortest spelling
  /// (one with fewer decimals would have been found at a smaller k, or made `n` end in 0, which
  /// is left to the general path), and the only one of k decimals: below 10^9, 10^-3 is more
  /// than the spacing of doubles, so no two spellings of k decimals read back as one double.
  @inlinable
  public mutating func shortDecimal(_ value: Double) -> Bool {
    let magnitude = value.magnitude
    guard magnitude < 1e9 else { return false }
    var scale = 1.0
    for decimals in 1...3 {
      scale *= 10
      let scaled = magnitude * scale
      guard scaled == scaled.rounded(.towardZero) else { continue }
      let n = Int(scaled)
      guard n % 10 != 0, Double(n) / scale == magnitude else { return false }
      ensure(Self.maxShortNumberLength)
      let unit = Int(scale)
      if value < 0 { byte(UInt8(ascii: "-")) }
      int(n / unit)
      byte(UInt8(ascii: "."))
      int(n % unit, width: decimals)
      return true
    }
    return false
  }

  /// "00" to "99", two bytes each.
  @inlinable
  static var digitPairs: UnsafePointer<UInt8> {
    let pairs: StaticString = """
      0001020304050607080910111213141516171819202122232425262728293031323334353637383940\
      4142434445464748495051525354555657585960616263646566676869707172737475767778798081\
      828384858687888990919293949596979899
      """
    return pairs.utf8Start
  }
}
