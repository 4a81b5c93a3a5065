extension Timestamp {
  /// Parses exactly the form writers emit, `YYYY-MM-DDTHH:MM:SS.ffffffZ`, or
  /// returns nil; the caller then falls back to ``parse(_:allowOffset:exactMicroseconds:)``,
  /// which accepts the other forms and explains what is wrong.
  ///
  /// Implementation note: every line has a time, so the decoder reads the
  /// canonical 27 bytes with fixed offsets and no closures; the checks and the
  /// arithmetic are those of the general parser, so both give the same value.
  @inline(__always)
  static func parseCanonical(_ p: UnsafePointer<UInt8>, _ n: Int) -> Timestamp? {
    guard n == 27, p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "T"),
      p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "."), p[26] == UInt8(ascii: "Z")
    else { return nil }
    var bad = false
    @inline(__always) func digits(_ from: Int, _ count: Int) -> Int64 {
      var value: Int64 = 0
      for k in from..<(from + count) {
        let d = p[k] &- UInt8(ascii: "0")
        bad = bad || d > 9
        value = value &* 10 &+ Int64(d)
      }
      return value
    }
    let year = digits(0, 4)
    let month = digits(5, 2)
    let day = digits(8, 2)
    let hour = digits(11, 2)
    let minute = digits(14, 2)
    let second = digits(17, 2)
    let micros = digits(20, 6)
    guard !bad, month >= 1, month <= 12, day >= 1, day <= daysInMonth(year: year, month: month), hour <= 23,
      minute <= 59, second <= 60
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + Swift.min(second, 59)
    return Timestamp(microseconds: seconds * 1_000_000 + micros)
  }
}
