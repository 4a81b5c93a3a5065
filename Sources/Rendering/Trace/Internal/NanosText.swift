import Journal

/// Times as OTLP writes them, `time.microseconds * 1000` in decimal (`timeUnixNano`), the digits of
/// the seconds kept from the last time written: most times of a trace share them.
///
/// OTLP's times are unsigned 64-bit nanoseconds since 1970, so they reach from 1970 to 2554; a
/// journal's time outside (the format allows years 0000 to 9999) is written as the nearest end
/// (`docs/trace.md`): multiplied as it is, a time after 2262 would trap and one before 1970 would
/// give a negative number that OTLP's own parser refuses.
struct NanosText {
  private var second: Int64 = -1
  private var secondDigits: [UInt8] = []

  /// The latest time OTLP can carry, in microseconds: its nanoseconds fit in 64 unsigned bits.
  static let latestMicroseconds = Int64(UInt64.max / 1000)

  /// The room ``write(_:to:)`` needs: a second of at most 11 digits and a fraction of 9.
  static var room: Int { 29 }

  /// The time in microseconds since 1970 that OTLP carries for `time`: the time itself, or the
  /// nearest end of OTLP's range.
  @inline(__always)
  static func microseconds(_ time: Timestamp) -> Int64 {
    min(max(time.microseconds, 0), latestMicroseconds)
  }

  /// A time in nanoseconds since 1970, in decimal (in quotes, a JSON string, with `quoted`), its
  /// seconds' digits written anew (for the few times written apart from a lane's events).
  static func write(_ time: Timestamp, quoted: Bool = false, to out: inout ByteWriter) {
    let micros = microseconds(time)
    let second = micros / 1_000_000
    if quoted { out.raw("\"") }
    if second > 0 {
      out.int(Int(second))
      writeFraction(micros, second, to: &out)
    } else {
      out.int(Int(micros) * 1000)
    }
    if quoted { out.raw("\"") }
  }

  /// A time in nanoseconds since 1970, in decimal.
  @inline(__always)
  mutating func write(_ time: Timestamp, to out: inout ByteWriter) {
    let micros = Self.microseconds(time)
    let second = micros / 1_000_000
    guard second > 0 else { return out.int(Int(micros) * 1000) }
    if second != self.second {
      self.second = second
      secondDigits.removeAll(keepingCapacity: true)
      JSONWriter.appendInt(Int(second), to: &secondDigits)
    }
    out.bytes(secondDigits)
    Self.writeFraction(micros, second, to: &out)
  }

  /// The microseconds' six digits after `second`, zero-padded, and the nanoseconds' three zeros.
  @inline(__always)
  private static func writeFraction(_ micros: Int64, _ second: Int64, to out: inout ByteWriter) {
    out.sixDigits(Int(micros - second * 1_000_000))
    out.raw("000")
  }
}
