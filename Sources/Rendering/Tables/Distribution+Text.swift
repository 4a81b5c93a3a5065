import Journal
import Projection

extension Distribution {
  /// Microseconds as milliseconds with exactly three decimals (exact, no rounding): `1250.000`;
  /// `-` for none. The one way the tables write a duration.
  public static func milliseconds(_ microseconds: Int64?) -> String {
    var bytes: [UInt8] = []
    appendMilliseconds(microseconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``milliseconds(_:)`` appended to bytes (a table of tens of thousands of rows writes no string a cell).
  package static func appendMilliseconds(_ microseconds: Int64?, to out: inout [UInt8]) {
    guard let microseconds else { return out.append(UInt8(ascii: "-")) }
    if microseconds < 0 { out.append(UInt8(ascii: "-")) }
    let m = microseconds.magnitude
    JSONWriter.appendInt(Int(m / 1000), to: &out)
    let fraction = Int(m % 1000)
    out.append(UInt8(ascii: "."))
    out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
    out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
    out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
  }
}
