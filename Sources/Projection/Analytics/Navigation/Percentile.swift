/// A percentile of a ``Distribution``, by nearest rank: `p` from 0 to 100 with
/// at most three decimals (`50`, `95`, `99.9`). The p-th percentile of n
/// values is the value of rank ⌈n·p/100⌉ (at least 1) in ascending order,
/// DuckDB's `quantile_disc(x, p / 100)`; p 0 is the least value, p 100 the
/// greatest.
///
/// Implementation note: `p` is kept in thousandths, so that the rank is exact
/// (99.9 % of 1,000 values is rank 999, which `Double` arithmetic made 1,000).
public struct Percentile: Sendable, Hashable, CustomStringConvertible {
  /// p × 1000: 95 % is 95,000.
  public let thousandths: Int

  /// The percentile `p` (a whole number of percent, 0...100).
  public init(_ p: Int) {
    precondition((0...100).contains(p), "a percentile is between 0 and 100")
    thousandths = p * 1000
  }

  /// The percentile written as `95` or `99.9` (0 to 100, at most three decimals); nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy(\.isASCIIDigit),
      let units = Int(whole)
    else { return nil }
    var fraction = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit) else { return nil }
      fraction = Int(digits + String(repeating: "0", count: 3 - digits.count))!
    }
    let value = units * 1000 + fraction
    guard value <= 100_000 else { return nil }
    thousandths = value
  }

  /// p50, p90 and p99: what `latency` shows unless asked for others.
  public static let standard = [Percentile(50), Percentile(90), Percentile(99)]

  /// `95`, `99.9`: the shortest decimal that is the percentile.
  public var description: String {
    var text = String(thousandths / 1000)
    var fraction = thousandths % 1000
    guard fraction > 0 else { return text }
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let written = String(fraction)
    text += "." + String(repeating: "0", count: digits - written.count) + written
    return text
  }

  /// `p95`, `p99.9`: its name as a column or key.
  public var name: String { "p" + description }

  /// The rank of this percentile among `count` values, 1-based.
  func rank(of count: Int) -> Int {
    max(1, (count * thousandths + 99_999) / 100_000)
  }
}

extension Distribution {
  /// The values at these percentiles, in their order, and the greatest value, in microseconds
  /// (nil when empty), sorting once.
  public func values(at percentiles: [Percentile]) -> (count: Int, percentiles: [Int64?], max: Int64?) {
    guard !values.isEmpty else { return (0, percentiles.map { _ in nil }, nil) }
    let ordered = isSorted ? values : values.sorted()
    return (ordered.count, percentiles.map { ordered[$0.rank(of: ordered.count) - 1] }, ordered.last!)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
