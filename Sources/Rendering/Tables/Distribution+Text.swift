import Projection

extension Distribution {
  /// Microseconds as milliseconds with exactly three decimals (exact, no rounding): `1250.000`;
  /// `-` for none. The one way the tables write a duration.
  public static func milliseconds(_ microseconds: Int64?) -> String {
    guard let microseconds else { return "-" }
    let m = microseconds.magnitude
    let fraction = String(m % 1000)
    return (microseconds < 0 ? "-" : "") + "\(m / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
