/// A journal line written through a pointer into memory sized beforehand: the
/// encoder's fast path for the common events (``Record/encode(into:)``).
///
/// Implementation note: appending to an `Array` piece by piece would pay a
/// uniqueness and a capacity check, and a generic copy, for each of the twenty
/// or so pieces of a line; here each piece is a few stores, and the line is
/// appended to the output once.
struct RawLine {
  private let base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0

  /// Bytes a line may need beyond 6 per byte of its strings (``Event/fastStringBytes``):
  /// the envelope, the keys, the enumerations' values and two numbers (about 260),
  /// and the 16 bytes a ``text(_:)`` stores.
  static let fixedBound = 400

  init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

  /// The bytes written.
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  @inline(__always)
  mutating func byte(_ value: UInt8) {
    base[count] = value
    count &+= 1
  }

  /// Copies bytes that need no escaping (keys, enumerations' values).
  @inline(__always)
  mutating func raw(_ text: StaticString) {
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count &+= text.utf8CodeUnitCount
  }

  /// Copies a text of the codec's tables (a key, a type's name); 16 bytes are
  /// written, the line's bound leaves room for them.
  @inline(__always)
  mutating func text(_ text: ShortText) {
    text.store(at: base + count)
    count &+= text.count
  }

  /// Copies a string's bytes as they are (an enumeration's raw value).
  @inline(__always)
  mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      (base + count).update(from: bytes.baseAddress!, count: bytes.count)
      count &+= bytes.count
    }
  }

  /// A JSON string literal, escaped as ``JSONWriter/appendString(_:to:)`` escapes.
  @inline(__always)
  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { string(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// A controller id as a JSON string literal (its bytes read in place).
  @inline(__always)
  mutating func id(_ id: ControllerID) {
    id.withUTF8 { string(bytes: $0) }
  }

  /// The JSON string literal of `bytes` (UTF-8).
  @inline(__always)
  mutating func string(bytes: UnsafeRawBufferPointer) {
    byte(UInt8(ascii: "\""))
    if let start = bytes.baseAddress {
      var i = 0
      // Eight bytes at a time while they are all printable ASCII without `"` or `\` (the decoder's
      // test): ids and class names nearly always are; the rest goes byte by byte.
      while i + 8 <= bytes.count {
        let word = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
        guard JSONScanner.specialBytes(UInt64(littleEndian: word)) == 0 else { break }
        UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
        count &+= 8
        i += 8
      }
      while i < bytes.count {
        let c = bytes[i]
        if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
          byte(c)
        } else {
          escape(c)
        }
        i += 1
      }
    }
    byte(UInt8(ascii: "\""))
  }

  private mutating func escape(_ c: UInt8) {
    byte(UInt8(ascii: "\\"))
    if let letter = JSONWriter.escapeLetter(c) { return byte(letter) }
    let hex: StaticString = "0123456789abcdef"
    raw("u00")
    byte(hex.utf8Start[Int(c >> 4)])
    byte(hex.utf8Start[Int(c & 15)])
  }

  /// An integer in decimal.
  @inline(__always)
  mutating func int(_ value: Int) {
    if value < 0 { byte(UInt8(ascii: "-")) }
    var v = value.magnitude
    var digits = 1
    var limit: UInt = 10
    while v >= limit && digits < 19 {
      digits += 1
      limit &*= 10
    }
    if v >= limit { digits += 1 }
    var i = count + digits - 1
    repeat {
      base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      v /= 10
      i -= 1
    } while v > 0
    count += digits
  }

  /// A number as ``JSONWriter/appendNumber(_:to:)`` writes it; false for the
  /// rare spellings it leaves to that function (exponents, non-finite values,
  /// whole numbers from 2^53).
  @inline(__always)
  mutating func number(_ value: Double) -> Bool {
    guard value.isFinite else { return false }
    if value == 0 {
      byte(UInt8(ascii: "0"))
      return true
    }
    if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
      int(Int(value))
      return true
    }
    var text = value.description
    return text.withUTF8 { bytes in
      // Swift's shortest digits are ECMAScript's but for exponents and a trailing `.0`.
      guard !bytes.contains(UInt8(ascii: "e")),
        bytes.count < 2 || bytes[bytes.count - 2] != UInt8(ascii: ".")
          || bytes[bytes.count - 1] != UInt8(ascii: "0")
      else { return false }
      (base + count).update(from: bytes.baseAddress!, count: bytes.count)
      count &+= bytes.count
      return true
    }
  }

  /// The time as ``Timestamp/appendRFC3339(to:)`` writes it; false for a year
  /// outside 0…9999, which that function spells. `day` is the day of the time
  /// written last (an ``EncodedDay`` of its own for none): its date is copied
  /// while the times stay in it, the calendar arithmetic done once a day.
  @inline(__always)
  mutating func time(_ time: Timestamp, day: inout EncodedDay) -> Bool {
    let (days, micros) = time.microseconds.floorDivided(by: 86_400_000_000)
    if days != day.days || !day.isSet {
      let (y, m, d) = Timestamp.civil(fromDays: days)
      guard y >= 0 && y <= 9999 else { return false }
      day = EncodedDay(days: days, year: y, month: m, day: d)
    }
    // `YYYY-MM-DDT`: 11 bytes of the 16 stored (the line's bound leaves room for them).
    day.date.store(at: base + count)
    count &+= 11
    let secondsOfDay = micros / 1_000_000
    put(secondsOfDay / 3600, width: 2)
    byte(UInt8(ascii: ":"))
    put(secondsOfDay / 60 % 60, width: 2)
    byte(UInt8(ascii: ":"))
    put(secondsOfDay % 60, width: 2)
    byte(UInt8(ascii: "."))
    put(micros % 1_000_000, width: 6)
    byte(UInt8(ascii: "Z"))
    return true
  }

  /// `value` in `width` digits, zeros first.
  @inline(__always)
  private mutating func put(_ value: Int64, width: Int) {
    var v = value
    var i = count + width - 1
    while i >= count {
      base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
      v /= 10
      i -= 1
    }
    count += width
  }
}

