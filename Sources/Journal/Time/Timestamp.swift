/// A point in time, UTC, with microsecond precision.
///
/// Parses and prints RFC 3339 as the journal format specifies: writers emit
/// `2026-11-29T10:23:12.521000Z` (exactly 6 fractional digits); readers accept
/// 0 to 9 fractional digits (digits finer than a microsecond are truncated).
///
/// ```swift
/// let t = try Timestamp(rfc3339: "2026-11-29T10:23:12.521Z")
/// t.rfc3339  // "2026-11-29T10:23:12.521000Z"
/// ```
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds since 1970-01-01T00:00:00Z.
  public var microseconds: Int64

  public init(microseconds: Int64) { self.microseconds = microseconds }

  /// The default start of the model's logical clock, `2026-01-01T00:00:00Z`.
  public static let modelEpoch = Timestamp(microseconds: 1_767_225_600_000_000)

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

  /// The latest time a journal can hold, `9999-12-31T23:59:59.999999Z`: RFC 3339 has four digits
  /// for the year, so readers refuse a later one and writers never write it.
  public static let latest = Timestamp(microseconds: 253_402_300_799_999_999)

  /// This time plus some milliseconds.
  public func adding(milliseconds: Int64) -> Timestamp {
    Timestamp(microseconds: microseconds + milliseconds * 1000)
  }

  /// Milliseconds from `self` to `other` (may be fractional).
  public func milliseconds(to other: Timestamp) -> Double {
    Double(other.microseconds - microseconds) / 1000
  }

  public var description: String { rfc3339 }

  /// The wire form: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
  public var rfc3339: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(27)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the wire form to a byte buffer (the encoder's fast path).
  ///
  /// Implementation note: every journal line carries a time, so this writes
  /// the 27 bytes into a fixed-size buffer digit by digit, with no
  /// intermediate arrays or strings.
  public func appendRFC3339(to out: inout [UInt8]) {
    let (days, micros) = microseconds.floorDivided(by: 86_400_000_000)
    let (y, m, d) = Timestamp.civil(fromDays: days)
    guard y >= 0 && y <= 9999 else {
      // Outside RFC 3339's four-digit years: still print something readable.
      out.append(contentsOf: String(y).utf8)
      var rest: [UInt8] = []
      Timestamp(microseconds: Timestamp.daysFromCivil(year: 2000, month: m, day: d) * 86_400_000_000 + micros)
        .appendRFC3339(to: &rest)
      out.append(contentsOf: rest.dropFirst(4))
      return
    }
    let secondsOfDay = micros / 1_000_000
    let fraction = micros % 1_000_000
    let zero = UInt8(ascii: "0")
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { b in
      @inline(__always) func put(_ value: Int64, at index: Int, width: Int) {
        var v = value
        var i = index + width - 1
        while i >= index {
          b[i] = zero &+ UInt8(truncatingIfNeeded: v % 10)
          v /= 10
          i -= 1
        }
      }
      put(y, at: 0, width: 4)
      b[4] = UInt8(ascii: "-")
      put(m, at: 5, width: 2)
      b[7] = UInt8(ascii: "-")
      put(d, at: 8, width: 2)
      b[10] = UInt8(ascii: "T")
      put(secondsOfDay / 3600, at: 11, width: 2)
      b[13] = UInt8(ascii: ":")
      put(secondsOfDay / 60 % 60, at: 14, width: 2)
      b[16] = UInt8(ascii: ":")
      put(secondsOfDay % 60, at: 17, width: 2)
      b[19] = UInt8(ascii: ".")
      put(fraction, at: 20, width: 6)
      b[26] = UInt8(ascii: "Z")
      out.append(contentsOf: UnsafeBufferPointer(b))
    }
  }

  /// Why a time string was refused.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset in the string where the problem is.
    public var offset: Int
    public var message: String
    public var description: String { message }
  }

  /// Parses RFC 3339.
  /// - Parameters:
  ///   - text: e.g. `2026-11-29T10:23:12.521000Z`.
  ///   - allowOffset: accept `+hh:mm`/`-hh:mm` zones and convert to UTC (scenario `start=`); journals require `Z`.
  ///   - exactMicroseconds: refuse non-zero digits finer than a microsecond instead of truncating them.
  /// - Throws: ``ParseError`` naming the offset and what was expected.
  public init(rfc3339 text: String, allowOffset: Bool = false, exactMicroseconds: Bool = false) throws(ParseError) {
    var copy = text
    let result = copy.withUTF8 { buffer in
      Timestamp.parse(UnsafeRawBufferPointer(buffer), allowOffset: allowOffset, exactMicroseconds: exactMicroseconds)
    }
    switch result {
    case .success(let t): self = t
    case .failure(let e): throw e
    }
  }

  /// Parses RFC 3339 from bytes (the decoder's fast path).
  public static func parse(
    _ s: UnsafeRawBufferPointer, allowOffset: Bool = false, exactMicroseconds: Bool = false
  ) -> Result<Timestamp, ParseError> {
    var i = 0
    let n = s.count
    func fail(_ message: String) -> Result<Timestamp, ParseError> {
      .failure(ParseError(offset: min(i, n), message: message))
    }
    func digits(_ count: Int) -> Int64? {
      guard i + count <= n else { return nil }
      var v: Int64 = 0
      for k in 0..<count {
        let c = s[i + k]
        guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
        v = v * 10 + Int64(c - UInt8(ascii: "0"))
      }
      i += count
      return v
    }
    func expect(_ ch: UInt8) -> Bool {
      guard i < n && s[i] == ch else { return false }
      i += 1
      return true
    }
    let expected = "expected an RFC 3339 time like 2026-11-29T10:23:12.521000Z"
    guard let year = digits(4), expect(UInt8(ascii: "-")),
      let month = digits(2), expect(UInt8(ascii: "-")),
      let day = digits(2)
    else { return fail(expected) }
    guard i < n, s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") else { return fail(expected) }
    i += 1
    guard let hour = digits(2), expect(UInt8(ascii: ":")),
      let minute = digits(2), expect(UInt8(ascii: ":")),
      let second = digits(2)
    else { return fail(expected) }
    guard month >= 1 && month <= 12, day >= 1 && day <= daysInMonth(year: year, month: month) else {
      return fail("invalid date in time")
    }
    guard hour <= 23, minute <= 59, second <= 60 else { return fail("invalid time of day") }
    var micros: Int64 = 0
    if i < n && s[i] == UInt8(ascii: ".") {
      i += 1
      var count = 0
      while i < n, s[i] >= UInt8(ascii: "0") && s[i] <= UInt8(ascii: "9") {
        let d = Int64(s[i] - UInt8(ascii: "0"))
        if count < 6 {
          micros = micros * 10 + d
        } else if exactMicroseconds && d != 0 {
          return fail("digits finer than a microsecond")
        }
        count += 1
        i += 1
        if count > 9 { return fail("at most 9 fractional digits") }
      }
      if count == 0 { return fail("expected digits after '.' in time") }
      while count < 6 {
        micros *= 10
        count += 1
      }
    }
    var zoneOffsetSeconds: Int64 = 0
    if i < n && (s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z")) {
      i += 1
    } else if allowOffset, i < n, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
      let sign: Int64 = s[i] == UInt8(ascii: "+") ? 1 : -1
      i += 1
      guard let oh = digits(2), expect(UInt8(ascii: ":")), let om = digits(2), oh <= 23, om <= 59 else {
        return fail("expected a zone offset like +01:00")
      }
      zoneOffsetSeconds = sign * (oh * 3600 + om * 60)
    } else {
      return fail(
        allowOffset
          ? "expected 'Z' or a zone offset at the end of the time" : "expected 'Z' (UTC) at the end of the time")
    }
    guard i == n else { return fail("unexpected characters after the time") }
    let days = daysFromCivil(year: year, month: month, day: day)
    let minuteOfDay = hour * 60 + minute - zoneOffsetSeconds / 60
    if second == 60 {
      // A leap second is inserted after 23:59:59 UTC only. It is read as the last microsecond
      // of that minute, so that the times around it stay in order (a timestamp counts 60
      // seconds a minute: its fraction cannot be kept).
      guard minuteOfDay.floorDivided(by: 1440).1 == 1439 else {
        i = 17
        return fail("a leap second (:60) comes only after 23:59:59 UTC")
      }
      let secs = days * 86_400 + minuteOfDay * 60 + 59
      return .success(Timestamp(microseconds: secs * 1_000_000 + 999_999))
    }
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - zoneOffsetSeconds
    return .success(Timestamp(microseconds: secs * 1_000_000 + micros))
  }

  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
  }
}

extension Int64 {
  /// Floor division and the non-negative remainder.
  func floorDivided(by d: Int64) -> (Int64, Int64) {
    var q = self / d
    var r = self % d
    if r < 0 {
      q -= 1
      r += d
    }
    return (q, r)
  }
}
