/// Lengths of time on the command line: `--duration` of simulate, `--within` of funnel.
enum DurationText {
  /// Milliseconds in a length such as `90s`, `15m`, `2h`, `1h30m` or `500ms`
  /// (whole numbers, each unit at most once, largest first); nil when it is not one.
  static func milliseconds(_ text: String) -> Int64? {
    let units: [(suffix: String, scale: Int64)] = [("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1000)]
    var rest = Substring(text)
    var total: Int64 = 0
    var last = Int64.max
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }), unit.scale < last else { return nil }
      rest = rest.dropFirst(unit.suffix.count)
      last = unit.scale
      // A length whose milliseconds do not fit is not one (2562047788h would overflow).
      let (part, overflow) = value.multipliedReportingOverflow(by: unit.scale)
      let (sum, carry) = total.addingReportingOverflow(part)
      guard !overflow, !carry else { return nil }
      total = sum
    }
    return text.isEmpty ? nil : total
  }
}