extension RawLine {
  /// An enumeration's raw value in quotes (ASCII that needs no escaping).
  @inline(__always)
  mutating func word(_ text: String) {
    byte(UInt8(ascii: "\""))
    raw(text)
    byte(UInt8(ascii: "\""))
  }

  /// ``number(_:)``, long and written twice a `pan` only: kept out of line, so the other values' writing is shorter.
  @inline(never)
  mutating func numberOutOfLine(_ value: Double) -> Bool { number(value) }
}

/// The day of the time an encoder wrote last, and its date as written,
/// `YYYY-MM-DDT` (see ``RawLine/time(_:day:)``).
///
/// Implementation note: a journal's times are nearly all of one day, so the
/// date is computed once per day rather than turning every time into a civil
/// date.
struct EncodedDay {
  /// Days since 1970-01-01.
  private(set) var days: Int64 = 0
  private(set) var isSet = false
  /// `YYYY-MM-DDT`.
  private(set) var date = ShortText("")

  init() {}

  /// A year from 0 to 9999.
  init(days: Int64, year: Int64, month: Int64, day: Int64) {
    var bytes = [UInt8](repeating: 0, count: ShortText.capacity)
    func put(_ value: Int64, _ width: Int, at start: Int) {
      var v = value
      for i in (start..<start + width).reversed() {
        bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
        v /= 10
      }
    }
    put(year, 4, at: 0)
    bytes[4] = UInt8(ascii: "-")
    put(month, 2, at: 5)
    bytes[7] = UInt8(ascii: "-")
    put(day, 2, at: 8)
    bytes[10] = UInt8(ascii: "T")
    self.days = days
    isSet = true
    date = bytes.withUnsafeBufferPointer { ShortText(copying: $0.baseAddress!, 11) }
  }
}
